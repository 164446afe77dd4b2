// CAMBI arithmetic shared by the CPU code (extractors/cambi/) and the GPU
// kernels (kernels/cambi/cambi.hip), docs/cambi.md; § numbers are its
// sections. Both sides call these functions, so every integer and every
// float and double operation of a c-value, a per-scale pooled value and the
// frame score is the same code, compiled by the host and the device
// compilers with contraction off (-ffp-contract=off, nvcc -fmad=false).
//
// Device-code rules for this header: fixed-width arithmetic, no std::
// calls, no namespace-scope tables (the tables travel in CambiTables).
#pragma once

#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

constexpr int CAMBI_SCALES = 5;
constexpr int CAMBI_MAX_ND = 32;      // 2^max_log_contrast, max_log_contrast <= 5
constexpr int CAMBI_RECIPROCALS = 4226; // R[0..65*65], §2.7

/// Per-frame accumulators, the same bytes on the CPU and the GPU: the
/// unclipped scores (§10); finish() clips them (§1.1).
struct CambiAccum {
    double dis; ///< D: the distorted picture's score
    double src; ///< S: the reference picture's score (full_ref), else 0
};

/// The tables of a c-value (§2.1, §2.3, §2.4, §8.1), resolved at creation.
struct CambiTables {
    int32_t nd;                     ///< 2^max_log_contrast
    int32_t vlt;                    ///< §2.4
    int32_t lo, hi;                 ///< the value band that can change a c-value (§8.1)
    int32_t tvi[CAMBI_MAX_ND + 1];  ///< T[d] = tvi_raw[d] + nd, d = 1..nd (§2.3)
    int32_t cw[CAMBI_MAX_ND + 1];   ///< contrast weights, d = 1..nd (§2.1)
};

/// §4.2: a sample of bpc bits to 10 bits (1024 possible above 10 bits).
VMAFHIP_HD uint16_t cambi_to10(uint32_t x, int bpc)
{
    if (bpc <= 8)
        return static_cast<uint16_t>(x << (10 - bpc));
    if (bpc == 9)
        return static_cast<uint16_t>(x << 1);
    if (bpc == 10)
        return static_cast<uint16_t>(x);
    return static_cast<uint16_t>((x + (1u << (bpc - 11))) >> (bpc - 10));
}

/// §4.3: the anti-dithered value at (i, j) of a packed w x h plane of the
/// values before the filter.
VMAFHIP_HD uint16_t cambi_anti_dither(const uint16_t *p, int w, int h, int i, int j)
{
    const uint16_t *r0 = p + static_cast<long long>(i) * w;
    const bool right = j < w - 1, below = i < h - 1;
    if (right && below)
        return static_cast<uint16_t>((r0[j] + r0[j + 1] + r0[w + j] + r0[w + j + 1]) >> 2);
    if (below)
        return static_cast<uint16_t>((r0[j] + r0[w + j]) >> 1);
    if (right)
        return static_cast<uint16_t>((r0[j] + r0[j + 1]) >> 1);
    return r0[j];
}

/// §5: the zero-derivative flag of (i, j) of a packed w x h plane. The two
/// tests are joined with & rather than &&: the same flag, but both loads
/// happen unconditionally inside the plane, so a row loop vectorises.
VMAFHIP_HD int cambi_zero_derivative(const uint16_t *p, int w, int h, int i, int j)
{
    const long long q = static_cast<long long>(i) * w + j;
    return (j == w - 1 || p[q] == p[q + 1]) & (i == h - 1 || p[q] == p[q + w]);
}

/// §7: the mode of three samples.
VMAFHIP_HD uint16_t cambi_mode3(uint16_t a, uint16_t b, uint16_t c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    const uint16_t m = a < b ? a : b;
    return m < c ? m : c;
}

/**
 * §8.2: the c-value of a masked pixel of value v in the band [t.lo, t.hi],
 * from its window counts: n(e) is N_{v+e}, e in [-nd, nd] (0 below value 0).
 * The product is an int32, converted to float by round-to-nearest, then one
 * float multiply by R[p0 + pm]; the maximum is a plain compare.
 */
template <typename Counts>
VMAFHIP_HD float cambi_c_value(int v, const CambiTables &t, const float *recip, const Counts &n)
{
    const int p0 = n(0), u = v + t.nd;
    float c = 0.0f;
    for (int d = 1; d <= t.nd; d++) {
        if (u > t.tvi[d] || u + d <= t.vlt)
            continue;
        const int p1 = n(d), p2 = n(-d);
        const int pm = p1 > p2 ? p1 : p2;
        const float val = static_cast<float>(t.cw[d] * p0 * pm) * recip[p0 + pm];
        c = c < val ? val : c;
    }
    return c;
}

/// §9: the number of c-values pooled of a scale of n pixels.
VMAFHIP_HD int cambi_top_k_count(int n, double topk)
{
    const int k = static_cast<int>(static_cast<double>(n) * topk);
    return k < 1 ? 1 : k > n ? n : k;
}

/// §9: libvmaf's selection (a descending partition of a[0..n-1] around
/// a[k], in place), then the double sum of a[0..k-1] in that order, over k.
VMAFHIP_HD double cambi_top_k_mean(float *a, int n, int k)
{
    if (k < n) {
        int left = 0, right = n - 1;
        while (left < right) {
            const float pivot = a[k];
            int i = left, j = right;
            do {
                while (a[i] > pivot)
                    i++;
                while (a[j] < pivot)
                    j--;
                if (i <= j) {
                    const float s = a[i];
                    a[i] = a[j];
                    a[j] = s;
                    i++;
                    j--;
                }
            } while (i <= j);
            if (j < k)
                left = i;
            if (k < i)
                right = j;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += a[i];
    return sum / k;
}

/// §14: every c-value is 0 or a float of at least 0.5 (§8.2), hence a whole
/// number of units of 2^-24, and below 2^14: c * 2^24 is an exact integer.
VMAFHIP_HD uint64_t cambi_units(float c)
{
    return static_cast<uint64_t>(static_cast<double>(c) * 16777216.0);
}

/// §9: a double sum of non-negative multiples of 2^-24 whose total stays
/// below 2^29 (2^53 units) is exact in any order, so libvmaf's selection
/// order only matters at or above this many units.
constexpr uint64_t CAMBI_EXACT_UNITS = uint64_t(1) << 53;

/// §9: the pooled value of a scale from the exact sum of its k largest
/// c-values (below CAMBI_EXACT_UNITS units): the double libvmaf's ordered sum
/// gives, over k.
VMAFHIP_HD double cambi_exact_mean(uint64_t units, int k)
{
    return static_cast<double>(units) * (1.0 / 16777216.0) / k;
}

/// §10: the frame score from the five pooled values, in libvmaf's order
/// (weights 16, 8, 4, 2, 1; the products are exact), over ws * ws.
VMAFHIP_HD double cambi_combine(const double *value, int ws)
{
    double raw = 0.0;
    for (int s = 0; s < CAMBI_SCALES; s++)
        raw += static_cast<double>(16 >> s) * value[s];
    return raw / static_cast<double>(ws * ws);
}

} // namespace vmafhip
