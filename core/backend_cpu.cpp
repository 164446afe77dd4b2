// The CPU reference backend. With one frame in flight it scores each frame
// inside submit(), straight from the caller's planes. With more, submit()
// copies the planes into a ring of owned buffers and a worker thread scores
// them in order, so callers (the FFmpeg filter) get the same asynchronous
// behaviour as on the GPU; rows of one frame are split over the thread pool
// either way.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "core/backend.h"
#include "base/thread_pool.h"

namespace vmafhip {

namespace {

// Largest sample of a plane; only needed above 8 bits (values beyond
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

void score(const Metrics &m, const FrameView &f, ThreadPool &pool, FrameAccum *a)
{
    *a = FrameAccum{};
    if (m.g.range_checked()) {
        for (int p = 0; p < m.chroma_planes_read(); p++)
            a->max_sample = std::max({a->max_sample, plane_max(f.ref[p], pool), plane_max(f.dis[p], pool)});
        if (a->max_sample > m.g.max_sample())
            return; // the core reports the range error; nothing to score
    }
    if (m.psnr)
        psnr_cpu(*m.psnr, m.g, f, &a->psnr, pool);
    if (m.ssim)
        ssim_cpu(*m.ssim, m.g, f, &a->ssim, pool);
    if (m.adm)
        adm_cpu(*m.adm, m.g, f, &a->adm, pool);
}

class CpuBackend final : public Backend {
public:
    CpuBackend(const Metrics &m, int threads, int depth)
        : m_(m), pool_(threads), jobs_(static_cast<size_t>(depth))
    {
        if (depth > 1)
            worker_ = std::thread([this] { work(); });
    }

    ~CpuBackend() override
    {
        if (!worker_.joinable())
            return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        worker_.join();
    }

    const std::string &name() const override { return name_; }
    int depth() const override { return static_cast<int>(jobs_.size()); }

    int submit(const FrameView &f, std::string *) override
    {
        Job &j = jobs_[head_ % jobs_.size()];
        if (!worker_.joinable()) {
            score(m_, f, pool_, &j.accum);
            head_++;
            return 0;
        }
        own_copy(f, &j);
        {
            std::lock_guard<std::mutex> lock(mutex_);
            j.state = Job::QUEUED;
            head_++;
        }
        wake_.notify_all();
        return 0;
    }

    int collect(bool wait, FrameAccum *out, std::string *) override
    {
        Job &j = jobs_[tail_ % jobs_.size()];
        if (worker_.joinable()) {
            std::unique_lock<std::mutex> lock(mutex_);
            if (!wait && j.state != Job::DONE)
                return -EAGAIN;
            done_.wait(lock, [&] { return j.state == Job::DONE; });
            j.state = Job::FREE;
        }
        *out = j.accum;
        tail_++;
        return 0;
    }

private:
    struct Job {
        enum State { FREE, QUEUED, DONE } state = FREE;
        std::vector<uint8_t> buf; ///< owned copy of the planes
        FrameView view;
        FrameAccum accum{};
    };

    // Packs the planes of f into j's buffer (allocated once, on first use).
    void own_copy(const FrameView &f, Job *j)
    {
        const int bps = m_.g.bytes_per_sample(), planes = m_.chroma_planes_read();
        size_t total = 0;
        for (int p = 0; p < planes; p++)
            total += 2 * static_cast<size_t>(f.ref[p].w) * f.ref[p].h * bps;
        j->buf.resize(total);
        uint8_t *dst = j->buf.data();
        for (int pic = 0; pic < 2; pic++)
            for (int p = 0; p < planes; p++) {
                const PlaneView &src = pic ? f.dis[p] : f.ref[p];
                const size_t row = static_cast<size_t>(src.w) * bps;
                PlaneView &v = pic ? j->view.dis[p] : j->view.ref[p];
                v = PlaneView{dst, static_cast<ptrdiff_t>(row), src.w, src.h};
                for (int y = 0; y < src.h; y++, dst += row)
                    std::memcpy(dst, src.row<uint8_t>(y), row);
            }
    }

    void work()
    {
        for (unsigned next = 0;; next++) {
            Job &j = jobs_[next % jobs_.size()];
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || j.state == Job::QUEUED; });
                if (stop_)
                    return;
            }
            score(m_, j.view, pool_, &j.accum);
            {
                std::lock_guard<std::mutex> lock(mutex_);
                j.state = Job::DONE;
            }
            done_.notify_all();
        }
    }

    const Metrics &m_;
    ThreadPool pool_;
    std::vector<Job> jobs_;
    unsigned head_ = 0, tail_ = 0;
    std::thread worker_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    bool stop_ = false;
    const std::string name_ = "cpu";
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend(const Metrics &m, int threads, int depth)
{
    return std::make_unique<CpuBackend>(m, threads, std::max(depth, 1));
}

} // namespace vmafhip
