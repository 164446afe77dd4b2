// psnr CPU reference: exact per-plane SSE (docs/psnr.md §4.1).
#include <vector>

#include "base/thread_pool.h"
#include "extractors/psnr.h"
#include "kernels/psnr_ops.h"

namespace vmafhip {

namespace {

template <typename T> uint64_t plane_sse(const PlaneView &ref, const PlaneView &dis, ThreadPool &pool)
{
    std::vector<uint64_t> rows(static_cast<size_t>(ref.h));
    pool.parallel_for(ref.h, 32, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const T *r = ref.row<T>(y), *d = dis.row<T>(y);
            uint64_t sum = 0;
            for (int x = 0; x < ref.w; x++)
                sum += psnr_sq_diff(r[x], d[x]);
            rows[y] = sum;
        }
    });
    uint64_t total = 0;
    for (uint64_t v : rows)
        total += v;
    return total;
}

} // namespace

void Psnr::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    PsnrAccum &a = *static_cast<PsnrAccum *>(accum);
    for (int p = 0; p < 3; p++)
        a.sse[p] = 0;
    for (int p = 0; p < planes_; p++)
        a.sse[p] = g_.bpc > 8 ? plane_sse<uint16_t>(f.ref[p], f.dis[p], pool)
                              : plane_sse<uint8_t>(f.ref[p], f.dis[p], pool);
}

} // namespace vmafhip
