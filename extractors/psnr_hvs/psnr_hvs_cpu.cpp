// psnr_hvs CPU reference (docs/psnr_hvs.md §3-§5): the error terms of every
// block computed in parallel (kernels/psnr_hvs/psnr_hvs_ops.h, the arithmetic
// the GPU kernels run too), then added in libvmaf's order (blocks row by row,
// the 64 terms of a block row-major) into one float32 sum, which is the C
// code's sequential float sum to the bit.
// Every § below is a section of docs/psnr_hvs.md.
#include <cstdint>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/psnr_hvs/psnr_hvs.h"

namespace vmafhip {

namespace {

const PsnrHvsWeights &weights(int p)
{
    static const PsnrHvsWeights w[3] = {psnr_hvs_weights(0), psnr_hvs_weights(1),
                                        psnr_hvs_weights(2)};
    return w[p];
}

template <typename T>
float plane_sum(const PlaneView &ref, const PlaneView &dis, int p, ThreadPool &pool)
{
    const PsnrHvsWeights &w = weights(p);
    const int bx = psnr_hvs_blocks(ref.w), by = psnr_hvs_blocks(ref.h);
    const size_t row_terms = static_cast<size_t>(bx) * PSNR_HVS_TERMS;
    std::vector<float> terms(row_terms * by);
    pool.parallel_for(by, 1, [&](int y0, int y1) {
        for (int by_i = y0; by_i < y1; by_i++) {
            const int y = by_i * PSNR_HVS_STEP;
            for (int bx_i = 0; bx_i < bx; bx_i++) {
                const ptrdiff_t x = static_cast<ptrdiff_t>(bx_i) * PSNR_HVS_STEP * sizeof(T);
                psnr_hvs_block_terms<T>(ref.data + y * ref.stride + x, ref.stride,
                                        dis.data + y * dis.stride + x, dis.stride, w,
                                        terms.data() + by_i * row_terms +
                                            static_cast<size_t>(bx_i) * PSNR_HVS_TERMS);
            }
        }
    });
    // §5: one float32 sum in libvmaf's order; never split.
    float sum = 0;
    for (const float t : terms)
        sum += t;
    return sum;
}

} // namespace

float psnr_hvs_plane_sum(const PlaneView &ref, const PlaneView &dis, int p, int bpc, ThreadPool &pool)
{
    return bpc > 8 ? plane_sum<uint16_t>(ref, dis, p, pool) : plane_sum<uint8_t>(ref, dis, p, pool);
}

void PsnrHvs::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    PsnrHvsAccum &a = *static_cast<PsnrHvsAccum *>(accum);
    for (int p = 0; p < 3; p++)
        a.sum[p] = psnr_hvs_plane_sum(f.ref[p], f.dis[p], p, g_.bpc, pool);
}

} // namespace vmafhip
