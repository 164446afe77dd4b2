// float_ms_ssim arithmetic shared by the CPU reference and the GPU kernels
// (docs/ms_ssim.md §2-§3): the scale sizes, the accumulator block and the
// 9x9 low-pass decimation of one sample. The SSIM map of each scale is
// float_ssim's (kernels/ssim/ssim_ops.h). Every § below is a section of
// docs/ms_ssim.md.
#pragma once

#include <stddef.h>

#include "kernels/hd.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

constexpr int MS_SSIM_SCALES = 5;
/// Smallest width and height libvmaf scores (§6): its check halves the size
/// four times, rounding down, and wants 11 (the SSIM window) at every scale:
/// 176 >> 4 = 11.
constexpr int MS_SSIM_MIN_SIZE = SSIM_TAPS << (MS_SSIM_SCALES - 1);

/// The map sums of every scale (float_ssim's sums, scale 0 first); the same
/// bytes on the CPU and the GPU.
struct MsSsimAccum {
    SsimAccum scale[MS_SSIM_SCALES];
};

/// Plane sizes of the scales: scale 0 is the frame's luma, each next one
/// n / 2 + (n & 1) of the one before (§3.2).
struct MsSsimSizes {
    int w[MS_SSIM_SCALES], h[MS_SSIM_SCALES];
};

VMAFHIP_HD constexpr int ms_ssim_half(int n) { return n / 2 + (n & 1); }

constexpr int MS_SSIM_LPF_TAPS = 9;

/// §3.1: tap (v, u) of libvmaf's 9x9 filter (the 9/7 biorthogonal wavelet's
/// low-pass), symmetric in both axes and about its diagonal: each row and
/// column 0..4 of its top-left quarter (4 is the centre) is a float literal
/// of libvmaf's table. It is not the outer product of libvmaf's 1-D taps. A
/// function, not an array: namespace-scope arrays are not visible in CUDA
/// device code.
VMAFHIP_HD float ms_ssim_lpf_tap(int v, int u)
{
    const int r = v <= 4 ? v : 8 - v, c = u <= 4 ? u : 8 - u;
    const int a = r < c ? r : c, b = r < c ? c : r; // about the diagonal: a <= b
    switch (a * 5 + b) {
    case 0: return 0.000714f;
    case 1: return -0.000450f;
    case 2: return -0.002090f;
    case 3: return 0.007132f;
    case 4: return 0.016114f;
    case 6: return 0.000283f;
    case 7: return 0.001316f;
    case 8: return -0.004490f;
    case 9: return -0.010146f;
    case 12: return 0.006115f;
    case 13: return -0.020867f;
    case 14: return -0.047149f;
    case 18: return 0.071207f;
    case 19: return 0.160885f;
    default: return 0.363505f; // (4, 4)
    }
}

/**
 * §3.2: output (x, y) of the decimation of a w x h plane: the filter
 * centred on input (2x, 2y), taps row-major, each a float32 product added to
 * a double, rounded to float once; float_ssim's mirror outside the plane.
 * in: raw samples (normalised with bpc, §2) or floats (bpc 8: the identity).
 */
template <typename T>
VMAFHIP_HD float ms_ssim_decimate_sample(const T *in, int w, int h, int bpc, int x, int y)
{
    int cols[MS_SSIM_LPF_TAPS];
    for (int u = 0; u < MS_SSIM_LPF_TAPS; u++)
        cols[u] = ssim_mirror(2 * x + u - 4, w);
    double acc = 0.0;
    for (int v = 0; v < MS_SSIM_LPF_TAPS; v++) {
        const T *row = in + static_cast<ptrdiff_t>(ssim_mirror(2 * y + v - 4, h)) * w;
        for (int u = 0; u < MS_SSIM_LPF_TAPS; u++) {
            const float p = ssim_normalise(row[cols[u]], bpc) * ms_ssim_lpf_tap(v, u);
            acc += static_cast<double>(p);
        }
    }
    return static_cast<float>(acc);
}

} // namespace vmafhip
