// The CPU reference backend: computes each frame synchronously in submit().
#include <algorithm>

#include "core/backend.h"
#include "core/thread_pool.h"

namespace vmafhip {

namespace {

// Largest sample of a plane; only needed above 8 bits (spec: values beyond
// 2^bpc - 1 are rejected, never scored).
uint32_t plane_max(const PlaneView &p, ThreadPool &pool)
{
    std::vector<uint16_t> row_max(static_cast<size_t>(p.h), 0);
    pool.parallel_for(p.h, 64, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const uint16_t *r = p.row<uint16_t>(y);
            row_max[y] = p.w ? *std::max_element(r, r + p.w) : 0;
        }
    });
    return row_max.empty() ? 0 : *std::max_element(row_max.begin(), row_max.end());
}

class CpuBackend final : public Backend {
public:
    CpuBackend(const Metrics &m, int threads) : m_(m), pool_(threads) {}

    const std::string &name() const override { return name_; }
    int depth() const override { return 1; }

    int submit(const FrameView &f, std::string *) override
    {
        FrameAccum &a = accum_;
        a = FrameAccum{};
        if (m_.g.bpc > 8 && m_.g.bpc < 16) {
            for (int p = 0; p < m_.chroma_planes_read(); p++)
                a.max_sample = std::max({a.max_sample, plane_max(f.ref[p], pool_),
                                         plane_max(f.dis[p], pool_)});
            if (a.max_sample >= (1u << m_.g.bpc))
                return 0; // the core reports the range error; nothing to score
        }
        if (m_.psnr)
            psnr_cpu(*m_.psnr, m_.g, f, &a.psnr, pool_);
        if (m_.ssim)
            ssim_cpu(*m_.ssim, m_.g, f, &a.ssim, pool_);
        if (m_.adm)
            adm_cpu(*m_.adm, m_.g, f, &a.adm, pool_);
        return 0;
    }

    int collect(bool, FrameAccum *out, std::string *) override
    {
        *out = accum_;
        return 0;
    }

private:
    const Metrics &m_;
    ThreadPool pool_;
    FrameAccum accum_{};
    const std::string name_ = "cpu";
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend(const Metrics &m, int threads)
{
    return std::make_unique<CpuBackend>(m, threads);
}

} // namespace vmafhip
