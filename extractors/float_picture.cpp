// libvmaf's picture_copy for the float family (docs/float_psnr.md §1), rows
// converted in parallel: each sample's value depends on that sample alone.
#include "extractors/float_picture.h"

#include <cstddef>
#include <cstdint>

#include "base/thread_pool.h"
#include "kernels/picture_sample.h"

namespace vmafhip {

namespace {

template <typename T> void convert_rows(const PlaneView &p, int bpc, int offset, float *out, int y0, int y1)
{
    for (int y = y0; y < y1; y++) {
        const T *r = p.row<T>(y);
        float *o = out + static_cast<size_t>(y) * p.w;
        for (int x = 0; x < p.w; x++)
            o[x] = picture_sample(r[x], bpc, offset);
    }
}

} // namespace

void float_plane(const PlaneView &p, int bpc, int offset, float *out, ThreadPool *pool)
{
    const auto rows = [&](int y0, int y1) {
        if (bpc > 8)
            convert_rows<uint16_t>(p, bpc, offset, out, y0, y1);
        else
            convert_rows<uint8_t>(p, bpc, offset, out, y0, y1);
    };
    if (pool)
        pool->parallel_for(p.h, 16, rows);
    else
        rows(0, p.h);
}

FloatLuma float_luma(const FrameView &f, int bpc, int offset, ThreadPool &pool)
{
    const int w = f.ref[0].w, h = f.ref[0].h;
    FloatLuma l{w, h, std::vector<float>(static_cast<size_t>(w) * h),
                std::vector<float>(static_cast<size_t>(w) * h)};
    float_plane(f.ref[0], bpc, offset, l.ref.data(), &pool);
    float_plane(f.dis[0], bpc, offset, l.dis.data(), &pool);
    return l;
}

} // namespace vmafhip
