// psnr CPU reference: exact per-plane SSE (docs/psnr.md §4.1), the rows of
// all planes in one job for the pool, each row summed by the kernels of
// psnr_cpu_rows.h. Integer sums: the result depends neither on the split
// nor on the kernels.
#include <algorithm>
#include <atomic>

#include "base/thread_pool.h"
#include "extractors/psnr/psnr_cpu_rows.h"
#include "kernels/psnr/psnr_ops.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up.
constexpr int MIN_ROWS = 32;

template <typename T> uint64_t sse_row(const T *a, const T *b, int w)
{
    uint64_t sum = 0;
    for (int x = 0; x < w; x++)
        sum += psnr_sq_diff(a[x], b[x]);
    return sum;
}

uint64_t sse8(const uint8_t *a, const uint8_t *b, int w) { return sse_row(a, b, w); }
uint64_t sse16(const uint16_t *a, const uint16_t *b, int w, int) { return sse_row(a, b, w); }

} // namespace

const PsnrKernels &psnr_kernels_scalar()
{
    static const PsnrKernels k = {sse8, sse16};
    return k;
}

void psnr_cpu_sse(const FrameView &f, int planes, int bpc, const PsnrKernels &k, ThreadPool &pool,
                  PsnrAccum *a)
{
    // Items [first[p], first[p + 1]) are the rows of plane p.
    int first[4] = {0, 0, 0, 0};
    for (int p = 0; p < planes; p++)
        first[p + 1] = first[p] + f.ref[p].h;
    std::atomic<uint64_t> sse[3] = {{0}, {0}, {0}};
    pool.parallel_for(first[planes], MIN_ROWS, [&](int k0, int k1) {
        for (int p = 0; p < planes; p++) {
            const PlaneView &r = f.ref[p], &d = f.dis[p];
            const int y0 = std::max(k0, first[p]) - first[p], y1 = std::min(k1, first[p + 1]) - first[p];
            uint64_t sum = 0;
            for (int y = y0; y < y1; y++)
                sum += bpc > 8 ? k.sse16(r.row<uint16_t>(y), d.row<uint16_t>(y), r.w, bpc)
                               : k.sse8(r.row<uint8_t>(y), d.row<uint8_t>(y), r.w);
            if (sum)
                sse[p].fetch_add(sum, std::memory_order_relaxed);
        }
    });
    for (int p = 0; p < 3; p++)
        a->sse[p] = sse[p].load();
}

void Psnr::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    psnr_cpu_sse(f, planes_, g_.bpc, *k_, pool, static_cast<PsnrAccum *>(accum));
}

} // namespace vmafhip
