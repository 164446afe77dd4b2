// integer ADM per-sample and per-coefficient arithmetic (docs/adm.md §4, §6-§9),
// shared by the CPU reference and the GPU kernels, plus the POD parameter
// block (AdmParams) both take by value. Every § below is a section of
// docs/adm.md.
//
// Device-code rules for this header: fixed-width integer / float / double
// arithmetic only, no std:: calls, no tables (namespace-scope constexpr arrays
// are not visible in CUDA device code, so taps and per-orientation constants
// are written as expressions). Every narrowing of libvmaf's C code (int16 /
// int32 stores, int64 -> float) is an explicit cast here, so both compilers
// produce the same integers by construction.
#pragma once

#include <stddef.h> // ptrdiff_t
#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

constexpr int ADM_SCALES = 4;
constexpr int ADM_MIN_SIZE = 33; ///< §13: smallest W and H with defined results

/// Band / orientation index. H, V, D is also the θ order of every sum (§2.1).
enum AdmBand { ADM_H = 0, ADM_V = 1, ADM_D = 2, ADM_A = 3 };

/// Everything one scale needs; sizes in coefficients.
struct AdmScaleParams {
    int32_t in_w, in_h;   ///< DWT input: the picture at scale 0, else the previous A band
    int32_t w, h;         ///< band size: ceil(in / 2) (§3.1)
    int32_t left, top;    ///< scored region [top, bottom) x [left, right) (§3.2)
    int32_t right, bottom;
    int32_t cl, ct;       ///< decouple/CSF rectangle [ct, cb) x [cl, cr): the region
    int32_t cr, cb;       ///< grown by the 3x3 masking halo, clipped to the band (§3.2)
    uint32_t irf[3];      ///< fixed-point CSF weights H, V, D (§5.3): uint16 range at scale 0
    int32_t den_shift;    ///< den row shift: s0 max(0, clog2(area) - 20), s1-3 clog2(region h) (§7)
    int32_t den_cub;      ///< s1-3 den cube shift clog2(region w); 0 at scale 0 (§7.2)
    int32_t cm_cub[3];    ///< CM cube shift per orientation (§9.2)
    int32_t cm_inner;     ///< CM row shift clog2(h) (§9.3)
};

/// Per-frame accumulators, [scale][orientation H, V, D]; also the GPU layout.
struct AdmAccum {
    int64_t num[4][3];  ///< DLM contrast-masked numerator sums, per-row shifted
    uint64_t den[4][3]; ///< reference energy sums, per-row shifted
    int64_t aim[4][3];  ///< AIM numerator sums; 0 when skip_aim
};

/// Per-context ADM parameters; host-built (Adm::params()), passed by value to kernels.
struct AdmParams {
    AdmScaleParams s[ADM_SCALES];
    int32_t bpc;         ///< 8, 10 or 12
    int32_t skip_scale0; ///< scale 0 computes only its A band (§4.4)
    int32_t skip_aim;    ///< no AIM work (§10)
    double egl;          ///< adm_enhn_gain_limit (§6.3)
};

// ---------------------------------------------------------------------------
// Sizes and shifts (host side mostly; integer forms of libvmaf's double math).

/// clog2(n) = ceil(log2(n)) for n >= 1 (§2.2; libvmaf uses double log2).
VMAFHIP_HD constexpr int adm_clog2(uint32_t n)
{
    int k = 0;
    while (k < 32 && (static_cast<uint64_t>(1) << k) < n)
        k++;
    return k;
}

/// half(k): libvmaf's (uint32)pow(2, k - 1), which is 0 for k = 0 (§2.2).
VMAFHIP_HD constexpr int64_t adm_half(int k) { return k >= 1 ? static_cast<int64_t>(1) << (k - 1) : 0; }

/// §3.2: trunc(n * 0.1 - 0.5), exact integer form.
VMAFHIP_HD constexpr int adm_border(int n) { return n >= 5 ? (n - 5) / 10 : 0; }

/// §3.3 / §9.1: asymmetric mirror: -1 -> 1 (edge not repeated), n -> n - 1
/// (edge repeated). Only p in [-1, n + 1] occurs.
VMAFHIP_HD int adm_mirror(int p, int n) { return p < 0 ? -p : p >= n ? 2 * n - 1 - p : p; }

/// Rounding shift of a complete row sum (§7, §9.3): (x + half(n)) >> n.
VMAFHIP_HD int64_t adm_row_round(int64_t x, int n) { return (x + adm_half(n)) >> n; }
VMAFHIP_HD uint64_t adm_row_round_u(uint64_t x, int n)
{
    return (x + static_cast<uint64_t>(adm_half(n))) >> n;
}

// ---------------------------------------------------------------------------
// §4 DWT. Output sample i reads inputs 2i-1 .. 2i+2 (mirrored) with taps 0..3.

/// db2 low-pass taps 15826, 27411, 7345, -4240 (sum 46342), accumulated in Acc.
template <typename Acc, typename T> VMAFHIP_HD Acc adm_dwt_lo(T x0, T x1, T x2, T x3)
{
    return static_cast<Acc>(15826) * x0 + static_cast<Acc>(27411) * x1 +
           static_cast<Acc>(7345) * x2 - static_cast<Acc>(4240) * x3;
}

/// db2 high-pass taps -4240, -7345, 27411, -15826 (sum 0).
template <typename Acc, typename T> VMAFHIP_HD Acc adm_dwt_hi(T x0, T x1, T x2, T x3)
{
    return -static_cast<Acc>(4240) * x0 - static_cast<Acc>(7345) * x1 +
           static_cast<Acc>(27411) * x2 - static_cast<Acc>(15826) * x3;
}

/// §4.2 scale-0 vertical lo: centre by 46342 * 2^(B-1), round, shift by B
/// (normalises every bit depth to 8-bit units); int32 sums.
VMAFHIP_HD int16_t adm_s0_vert_lo(int32_t p0, int32_t p1, int32_t p2, int32_t p3, int bpc)
{
    const int32_t half = 1 << (bpc - 1);
    const int32_t sum = adm_dwt_lo<int32_t>(p0, p1, p2, p3);
    return static_cast<int16_t>((sum - 46342 * half + half) >> bpc);
}

/// §4.2 scale-0 vertical hi (the hi taps sum to 0: nothing to centre).
VMAFHIP_HD int16_t adm_s0_vert_hi(int32_t p0, int32_t p1, int32_t p2, int32_t p3, int bpc)
{
    const int32_t sum = adm_dwt_hi<int32_t>(p0, p1, p2, p3);
    return static_cast<int16_t>((sum + (1 << (bpc - 1))) >> bpc);
}

/// §4.2 scale-0 horizontal pass result: (sum + 32768) >> 16, stored int16.
VMAFHIP_HD int16_t adm_s0_hori_round(int32_t sum) { return static_cast<int16_t>((sum + 32768) >> 16); }

/// §4.3 scales 1-3: (shift, add) of the vertical and horizontal passes.
/// s1 (0, 0) / (15, 16384); s2 (16, 32768) / (16, 32768); s3 (16, 32768) / (15, 16384).
VMAFHIP_HD constexpr int adm_s123_vert_shift(int scale) { return scale == 1 ? 0 : 16; }
VMAFHIP_HD constexpr int adm_s123_hori_shift(int scale) { return scale == 2 ? 16 : 15; }

/// §4.3: int64 sum, rounding add 2^(shift-1) (none for shift 0), narrowed to int32.
VMAFHIP_HD int32_t adm_s123_round(int64_t sum, int shift)
{
    return static_cast<int32_t>((sum + adm_half(shift)) >> shift);
}

// ---------------------------------------------------------------------------
// §6 decoupling.

/// f32(cos(pi/180)^2) = 0x3F7FEC0A, libvmaf's float constant (§6.1).
constexpr float ADM_COS_1DEG_SQ = 0x1.ffd814p-1f;

/**
 * §6.1 angle test, shared by H, V and D at a position: is the distorted (H, V)
 * vector within 1 degree of the reference one, pointing the same way?
 * Each exact int64 is rounded to float first (libvmaf casts to float), then
 * divided by 4096 in double; products left to right. An exact integer test
 * is NOT equivalent (|d adm2| ~ 1e-7). No additions: FMA contraction cannot
 * change it.
 */
VMAFHIP_HD bool adm_angle_flag(int64_t oh, int64_t ov, int64_t th, int64_t tv)
{
    const int64_t ot = oh * th + ov * tv;
    const int64_t oo = oh * oh + ov * ov;
    const int64_t tt = th * th + tv * tv;
    const float ot_f = static_cast<float>(ot); // the required int64 -> float roundings
    const float oo_f = static_cast<float>(oo);
    const float tt_f = static_cast<float>(tt);
    const double d = static_cast<double>(ot_f) / 4096.0;
    return d >= 0.0 && d * d >= static_cast<double>(ADM_COS_1DEG_SQ) *
                                    (static_cast<double>(oo_f) / 4096.0) *
                                    (static_cast<double>(tt_f) / 4096.0);
}

/// §6.2 reciprocal R(m) = floor(2^30 / |m|) with the sign of m, m in
/// [-32768, 32768] \ {0}. libvmaf's div_lookup table, computed arithmetically.
VMAFHIP_HD int32_t adm_recip(int32_t m)
{
    const int32_t r = static_cast<int32_t>(1073741824 / (m < 0 ? -m : m));
    return m < 0 ? -r : r;
}

/// §6.2: k clamped to [0, 32768] (Q15 for 0..1).
VMAFHIP_HD int32_t adm_clamp_k(int64_t k) { return k < 0 ? 0 : k > 32768 ? 32768 : static_cast<int32_t>(k); }

/// §6.2 scale 0: k = t / o in Q15; 32768 when o = 0.
VMAFHIP_HD int32_t adm_k_s0(int32_t o, int32_t t)
{
    if (o == 0)
        return 32768;
    return adm_clamp_k((static_cast<int64_t>(adm_recip(o)) * t + 16384) >> 15);
}

/// Count of leading zeros of a non-zero uint32.
VMAFHIP_HD int adm_clz32(uint32_t x)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clz(static_cast<int>(x));
#else
    return __builtin_clz(x);
#endif
}

/**
 * §6.2 scales 1-3: |o| is first normalised to 15 bits (libvmaf's
 * get_best15_from32: e = 17 - clz, rounded, so m can be 32768); the sign of o
 * multiplies the product BEFORE the rounding add and shift.
 */
VMAFHIP_HD int32_t adm_k_s123(int32_t o, int32_t t)
{
    if (o == 0)
        return 32768;
    const uint32_t u = o < 0 ? 0u - static_cast<uint32_t>(o) : static_cast<uint32_t>(o);
    int e = 0;
    uint32_t m = u;
    if (u >= 32768u) {
        e = 17 - adm_clz32(u);
        m = (u + (1u << (e - 1))) >> e;
    }
    const int64_t sgn = o < 0 ? -1 : 1;
    const int64_t p = static_cast<int64_t>(adm_recip(static_cast<int32_t>(m))) * t * sgn;
    return adm_clamp_k((p + (static_cast<int64_t>(1) << (14 + e))) >> (15 + e));
}

/**
 * §6.3 restored value r (T = int16_t at scale 0, int32_t at scales 1-3).
 * r0 = round(k * o); inside the 1-degree cone the enhancement is limited to
 * egl * r0 but never beyond t. The branch follows the sign of k*o (libvmaf's
 * float (k/32768)*(o/64), same sign), NOT of r0, and the double result is
 * truncated toward zero (the scalar C conversion; libvmaf's SIMD rounds, §14).
 */
template <typename T> VMAFHIP_HD T adm_restore(int32_t k, T o, T t, bool flag, double egl)
{
    const int64_t ko = static_cast<int64_t>(k) * o;
    const T r0 = static_cast<T>((ko + 16384) >> 15);
    if (flag && ko != 0) {
        const double g = static_cast<double>(r0) * egl;
        const double tv = static_cast<double>(t);
        return static_cast<T>(ko > 0 ? (g < tv ? g : tv) : (g > tv ? g : tv));
    }
    return r0;
}

// ---------------------------------------------------------------------------
// §8 CSF: c = weighted coefficient, f = |c| / 30 (masker of a neighbour);
// §9.1 centre = |c| / 15 (masker of the position itself).

/// Scale 0: shift 15/15/17 and add 16384/16384/65535 (65535, not 65536: libvmaf's constant).
VMAFHIP_HD int16_t adm_csf_s0(uint32_t irf, int16_t x, int theta)
{
    const int32_t add = theta == ADM_D ? 65535 : 16384;
    const int shift = theta == ADM_D ? 17 : 15;
    return static_cast<int16_t>((static_cast<int32_t>(irf) * x + add) >> shift);
}

VMAFHIP_HD int16_t adm_f_s0(int16_t c)
{
    const int32_t a = c < 0 ? -static_cast<int32_t>(c) : c;
    return static_cast<int16_t>((4369 * a + 2048) >> 12);
}

/// The int16 narrowing wraps for |c| >= 15360; the scalar C keeps it (§9.1, §14).
VMAFHIP_HD int16_t adm_centre_s0(int16_t c)
{
    const int32_t a = c < 0 ? -static_cast<int32_t>(c) : c;
    return static_cast<int16_t>((8738 * a + 2048) >> 12);
}

/// Scales 1-3: c = (irf * x + 2^27) >> 28, int64 product.
VMAFHIP_HD int32_t adm_csf_s123(uint32_t irf, int32_t x)
{
    return static_cast<int32_t>((static_cast<int64_t>(irf) * x + (static_cast<int64_t>(1) << 27)) >> 28);
}

/// libvmaf stores its rounding constant 1u << 31 in an int32: it is -2^31,
/// so f = floor(|c|/30 - 0.5) and f(0) = -1. Copied on purpose (§8).
constexpr int64_t ADM_S123_ROUND_QUIRK = -(static_cast<int64_t>(1) << 31);

VMAFHIP_HD int32_t adm_f_s123(int32_t c)
{
    const int64_t a = c < 0 ? -static_cast<int64_t>(c) : c;
    return static_cast<int32_t>((143165577 * a + ADM_S123_ROUND_QUIRK) >> 32);
}

/// Same -2^31 quirk as adm_f_s123 (§9.1).
VMAFHIP_HD int32_t adm_centre_s123(int32_t c)
{
    const int64_t a = c < 0 ? -static_cast<int64_t>(c) : c;
    return static_cast<int32_t>((286331153 * a + ADM_S123_ROUND_QUIRK) >> 32);
}

// ---------------------------------------------------------------------------
// §9 contrast masking. thr(i, j) = sum over H, V, D of the 8 mirrored
// neighbours' f plus the centre term. Integer sums are associative, so the
// stages keep F = fH + fV + fD and C = centreH + centreV + centreD per
// position, and thr = (sum of F over the 8 mirrored neighbours) + C(i, j).

/**
 * thr at (i, j) from the F and C planes (same stride). Neighbour rows and
 * columns use adm_mirror on the band size: at i = 0 the rows are {1, 0, 1},
 * at i = h - 1 {h - 2, h - 1, h - 1}.
 */
VMAFHIP_HD int32_t adm_thr(const int32_t *F, const int32_t *C, ptrdiff_t stride, int w, int h,
                           int i, int j)
{
    const int32_t *up = F + adm_mirror(i - 1, h) * stride;
    const int32_t *mid = F + static_cast<ptrdiff_t>(i) * stride;
    const int32_t *dn = F + adm_mirror(i + 1, h) * stride;
    const int jl = adm_mirror(j - 1, w), jr = adm_mirror(j + 1, w);
    return up[jl] + up[j] + up[jr] + mid[jl] + mid[jr] + dn[jl] + dn[j] + dn[jr] +
           C[static_cast<ptrdiff_t>(i) * stride + j];
}

/**
 * §9.2 scale 0: masked energy of one coefficient. y is the test signal
 * (r for DLM, a for AIM); the thr subtraction is at Q(sub) = 10/10/12,
 * x^2 rounds at 29/29/30 (add 2^(sq-1)), x^3 at cub.
 */
VMAFHIP_HD int64_t adm_cm_s0(int16_t y, uint32_t irf, int32_t thr, int theta, int cub)
{
    const int sub = theta == ADM_D ? 12 : 10;
    const int sq = theta == ADM_D ? 30 : 29;
    const int32_t yx = static_cast<int32_t>(irf) * y; // int32 product, as libvmaf
    const uint32_t ay = static_cast<uint32_t>(yx < 0 ? -yx : yx);
    // libvmaf: abs(x) - ((int32)thr << sub) in int32; wrapped arithmetic is
    // written with uint32 so the (unreachable) wrap is defined here too.
    int32_t x = static_cast<int32_t>(ay - (static_cast<uint32_t>(thr) << sub));
    x = x < 0 ? 0 : x;
    const int32_t x2 = static_cast<int32_t>((static_cast<int64_t>(x) * x + (static_cast<int64_t>(1) << (sq - 1))) >> sq);
    return (static_cast<int64_t>(x2) * x + adm_half(cub)) >> cub;
}

/// §9.2 scales 1-3: the test signal is CSF-weighted first (>> 28), thr is not shifted.
VMAFHIP_HD int64_t adm_cm_s123(int32_t y, uint32_t irf, int32_t thr, int cub)
{
    const int32_t yc = adm_csf_s123(irf, y);
    const uint32_t ay = static_cast<uint32_t>(yc < 0 ? -static_cast<int64_t>(yc) : yc);
    int32_t x = static_cast<int32_t>(ay - static_cast<uint32_t>(thr));
    x = x < 0 ? 0 : x;
    const int32_t x2 = static_cast<int32_t>((static_cast<int64_t>(x) * x + (static_cast<int64_t>(1) << 29)) >> 30);
    return (static_cast<int64_t>(x2) * x + adm_half(cub)) >> cub;
}

// ---------------------------------------------------------------------------
// §7 denominator terms of one reference coefficient.

/// Scale 0: |o|^3, exact in uint64.
VMAFHIP_HD uint64_t adm_den_s0(int16_t o)
{
    const uint64_t u = static_cast<uint64_t>(o < 0 ? -static_cast<int32_t>(o) : o);
    return u * u * u;
}

/// Scales 1-3: sq = 31/30/31 and the add before >> sq is 2^sq (the full
/// divisor, libvmaf's constant: +1 on every square). Copied on purpose (§7.2).
VMAFHIP_HD uint64_t adm_den_s123(int32_t o, int scale, int cub)
{
    const int sq = scale == 2 ? 30 : 31;
    const uint64_t u = o < 0 ? static_cast<uint64_t>(-static_cast<int64_t>(o)) : static_cast<uint64_t>(o);
    const uint64_t sq_term = (u * u + (static_cast<uint64_t>(1) << sq)) >> sq;
    return (sq_term * u + static_cast<uint64_t>(adm_half(cub))) >> cub;
}

} // namespace vmafhip
