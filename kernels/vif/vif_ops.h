// integer VIF per-sample and per-pixel arithmetic (docs/vif.md §3-§6),
// shared by the CPU reference and the GPU kernels, plus the POD parameter
// block (VifParams) both take by value and the accumulator block (VifAccum)
// both fill.
//
// Device-code rules for this header: fixed-width integer / float / double
// arithmetic only, no std:: calls and no namespace-scope tables (CUDA device
// code cannot see them): the filter taps are a constexpr function and the
// log2 table is a pointer the caller passes (built on the host, docs/vif.md §5).
// Every narrowing that libvmaf's C code does by a store (uint16 / uint32 /
// int32) is an explicit cast here.
#pragma once

#include <stddef.h> // ptrdiff_t
#include <stdint.h>

#include "kernels/hd.h"

// Full unrolling of the fixed-length tap loops in device code (host
// compilers unroll them on their own; GCC does not know the pragma).
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define VIF_UNROLL _Pragma("unroll")
#else
#define VIF_UNROLL
#endif // defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)

namespace vmafhip {

constexpr int VIF_SCALES = 4;
/// docs/vif.md §8: smaller frames make libvmaf crash (H) or divide 0 by 0 (W).
constexpr int VIF_MIN_SIZE = 8;
/// The log2 table covers the 16-bit mantissas [32768, 65535] (docs/vif.md §5).
constexpr uint32_t VIF_LOG2_FIRST = 32768;
constexpr int VIF_LOG2_ENTRIES = 32768;
/// sigma_n^2 = 2 in Q16 (docs/vif.md §2).
constexpr int32_t VIF_SIGMA_NSQ = 65536 << 1;

/// Per-context VIF parameters; host-built (Vif::params()), passed by value to kernels.
struct VifParams {
    int32_t w[VIF_SCALES]; ///< scale widths: W, then floor(w / 2) per scale
    int32_t h[VIF_SCALES]; ///< scale heights: H, then floor(h / 2) per scale
    int32_t bpc;           ///< bits per sample of the input: 8, 10, 12 or 16
    int32_t skip_scale0;   ///< vif_skip_scale0: no scale-0 statistics (scale 1 is still built)
    double egl;            ///< vif_enhn_gain_limit, 1 to 100 (default 100)
};

/// Per-frame accumulators, one per scale; also the GPU layout. Integer sums,
/// so any order of addition gives the same bytes (docs/vif.md §4).
struct VifAccum {
    int64_t num_log[VIF_SCALES];    ///< sum of L(n1t) - L(n1), 2048ths of a bit
    int64_t den_log[VIF_SCALES];    ///< sum of L(sigma_nsq + s1) - 17 * 2048
    int64_t num_nonlog[VIF_SCALES]; ///< sum of s2 where s1 < sigma_nsq
    int64_t den_nonlog[VIF_SCALES]; ///< count of pixels where s1 < sigma_nsq
};

/// Partial sums of one scale, added into VifAccum by the caller.
struct VifPartial {
    int64_t num_log, den_log, num_nonlog, den_nonlog;
};

// ---------------------------------------------------------------------------
// Filters and borders (docs/vif.md §2, §3).

/// Half width of the filter of scale s: 8, 4, 2, 1 (17, 9, 5 and 3 taps).
/// The filter of scale s >= 1 also builds scale s from scale s - 1.
VMAFHIP_HD constexpr int vif_half(int s) { return 8 >> s; }

/// Tap of the filter of scale s at distance d = |k - half| from its centre.
/// Q16: every filter sums to 65536.
VMAFHIP_HD constexpr uint32_t vif_tap(int s, int d)
{
    switch (s) {
    case 0:
        switch (d) {
        case 0: return 7784;
        case 1: return 7455;
        case 2: return 6547;
        case 3: return 5274;
        case 4: return 3896;
        case 5: return 2640;
        case 6: return 1640;
        case 7: return 935;
        default: return 489;
        }
    case 1:
        switch (d) {
        case 0: return 14692;
        case 1: return 12590;
        case 2: return 7925;
        case 3: return 3663;
        default: return 1244;
        }
    case 2: return d == 0 ? 26386 : d == 1 ? 16004 : 3571;
    default: return d == 0 ? 43728 : 10904;
    }
}

/// Tap k of the filter of scale S, k = 0 .. 2 * half (left to right).
template <int S> VMAFHIP_HD constexpr uint32_t vif_tap_at(int k)
{
    return vif_tap(S, k < vif_half(S) ? vif_half(S) - k : k - vif_half(S));
}

/// docs/vif.md §3: libvmaf pads every image and every filtered row by copying
/// mirror rows one at a time, which for n >= 2 is reflect-101 repeated
/// (period 2(n - 1)): -1 -> 1, n -> n - 2, and indices further out than n
/// (frames under 17 px at scale 0) fold back again. n = 1 has no mirror in
/// libvmaf (it copies memory left from the previous scale, §8); callers
/// handle it, this returns 0.
VMAFHIP_HD int vif_mirror(int i, int n)
{
    if (n < 2)
        return 0;
    const int p = 2 * (n - 1);
    i %= p;
    if (i < 0)
        i += p;
    return i < n ? i : p - i;
}

/// libvmaf's rounding add before a right shift by `shift` (none for 0).
VMAFHIP_HD constexpr uint32_t vif_round_add(int shift) { return shift ? 1u << (shift - 1) : 0u; }

/// docs/vif.md §4.1: vertical shift of the means (VP) and of the second
/// moments (VQ). Scale 0 normalises the input to 16 bits on the 8-bit x 256
/// scale; scales 1-3 are already there.
VMAFHIP_HD constexpr int vif_vp_shift(int s, int bpc) { return s == 0 ? bpc : 16; }
VMAFHIP_HD constexpr int vif_vq_shift(int s, int bpc) { return s == 0 ? 2 * (bpc - 8) : 16; }

/// docs/vif.md §4.2: vertical shift of the low-pass that builds scale s from
/// s - 1 (the horizontal one is always 16).
VMAFHIP_HD constexpr int vif_down_shift(int s, int bpc) { return s == 1 ? bpc : 16; }

// ---------------------------------------------------------------------------
// Statistics filters (docs/vif.md §4.1).

/// Filter sums of one position: means (uint32, never wrap) and second
/// moments (uint64).
struct VifSums {
    uint32_t mu1, mu2;
    uint64_t xx, yy, xy;
};

/// One vertical output, rounded as libvmaf stores it (tmp.mu1 .. tmp.ref_dis).
/// 16-byte aligned so that the GPU's horizontal stage reads one in a single
/// 16-byte shared-memory load (four 4-byte loads with a 16-byte stride across
/// the warp would each conflict four ways).
struct alignas(16) VifVert {
    uint16_t mu1, mu2; ///< < 65536 for every scale and bit depth
    uint32_t xx, yy, xy;
};

/// One tap of the vertical stage: f * x and f * y into the means, (f x) x,
/// (f y) y and (f x) y into the second moments (f x is libvmaf's uint32
/// img_coeff). Acc, the type of the second-moment sums, is uint64_t as in
/// libvmaf; uint32_t gives the same sums where they cannot reach 2^32
/// (VIF_NARROW_SUMS_8BIT).
template <typename Acc>
VMAFHIP_HD void vif_vertical_tap(uint32_t &mu1, uint32_t &mu2, Acc &xx, Acc &yy, Acc &xy,
                                 uint32_t f, uint32_t x, uint32_t y)
{
    const uint32_t fx = f * x, fy = f * y;
    mu1 += fx;
    mu2 += fy;
    xx += static_cast<Acc>(fx) * x;
    yy += static_cast<Acc>(fy) * y;
    xy += static_cast<Acc>(fx) * y;
}

/// Sum of the taps of the filter of scale s (65536 for every s).
constexpr uint32_t vif_tap_sum(int s)
{
    uint32_t a = 0;
    for (int d = -vif_half(s); d <= vif_half(s); d++)
        a += vif_tap(s, d < 0 ? -d : d);
    return a;
}

/// The vertical second moments of 8-bit samples at scale 0 fit in uint32:
/// every sum is at most (sum of the taps) * 255 * 255 < 2^32.
constexpr bool VIF_NARROW_SUMS_8BIT = static_cast<uint64_t>(vif_tap_sum(0)) * 255 * 255 <= 0xFFFFFFFFull;
static_assert(VIF_NARROW_SUMS_8BIT, "uint32 vertical sums of 8-bit samples at scale 0");

/// The vertical sums rounded as libvmaf stores them (vp, vq from
/// vif_vp_shift / vif_vq_shift).
VMAFHIP_HD VifVert vif_vertical_round(const VifSums &a, int vp, int vq)
{
    const uint64_t aq = vif_round_add(vq);
    VifVert v;
    v.mu1 = static_cast<uint16_t>((a.mu1 + vif_round_add(vp)) >> vp);
    v.mu2 = static_cast<uint16_t>((a.mu2 + vif_round_add(vp)) >> vp);
    v.xx = static_cast<uint32_t>((a.xx + aq) >> vq);
    v.yy = static_cast<uint32_t>((a.yy + aq) >> vq);
    v.xy = static_cast<uint32_t>((a.xy + aq) >> vq);
    return v;
}

/**
 * Vertical stage of scale S at one column: taps over x[k * step], y[k * step]
 * for k = 0 .. 2 * half (the caller has mirrored the rows), then rounded.
 * Acc as in vif_vertical_tap.
 */
template <int S, typename Acc = uint64_t, typename T>
VMAFHIP_HD VifVert vif_vertical(const T *x, const T *y, ptrdiff_t step, int vp, int vq)
{
    constexpr int R = vif_half(S);
    uint32_t mu1 = 0, mu2 = 0;
    Acc xx = 0, yy = 0, xy = 0;
    VIF_UNROLL
    for (int k = 0; k <= 2 * R; k++)
        vif_vertical_tap(mu1, mu2, xx, yy, xy, vif_tap_at<S>(k), x[k * step], y[k * step]);
    return vif_vertical_round(VifSums{mu1, mu2, xx, yy, xy}, vp, vq);
}

/// One tap of the horizontal stage on one field of a vertical output: a
/// mean into a uint32 sum, a second moment into a uint64 sum.
template <typename Acc> VMAFHIP_HD void vif_horizontal_tap_field(Acc &sum, uint32_t f, uint32_t v)
{
    sum += static_cast<Acc>(f) * v;
}

/// One tap of the horizontal stage: f times one vertical output (its five
/// fields) into the sums.
VMAFHIP_HD void vif_horizontal_tap(uint32_t &mu1, uint32_t &mu2, uint64_t &xx, uint64_t &yy,
                                   uint64_t &xy, uint32_t f, uint32_t vmu1, uint32_t vmu2,
                                   uint32_t vxx, uint32_t vyy, uint32_t vxy)
{
    vif_horizontal_tap_field(mu1, f, vmu1);
    vif_horizontal_tap_field(mu2, f, vmu2);
    vif_horizontal_tap_field(xx, f, vxx);
    vif_horizontal_tap_field(yy, f, vyy);
    vif_horizontal_tap_field(xy, f, vxy);
}

/// The horizontal sums rounded: the means get no shift, the second moments
/// (sum + 32768) >> 16.
VMAFHIP_HD void vif_horizontal_round(VifSums &a)
{
    a.xx = (a.xx + 32768) >> 16;
    a.yy = (a.yy + 32768) >> 16;
    a.xy = (a.xy + 32768) >> 16;
}

/// Horizontal stage of scale S: taps over v[0 .. 2 * half] (mirrored columns).
template <int S> VMAFHIP_HD VifSums vif_horizontal(const VifVert *v)
{
    constexpr int R = vif_half(S);
    VifSums a = {0, 0, 0, 0, 0};
    VIF_UNROLL
    for (int k = 0; k <= 2 * R; k++)
        vif_horizontal_tap(a.mu1, a.mu2, a.xx, a.yy, a.xy, vif_tap_at<S>(k), v[k].mu1, v[k].mu2,
                           v[k].xx, v[k].yy, v[k].xy);
    vif_horizontal_round(a);
    return a;
}

// ---------------------------------------------------------------------------
// The low-pass that builds scale S from scale S - 1 (docs/vif.md §4.2).

/// One output of filter S over p[k * step], k = 0 .. 2 * half: (sum + add)
/// >> shift, stored uint16 (the sum is uint32: 65536 * 65535 + 2^15 fits).
/// Vertical pass: step = the row pitch, shift = vif_down_shift(S, bpc);
/// horizontal pass: step 1, shift 16.
template <int S, typename T> VMAFHIP_HD uint16_t vif_lowpass(const T *p, ptrdiff_t step, int shift)
{
    constexpr int R = vif_half(S);
    uint32_t a = 0;
    VIF_UNROLL
    for (int k = 0; k <= 2 * R; k++)
        a += vif_tap_at<S>(k) * static_cast<uint32_t>(p[k * step]);
    return static_cast<uint16_t>((a + vif_round_add(shift)) >> shift);
}

// ---------------------------------------------------------------------------
// The per-pixel statistic (docs/vif.md §4.1, §5, §7).

/// Count of leading zeros of a non-zero uint64.
VMAFHIP_HD int vif_clz64(uint64_t x)
{
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
    return __clzll(static_cast<long long>(x));
#else
    return __builtin_clzll(x);
#endif
}

/// docs/vif.md §5: L(x) = T[x >> k] + 2048 k with k = bit length - 16, for
/// x >= 2^17 (libvmaf's log2_32 and log2_64 are this same formula).
/// table holds T[32768 .. 65535].
VMAFHIP_HD int32_t vif_log2(const uint16_t *table, uint64_t x)
{
    const int k = 48 - vif_clz64(x);
    return static_cast<int32_t>(table[(x >> k) - VIF_LOG2_FIRST]) + 2048 * k;
}

/// double -> int32 as libvmaf's x86 build converts (cvttsd2si): truncation,
/// and INT32_MIN when the value does not fit (CUDA would saturate). Not
/// reached by real frames (s2 - g * s12 is about s2 - s12^2 / s1 >= 0).
VMAFHIP_HD int32_t vif_trunc_i32(double d)
{
    return d > -2147483649.0 && d < 2147483648.0 ? static_cast<int32_t>(d) : INT32_MIN;
}

/**
 * docs/vif.md §7 rule 1: sv = trunc(s2 - g * s12) with the product rounded
 * to double BEFORE the subtraction. A fused multiply-add keeps the exact
 * product and can move the truncated integer by one. The build passes
 * -ffp-contract=off (host and HIP) and -fmad=false (nvcc); on top of that
 * nvcc gets the round-to-nearest intrinsics (never fused) and clang (HIP
 * device code, clang hosts) the pragma, which covers the operators written
 * here (HIP's __dmul_rn is a plain inline product that a global
 * -ffp-contract=fast would still fuse), so the rule holds if a flag is lost.
 */
VMAFHIP_HD int32_t vif_residual(int32_t s2, double g, int32_t s12)
{
#if defined(__clang__)
#pragma clang fp contract(off)
#endif // defined(__clang__)
#if defined(__CUDA_ARCH__)
    const double d = __dsub_rn(static_cast<double>(s2), __dmul_rn(g, static_cast<double>(s12)));
#else
    const double p = g * static_cast<double>(s12);
    const double d = static_cast<double>(s2) - p;
#endif // defined(__CUDA_ARCH__)
    return vif_trunc_i32(d);
}

/**
 * docs/vif.md §4.1: the statistic of one pixel from its horizontal sums, in
 * libvmaf's exact sequence (vif_statistic_8 / vif_statistic_16), added to acc.
 * table: T[32768 .. 65535]; egl: the gain limit.
 */
VMAFHIP_HD void vif_pixel(const VifSums &h, double egl, const uint16_t *table, VifPartial &acc)
{
    const uint64_t half = 2147483648u;
    const uint32_t mu1_sq = static_cast<uint32_t>((static_cast<uint64_t>(h.mu1) * h.mu1 + half) >> 32);
    const uint32_t mu2_sq = static_cast<uint32_t>((static_cast<uint64_t>(h.mu2) * h.mu2 + half) >> 32);
    const uint32_t mu12 = static_cast<uint32_t>((static_cast<uint64_t>(h.mu1) * h.mu2 + half) >> 32);
    // uint32 differences that may wrap, reinterpreted as int32 (libvmaf's casts).
    const int32_t s1 = static_cast<int32_t>(static_cast<uint32_t>(h.xx) - mu1_sq);
    int32_t s2 = static_cast<int32_t>(static_cast<uint32_t>(h.yy) - mu2_sq);
    const int32_t s12 = static_cast<int32_t>(static_cast<uint32_t>(h.xy) - mu12);
    s2 = s2 < 0 ? 0 : s2;
    if (s1 >= VIF_SIGMA_NSQ) {
        acc.den_log += vif_log2(table, static_cast<uint32_t>(VIF_SIGMA_NSQ) + static_cast<uint32_t>(s1)) - 2048 * 17;
        if (s12 > 0 && s2 > 0) {
            const double eps = 65536 * 1.0e-10;
            double g = static_cast<double>(s12) / (static_cast<double>(s1) + eps); // IEEE division
            int32_t sv = vif_residual(s2, g, s12);
            sv = sv < 0 ? 0 : sv;
            g = g < egl ? g : egl;
            const uint32_t n1 = static_cast<uint32_t>(sv) + static_cast<uint32_t>(VIF_SIGMA_NSQ);
            // (g * g) first, then * s1; truncation toward zero (0 <= value < 2^45).
            const int64_t n1t = static_cast<int64_t>((g * g) * static_cast<double>(s1)) + n1;
            acc.num_log += vif_log2(table, static_cast<uint64_t>(n1t)) - vif_log2(table, n1);
        }
    } else {
        acc.num_nonlog += s2;
        acc.den_nonlog += 1;
    }
}

} // namespace vmafhip
