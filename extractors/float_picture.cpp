// libvmaf's picture_copy for the float family (docs/float_psnr.md §1), rows
// converted in parallel: each sample's value depends on that sample alone.
#include "extractors/float_picture.h"

#include <cstddef>
#include <cstdint>

#include "base/thread_pool.h"
#include "kernels/picture_sample.h"

namespace vmafhip {

namespace {

template <typename T>
void convert(const PlaneView &p, int bpc, int offset, float *out, ThreadPool &pool)
{
    pool.parallel_for(p.h, 16, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const T *r = p.row<T>(y);
            float *o = out + static_cast<size_t>(y) * p.w;
            for (int x = 0; x < p.w; x++)
                o[x] = picture_sample(r[x], bpc, offset);
        }
    });
}

void convert_plane(const PlaneView &p, int bpc, int offset, float *out, ThreadPool &pool)
{
    if (bpc > 8)
        convert<uint16_t>(p, bpc, offset, out, pool);
    else
        convert<uint8_t>(p, bpc, offset, out, pool);
}

} // namespace

FloatLuma float_luma(const FrameView &f, int bpc, int offset, ThreadPool &pool)
{
    const int w = f.ref[0].w, h = f.ref[0].h;
    FloatLuma l{w, h, std::vector<float>(static_cast<size_t>(w) * h),
                std::vector<float>(static_cast<size_t>(w) * h)};
    convert_plane(f.ref[0], bpc, offset, l.ref.data(), pool);
    convert_plane(f.dis[0], bpc, offset, l.dis.data(), pool);
    return l;
}

} // namespace vmafhip
