// float_ssim per-sample and per-pixel arithmetic (docs/ssim.md §2-§5), shared
// by the CPU reference and the GPU kernels. Every float32 rounding point of
// libvmaf is a named float variable, so no compiler can keep excess precision
// across it; products are never contracted into FMAs (-ffp-contract=off on the
// host, -fmad=false / -ffp-contract=off on the device; docs/ssim.md §8). Plain
// float/double arithmetic only, so the header also compiles as device code.
// Every § below is a section of docs/ssim.md.
#pragma once

#include <math.h> // ::sqrt(double), also in device code
#include <stddef.h> // ptrdiff_t
#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

// §3 constants, written as exact hex literals of the bit patterns listed there;
// the static_asserts show they are libvmaf's float expressions.
constexpr float SSIM_K1 = 0x1.47ae14p-7f; // 0.01f, 0x3c23d70a
constexpr float SSIM_K2 = 0x1.eb851ep-6f; // 0.03f, 0x3cf5c28f
constexpr float SSIM_C1 = 0x1.a028f4p+2f; // (K1*L)*(K1*L), 0x40d0147a
constexpr float SSIM_C2 = 0x1.d42e12p+5f; // (K2*L)*(K2*L), 0x426a1709
constexpr float SSIM_C3 = 0x1.d42e12p+4f; // C2 / 2.0f,     0x41ea1709
static_assert(SSIM_K1 == 0.01f && SSIM_K2 == 0.03f, "K1/K2 are libvmaf's float literals");
static_assert(SSIM_C1 == (SSIM_K1 * 255) * (SSIM_K1 * 255), "C1 = (K1*L)*(K1*L) in float");
static_assert(SSIM_C2 == (SSIM_K2 * 255) * (SSIM_K2 * 255), "C2 = (K2*L)*(K2*L) in float");
static_assert(SSIM_C3 == SSIM_C2 / 2.0f, "C3 = C2 / 2");

/// Sizes of one context, host-built (Ssim::params()), passed by value to kernels.
struct SsimParams {
    int32_t scale;        ///< downscale factor (1 = none)
    int32_t dec_w, dec_h; ///< size after downscaling
    int32_t map_w, map_h; ///< SSIM map size: the "valid" 11x11 window, dec - 10
};

/// Sums over the SSIM map (double); also the layout the GPU writes.
struct SsimAccum {
    double ssim, l, c, s;
};

constexpr int SSIM_TAPS = 11;     ///< Gaussian window, sigma 1.5, separable
constexpr int SSIM_MIN_SIZE = 11; ///< smallest (decimated) size with a non-empty map

/// 1-D Gaussian tap u (0..10), libvmaf's float literals, used unnormalised
/// (they sum to 1.000002; §3). A function, not an array: namespace-scope
/// constexpr arrays are not visible in CUDA device code.
VMAFHIP_HD constexpr float ssim_gauss_tap(int u)
{
    const int i = u < 5 ? u : 10 - u; // symmetric
    return i == 0   ? 0x1.0d7beap-10f  // 0.001028f
           : i == 1 ? 0x1.f20210p-8f   // 0.007599f
           : i == 2 ? 0x1.26eb92p-5f   // 0.036001f
           : i == 3 ? 0x1.bff152p-4f   // 0.109361f
           : i == 4 ? 0x1.b43c7ep-3f   // 0.213006f
                    : 0x1.106574p-2f;  // 0.266012f
}
static_assert(ssim_gauss_tap(0) == 0.001028f && ssim_gauss_tap(9) == 0.007599f &&
                  ssim_gauss_tap(2) == 0.036001f && ssim_gauss_tap(7) == 0.109361f &&
                  ssim_gauss_tap(4) == 0.213006f && ssim_gauss_tap(5) == 0.266012f,
              "taps are libvmaf's float literals");

/// §2: a sample on the 8-bit scale. v / 2^(bpc-8) is exact in float32. The
/// divisor is libvmaf's; pass a constant bpc so the compiler can turn the exact
/// power-of-two division into a multiply.
template <typename T> VMAFHIP_HD float ssim_normalise(T v, int bpc)
{
    const float x = static_cast<float>(v);
    return bpc == 10 ? x / 4.0f : bpc == 12 ? x / 16.0f : bpc == 16 ? x / 256.0f : x;
}

/// §4.2: decimated size; the "+1" follows the parity of n, not f (libiqa).
VMAFHIP_HD constexpr int ssim_decimated_size(int n, int f)
{
    return f > 1 ? n / f + (n & 1) : n;
}

/// §4.3: symmetric boundary with edge duplication, one reflection (libiqa's
/// KBND_SYMMETRIC). Enough for every size create() in ssim.cpp accepts.
VMAFHIP_HD int ssim_mirror(int i, int n)
{
    return i < 0 ? -1 - i : i >= n ? 2 * n - 1 - i : i;
}

/// §4.3: box tap weight 1.0f / (f*f), the int product converted to float.
VMAFHIP_HD float ssim_decimate_weight(int f)
{
    return 1.0f / static_cast<float>(f * f);
}

/// §4.3: tap offsets from the anchor, first..last inclusive: -f/2 .. f/2 - (f even).
VMAFHIP_HD constexpr int ssim_decimate_first_tap(int f) { return -(f / 2); }
VMAFHIP_HD constexpr int ssim_decimate_last_tap(int f) { return f / 2 - ((f & 1) ? 0 : 1); }

/// §4.3: one tap of a decimated sample: float32 product, double sum.
VMAFHIP_HD double ssim_decimate_acc(double acc, float sample, float weight)
{
    const float p = sample * weight;
    return acc + static_cast<double>(p);
}

/**
 * §4.3: one decimated sample at output (xo, yo) of a w x h plane of raw
 * samples (T = uint8_t/uint16_t, normalised with bpc) or of floats (bpc 8).
 * f x f box centred on the anchor (xo*f, yo*f), rows outer, columns inner,
 * taps summed in double in that order, rounded to float once. The double
 * sum is exact in any order (docs/ssim.md §4.3), so a caller may add the
 * products differently (the CPU adds source rows column by column first).
 * @param stride row stride in elements of T (may be negative)
 */
template <typename T>
VMAFHIP_HD float ssim_decimate_sample(const T *img, ptrdiff_t stride, int w, int h, int bpc,
                                      int f, int xo, int yo)
{
    const float k = ssim_decimate_weight(f);
    const int lo = ssim_decimate_first_tap(f), hi = ssim_decimate_last_tap(f);
    const int ax = xo * f, ay = yo * f;
    double acc = 0.0;
    for (int dy = lo; dy <= hi; dy++) {
        const T *row = img + static_cast<ptrdiff_t>(ssim_mirror(ay + dy, h)) * stride;
        for (int dx = lo; dx <= hi; dx++)
            acc = ssim_decimate_acc(acc, ssim_normalise(row[ssim_mirror(ax + dx, w)], bpc), k);
    }
    return static_cast<float>(acc);
}

/**
 * §5.1: one 11-tap output of a separable pass (horizontal: step 1; vertical:
 * step = row stride in elements). p[u*step], u = 0..10, is the window; the
 * float32 products are summed in double in tap order, rounded to float once.
 */
VMAFHIP_HD float ssim_filter11(const float *p, ptrdiff_t step)
{
    double acc = 0.0;
    for (int u = 0; u < SSIM_TAPS; u++) {
        const float prod = p[u * step] * ssim_gauss_tap(u);
        acc += static_cast<double>(prod);
    }
    return static_cast<float>(acc);
}

/// The five filtered planes at one position: G(R), G(D), G(R*R), G(D*D), G(R*D).
struct SsimMoments {
    float mu1, mu2, e11, e22, e12;
};

/**
 * §5.1: the horizontal pass of all five planes at once from 11 consecutive
 * samples r[u*step], d[u*step]. The squares and the cross product are
 * float32 first (libvmaf filters float planes of R*R, D*D, R*D); each plane
 * has its own double accumulator in tap order, as in ssim_filter11().
 */
VMAFHIP_HD SsimMoments ssim_hpass5(const float *r, const float *d, ptrdiff_t step)
{
    double a1 = 0.0, a2 = 0.0, a11 = 0.0, a22 = 0.0, a12 = 0.0;
    for (int u = 0; u < SSIM_TAPS; u++) {
        const float g = ssim_gauss_tap(u);
        const float rv = r[u * step], dv = d[u * step];
        const float rr = rv * rv, dd = dv * dv, rd = rv * dv;
        const float p1 = rv * g, p2 = dv * g, p11 = rr * g, p22 = dd * g, p12 = rd * g;
        a1 += static_cast<double>(p1);
        a2 += static_cast<double>(p2);
        a11 += static_cast<double>(p11);
        a22 += static_cast<double>(p22);
        a12 += static_cast<double>(p12);
    }
    return SsimMoments{static_cast<float>(a1), static_cast<float>(a2), static_cast<float>(a11),
                       static_cast<float>(a22), static_cast<float>(a12)};
}

/// Per-pixel terms; ssim = l * c * s (double, left to right).
struct SsimPixel {
    double l, c, s, ssim;
};

/**
 * §5.2: SSIM of one map pixel from the five filtered values. l and c are double
 * quotients of a double numerator by a float denominator, s is a float
 * quotient: libvmaf's mix of precisions, reproduced literally.
 */
VMAFHIP_HD SsimPixel ssim_pixel(float mu1, float mu2, float e11, float e22, float e12)
{
    const float mu11 = mu1 * mu1;
    const float mu22 = mu2 * mu2;
    const float mu12 = mu1 * mu2;
    float s11 = e11 - mu11;
    s11 = s11 < 0.0f ? 0.0f : s11; // rounding can make a flat patch's variance negative
    float s22 = e22 - mu22;
    s22 = s22 < 0.0f ? 0.0f : s22;
    const float s12 = e12 - mu12; // may be negative: not clamped

    const float s1122 = s11 * s22;
    const float sd = static_cast<float>(::sqrt(static_cast<double>(s1122))); // == sqrtf

    const double l_num = 2.0 * static_cast<double>(mu1) * static_cast<double>(mu2) +
                         static_cast<double>(SSIM_C1);
    const float l_sum = mu11 + mu22;
    const float l_den = l_sum + SSIM_C1;
    const double l = l_num / static_cast<double>(l_den);

    const double c_num = 2.0 * static_cast<double>(sd) + static_cast<double>(SSIM_C2);
    const float c_sum = s11 + s22;
    const float c_den = c_sum + SSIM_C2;
    const double c = c_num / static_cast<double>(c_den);

    // Identical flat patches: a negative covariance with zero deviation is 0.
    const float s12c = (s12 < 0.0f && sd <= 0.0f) ? 0.0f : s12;
    const float s_num = s12c + SSIM_C3;
    const float s_den = sd + SSIM_C3;
    const float s = s_num / s_den;

    const double sd_s = static_cast<double>(s);
    return SsimPixel{l, c, sd_s, l * c * sd_s};
}

} // namespace vmafhip
