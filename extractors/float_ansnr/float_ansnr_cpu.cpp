// float_ansnr CPU reference (docs/float_psnr.md §3): per row of the frame,
// both filtered rows and the row's float32 sums (rows in parallel: each
// depends on the input planes alone), then the rows' sums added in libvmaf's
// order, top to bottom, into float32 totals. The taps, the filtered samples
// and the sums are kernels/float_picture/float_picture_ops.h's, which the GPU
// runs too.
// Every § below is a section of docs/float_psnr.md.
#include <cstddef>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/float_ansnr/float_ansnr.h"
#include "extractors/float_picture.h"
#include "kernels/float_picture/float_picture_ops.h"

namespace vmafhip {

namespace {

/// §3.1: the 3x3 and 5x5 taps.
constexpr AnsnrTaps TAPS = ansnr_taps();

/// §3.2: row y of plane (w x h) filtered by the N x N taps.
template <int N>
void filter_row(const float *tap, const float *plane, int w, int h, int y, float *out)
{
    for (int x = 0; x < w; x++)
        out[x] = ansnr_filter_pixel<N>(tap, plane, w, h, x, y);
}

} // namespace

void FloatAnsnr::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    // §3.1: samples offset by -128 before filtering.
    const FloatLuma l = float_luma(f, g_.bpc, -128, pool);
    const int w = l.w, h = l.h;
    std::vector<float> row_sig(static_cast<size_t>(h)), row_noise(static_cast<size_t>(h));
    pool.parallel_for(h, 4, [&](int y0, int y1) {
        std::vector<float> ref(static_cast<size_t>(w)), dis(static_cast<size_t>(w));
        for (int y = y0; y < y1; y++) {
            filter_row<3>(TAPS.ref, l.ref.data(), w, h, y, ref.data());
            filter_row<5>(TAPS.dis, l.dis.data(), w, h, y, dis.data());
            // §3.3: the row's sums, left to right.
            ansnr_row_sums(ref.data(), dis.data(), w, &row_sig[y], &row_noise[y]);
        }
    });
    // §3.3: the rows' sums, top to bottom.
    ansnr_total(row_sig.data(), row_noise.data(), h, static_cast<FloatAnsnrAccum *>(accum));
}

} // namespace vmafhip
