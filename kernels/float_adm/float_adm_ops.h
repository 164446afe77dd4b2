// float_adm's per-position arithmetic (docs/float_adm.md §2-§7), shared by the
// CPU reference and the GPU kernels: the DWT taps and mirrors, the
// decoupling with libvmaf's reciprocal division, the CSF, the masking
// threshold, the masked and denominator terms of a row, and the order in
// which the rows' sums are added. Every float variable is a float32 rounding
// point of libvmaf's adm.c / adm_tools.c; the double steps are marked.
//
// Device-code rules for this header: float, double and int arithmetic only
// (each +, -, *, / correctly rounded; the builds have no contraction), fabsf
// (exact), no namespace-scope tables (the taps are literals, the reciprocal
// table is a pointer the caller passes). The one libm call is powf for an
// adm_p_norm other than 3 (fadm_power, through kernels/c_powf.h).
#pragma once

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/c_powf.h"
#include "kernels/float_bits.h"
#include "kernels/hd.h"
#include "kernels/picture_sample.h"

namespace vmafhip {

constexpr int FLOAT_ADM_SCALES = 4;
/// H, V, D: libvmaf's theta order of the detail bands.
constexpr int FADM_ORIENTATIONS = 3;
/// The three float sums of a scale (§7.2, §7.4), in FloatAdmAccum's order.
enum FadmKind { FADM_DEN = 0, FADM_NUM = 1, FADM_AIM = 2, FADM_KINDS = 3 };

/// The float sums of one frame, each a float value held in a double: per
/// scale, per kind (denominator, detail loss, additive impairment), per
/// orientation, the region's sum of §7.4 before its p-norm (§7.5, which
/// FloatAdm::finish computes on the host for both backends). Scale 0 of
/// adm_skip_scale0 stays 0. The same bytes on the CPU and the GPU.
struct FloatAdmAccum {
    double sum[FLOAT_ADM_SCALES][FADM_KINDS][FADM_ORIENTATIONS];
};

// ---------------------------------------------------------------------------
// §3 regions.

/// The region a scale's sums cover in a w x h band: border_factor 0.1 of
/// each edge left out (the double truncated toward zero).
struct FadmRegion {
    int left, top, right, bottom;
};

VMAFHIP_HD FadmRegion fadm_region(int w, int h)
{
    FadmRegion g;
    g.left = static_cast<int>(w * 0.1 - 0.5);
    g.top = static_cast<int>(h * 0.1 - 0.5);
    g.right = w - g.left;
    g.bottom = h - g.top;
    return g;
}

// ---------------------------------------------------------------------------
// §2, §4 samples and the DWT.

/// §2 one luma sample on the 8-bit scale, less 128.
VMAFHIP_HD float fadm_sample(uint32_t s, int bpc) { return picture_sample(s, bpc, -128); }

/// §4.2 sample k of n, mirrored: -1 reads 1, n reads n - 1.
VMAFHIP_HD int fadm_dwt_index(int k, int n) { return k < 0 ? -k : k >= n ? 2 * n - k - 1 : k; }

/// §4.1 the low-pass filter: a float sum from 0 in tap order.
VMAFHIP_HD float fadm_dwt_lo(float s0, float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += 0.482962913144690f * s0;
    acc += 0.836516303737469f * s1;
    acc += 0.224143868041857f * s2;
    acc += -0.129409522550921f * s3;
    return acc;
}

/// §4.1 the high-pass filter.
VMAFHIP_HD float fadm_dwt_hi(float s0, float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += -0.129409522550921f * s0;
    acc += -0.224143868041857f * s1;
    acc += 0.836516303737469f * s2;
    acc += -0.482962913144690f * s3;
    return acc;
}

/// §4.1 the four bands at one output from the vertical pass's low and high
/// values of its four columns (2j - 1 .. 2j + 2, mirrored): out a, h, v, d
/// (the approximation, then libvmaf's theta order H, V, D: h is the low-pass
/// of hi, v the high-pass of lo).
VMAFHIP_HD void fadm_dwt_horizontal(const float lo[4], const float hi[4], float *a, float *h,
                                    float *v, float *d)
{
    *a = fadm_dwt_lo(lo[0], lo[1], lo[2], lo[3]);
    *v = fadm_dwt_hi(lo[0], lo[1], lo[2], lo[3]);
    *h = fadm_dwt_lo(hi[0], hi[1], hi[2], hi[3]);
    *d = fadm_dwt_hi(hi[0], hi[1], hi[2], hi[3]);
}

// ---------------------------------------------------------------------------
// §6 decoupling.

/// §6.1 rcpss as a table and the exponent: entry k holds the bits of the
/// host's rcpss(1 + k / 4096) (the estimate reads the top 11 bits of the
/// significand on Intel and on AMD before Zen 5, the top 12 on Zen 5, whose
/// estimates differ). rcp(2^e m) = 2^-e rcp(m); a result below the normal
/// range is 0; 0 and subnormal inputs give an infinity of their sign,
/// infinities a zero, NaNs themselves quieted. The host checks once that
/// this reproduces its rcpss (extractors/float_adm/float_adm_rcp.cpp).
constexpr int FADM_RCP_BITS = 12;
constexpr int FADM_RCP_ENTRIES = 1 << FADM_RCP_BITS;

VMAFHIP_HD float fadm_rcp(float x, const uint32_t *table)
{
    const uint32_t b = float_bits(x);
    const uint32_t sign = b & 0x80000000u;
    const int e = static_cast<int>((b >> 23) & 0xffu);
    const uint32_t m = b & 0x7fffffu;
    if (e == 0xff)
        return bits_float(m ? b | 0x400000u : sign);
    if (e == 0)
        return bits_float(sign | 0x7f800000u);
    const uint32_t r = table[m >> (23 - FADM_RCP_BITS)];
    const int re = static_cast<int>((r >> 23) & 0xffu) - (e - 127);
    if (re <= 0)
        return bits_float(sign);
    return bits_float(sign | (static_cast<uint32_t>(re) << 23) | (r & 0x7fffffu));
}

/// §6.1 libvmaf's ADM_OPT_RECIP_DIVISION: n / d from the estimate xi of 1 / d
/// refined by one Newton step, all float.
VMAFHIP_HD float fadm_newton_div(float n, float d, float xi)
{
    return n * (xi + xi * (1.0f - d * xi));
}

/// §6.1 the division of the device (and of the host test of the model):
/// the reciprocal table where the host divides with rcpss, else IEEE
/// division (table null), as libvmaf without SSE2.
struct FadmTableDiv {
    const uint32_t *table;
    VMAFHIP_HD float operator()(float n, float d) const
    {
        return table ? fadm_newton_div(n, d, fadm_rcp(d, table)) : n / d;
    }
};

/// §6.3 the restored part of one band: the clipped gain k = t / o times o,
/// then, where the angles agree, the gain up to egl but not past t (compared
/// in double). div(n, d) is §6.1's division.
template <typename Div>
VMAFHIP_HD float fadm_restore(float o, float t, bool same_angle, double egl, const Div &div)
{
    const float eps = 1e-30f;
    float k = div(t, o + eps);
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    float rst = k * o;
    if (same_angle && rst > 0.0) {
        const double g = rst * egl;
        rst = static_cast<float>(g < t ? g : t);
    }
    if (same_angle && rst < 0.0) {
        const double g = rst * egl;
        rst = static_cast<float>(g > t ? g : t);
    }
    return rst;
}

/// §6 one band position: the reference's details o[H, V, D] and the
/// distorted picture's t[] into the restored r[] and additive a[] parts.
/// cos_1deg_sq: float(cos(1°) cos(1°)), computed once on the host.
template <typename Div>
VMAFHIP_HD void fadm_decouple_at(const float o[3], const float t[3], float cos_1deg_sq, double egl,
                                 const Div &div, float r[3], float a[3])
{
    // §6.2 the angle test of the H, V vectors, float, left to right.
    const float ot_dp = o[0] * t[0] + o[1] * t[1];
    const float o_mag_sq = o[0] * o[0] + o[1] * o[1];
    const float t_mag_sq = t[0] * t[0] + t[1] * t[1];
    const bool same_angle = ot_dp >= 0.0f && ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq;
    for (int k = 0; k < FADM_ORIENTATIONS; k++) {
        const float rst = fadm_restore(o[k], t[k], same_angle, egl, div);
        r[k] = rst;
        a[k] = t[k] - rst;
    }
}

// ---------------------------------------------------------------------------
// §7 CSF, masking and the sums.

/// §7.1 the CSF of one value: c = rf x, and the masking input f = |c| / 30
/// (a double product rounded to float).
VMAFHIP_HD void fadm_csf_at(float x, float rf, float *c, float *f)
{
    const float v = rf * x;
    *c = v;
    *f = static_cast<float>(0.0333333351 * fabsf(v));
}

/// §7.4 the power of the sums: adm_p_norm, and how a kernel computes powf
/// (host_powf_kind(), §12.3; the CPU calls the C library's).
struct FadmPower {
    double p;
    int powf_kind;
};

/// §7.4 |x|^p of a non-negative float: x x x when p is 3, else powf.
VMAFHIP_HD float fadm_power(float x, FadmPower e)
{
    return e.p == 3.0 ? x * x * x : c_powf(x, static_cast<float>(e.p), e.powf_kind);
}

/// A band set as the row functions read it: three w x h planes, rows packed.
struct FadmBands {
    const float *p[FADM_ORIENTATIONS];
    int w, h;
    VMAFHIP_HD float at(int t, int i, int j) const { return p[t][static_cast<size_t>(i) * w + j]; }
};

/// §7.3 the masking threshold at (i, j) from the CSF planes c and f: per
/// orientation a float sum from 0 over the 3 x 3 window of f in row order,
/// the centre replaced by |c| / 15 (added in double, rounded), orientations
/// added H, V, D into a float from 0. Neighbours past an edge mirror: -1
/// reads 1, n reads n - 1.
VMAFHIP_HD float fadm_mask_threshold(const FadmBands &c, const FadmBands &f, int i, int j)
{
    const int im = i == 0 ? 1 : i - 1, ip = i + 1 >= c.h ? c.h - 1 : i + 1;
    const int jm = j == 0 ? 1 : j - 1, jp = j + 1 >= c.w ? c.w - 1 : j + 1;
    float thr = 0.0f;
    for (int t = 0; t < FADM_ORIENTATIONS; t++) {
        float sum = 0.0f;
        sum += f.at(t, im, jm);
        sum += f.at(t, im, j);
        sum += f.at(t, im, jp);
        sum += f.at(t, i, jm);
        sum = static_cast<float>(sum + 0.0666666701 * fabsf(c.at(t, i, j)));
        sum += f.at(t, i, jp);
        sum += f.at(t, ip, jm);
        sum += f.at(t, ip, j);
        sum += f.at(t, ip, jp);
        thr += sum;
    }
    return thr;
}

/// §7.2 row i of the denominator: per orientation Σ |rf o|^p over the
/// region's columns, a float sum from 0, left to right.
VMAFHIP_HD void fadm_den_row(const FadmBands &o, const float rf[3], FadmPower p, int i, int left,
                             int right, float out[3])
{
    for (int t = 0; t < FADM_ORIENTATIONS; t++) {
        float s = 0.0f;
        for (int j = left; j < right; j++)
            s += fadm_power(fabsf(rf[t] * o.at(t, i, j)), p);
        out[t] = s;
    }
}

/// §7.4 row i of a masked sum: per orientation Σ max(|x rf| - thr, 0)^p over
/// the region's columns, thr the threshold of (c, f) (0 with bypass_cm),
/// float sums from 0, left to right.
VMAFHIP_HD void fadm_masked_row(const FadmBands &x, const FadmBands &c, const FadmBands &f,
                                const float rf[3], int bypass_cm, FadmPower p, int i, int left,
                                int right, float out[3])
{
    float s[3] = {0.0f, 0.0f, 0.0f};
    for (int j = left; j < right; j++) {
        const float thr = bypass_cm ? 0.0f : fadm_mask_threshold(c, f, i, j);
        for (int t = 0; t < FADM_ORIENTATIONS; t++) {
            float v = fabsf(x.at(t, i, j) * rf[t]) - thr;
            v = v < 0.0f ? 0.0f : v;
            s[t] += fadm_power(v, p);
        }
    }
    for (int t = 0; t < FADM_ORIENTATIONS; t++)
        out[t] = s[t];
}

/// §7.4 the region's sums from its rows' (per_row[r * 3 + orientation]):
/// added top to bottom into a float from 0.
VMAFHIP_HD void fadm_add_rows(const float *per_row, int rows, float out[3])
{
    for (int t = 0; t < FADM_ORIENTATIONS; t++) {
        float s = 0.0f;
        for (int r = 0; r < rows; r++)
            s += per_row[static_cast<size_t>(r) * FADM_ORIENTATIONS + t];
        out[t] = s;
    }
}

} // namespace vmafhip
