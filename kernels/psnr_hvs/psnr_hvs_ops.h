// psnr_hvs per-block arithmetic (docs/psnr_hvs.md §3-§4), shared by the CPU
// code (extractors/psnr_hvs/psnr_hvs_cpu.cpp) and the GPU kernels
// (kernels/psnr_hvs/psnr_hvs.hip): the block count, the integer DCT, the
// variance ratio, the masking and the 64 error terms of a block. Every
// float32 rounding point of libvmaf is a named float variable, and products
// are never contracted into FMAs (-ffp-contract=off on the host, -fmad=false /
// -ffp-contract=off on the device), so both sides compute the same bits.
// Every § below is a section of docs/psnr_hvs.md.
#pragma once

#include <math.h>   // ::sqrt(double), also in device code
#include <stddef.h> // ptrdiff_t
#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

/// The side of a block, and the smallest plane (§6).
constexpr int PSNR_HVS_BLOCK = 8;
/// Coefficients, and error terms, of a block.
constexpr int PSNR_HVS_TERMS = PSNR_HVS_BLOCK * PSNR_HVS_BLOCK;
/// Blocks start at every 7th sample (§3).
constexpr int PSNR_HVS_STEP = PSNR_HVS_BLOCK - 1;

/// Per plane, libvmaf's float32 error sum (held in a double, exactly); also
/// the layout the GPU writes.
struct PsnrHvsAccum {
    double sum[3];
};

/// The CSF of a plane and its masking weights, row-major (§4.1).
struct PsnrHvsWeights {
    float csf[PSNR_HVS_TERMS];
    float mask[PSNR_HVS_TERMS];
};

/// §3: blocks along a plane side of n samples: a block at every 7th sample
/// with 8 samples left.
VMAFHIP_HD constexpr int psnr_hvs_blocks(int n)
{
    return n < PSNR_HVS_BLOCK ? 0 : (n - PSNR_HVS_BLOCK) / PSNR_HVS_STEP + 1;
}

/// §4.1: entry (i, j) of plane p's contrast sensitivity table (0 luma, 1 Cb,
/// 2 Cr). Xiph's tables are symmetric about the diagonal: these are their
/// upper triangles, row r holding columns r..7, the C code's double literals
/// made float as its float tables make them. Host only: the kernels read the
/// weights psnr_hvs_weights() makes, uploaded as device constants.
inline float psnr_hvs_csf(int p, int i, int j)
{
    static constexpr float upper[3][36] = {
        {1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242,
         0.466224900598, 0.3265091542, //
         1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363,
         0.61280991668, 0.436405793551, //
         1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016, 0.501731932449,
         0.372504254596, //
         0.772819797575, 0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565, //
         0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204, //
         0.27032073436, 0.215017739696, 0.17408067321, //
         0.168869545842, 0.136153931001, //
         0.109083846276},
        {1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788,
         0.898018824055, 0.74725392039, 0.615105596242, //
         1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929,
         0.996404342439, 0.830890433625, //
         0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087, 0.849823426169,
         0.731221236837, //
         0.861317501629, 0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374, //
         0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034, //
         0.514674450957, 0.454353482512, 0.407050308965, //
         0.389234902883, 0.342353999733, //
         0.295530605237},
        {2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469,
         0.867069376285, 0.721500455585, 0.593906509971, //
         1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809,
         0.962064122248, 0.802254508198, //
         0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286, 0.820534991409,
         0.706020324706, //
         0.831632933426, 0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023, //
         0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273, //
         0.496936637883, 0.438694579826, 0.393021669543, //
         0.375820256136, 0.330555063063, //
         0.285345396658},
    };
    const int r = i < j ? i : j, c = i < j ? j : i;
    return upper[p][r * PSNR_HVS_BLOCK - r * (r - 1) / 2 + (c - r)];
}

/// §4.1: plane p's weights: the CSF, and mask = (csf * 0.3885746225901003)^2
/// in double, stored as float.
inline PsnrHvsWeights psnr_hvs_weights(int p)
{
    PsnrHvsWeights w;
    for (int k = 0; k < PSNR_HVS_TERMS; k++) {
        w.csf[k] = psnr_hvs_csf(p, k / PSNR_HVS_BLOCK, k % PSNR_HVS_BLOCK);
        const double scaled = w.csf[k] * 0.3885746225901003;
        w.mask[k] = static_cast<float>(scaled * scaled);
    }
    return w;
}

/// §4.3: a / 2 rounded toward zero (Daala's OD_DCT_RSHIFT(a, 1): the sign
/// bit is added before the arithmetic shift).
VMAFHIP_HD int32_t psnr_hvs_half(int32_t a)
{
    return static_cast<int32_t>((static_cast<uint32_t>(a) >> 31) + static_cast<uint32_t>(a)) >> 1;
}

/// §4.3: (a * m + 2^(s-1)) >> s in int32, as the C code computes it: the
/// product and the offset wrap like the 32-bit multiply libvmaf's build
/// emits (no value of 8 to 12-bit blocks comes near it).
VMAFHIP_HD int32_t psnr_hvs_lift(int32_t a, int32_t m, int s)
{
    const uint32_t p = static_cast<uint32_t>(a) * static_cast<uint32_t>(m) + (1u << (s - 1));
    return static_cast<int32_t>(p) >> s;
}

/// §4.3: Daala's od_bin_fdct8, the 1-D transform of x[0], x[stride], ...,
/// x[7 * stride] into y[0..7]: its butterflies and lifting steps in its order.
VMAFHIP_HD void psnr_hvs_fdct8(const int32_t *x, int stride, int32_t *y)
{
    // Inputs in the transform's permuted order.
    int32_t t0 = x[0 * stride], t4 = x[1 * stride], t2 = x[2 * stride], t6 = x[3 * stride];
    int32_t t7 = x[4 * stride], t3 = x[5 * stride], t5 = x[6 * stride], t1 = x[7 * stride];
    // +1/-1 butterflies.
    t1 = t0 - t1;
    const int32_t t1h = psnr_hvs_half(t1);
    t0 -= t1h;
    t4 += t5;
    const int32_t t4h = psnr_hvs_half(t4);
    t5 -= t4h;
    t3 = t2 - t3;
    t2 -= psnr_hvs_half(t3);
    t6 += t7;
    const int32_t t6h = psnr_hvs_half(t6);
    t7 = t6h - t7;
    // The embedded 4-point DCT-II.
    t0 += t6h;
    t6 = t0 - t6;
    t2 = t4h - t2;
    t4 = t2 - t4;
    // Its 2-point DCT-II: sqrt(2) - 1, sqrt(1/2), sqrt(2) - 1.
    t0 -= psnr_hvs_lift(t4, 13573, 15);
    t4 += psnr_hvs_lift(t0, 11585, 14);
    t0 -= psnr_hvs_lift(t4, 13573, 15);
    // Its 2-point DST-IV: (1 - cos(3pi/8)) / sin(3pi/8), sin(3pi/8), again the first.
    t6 -= psnr_hvs_lift(t2, 21895, 15);
    t2 += psnr_hvs_lift(t6, 15137, 14);
    t6 -= psnr_hvs_lift(t2, 21895, 15);
    // The embedded 4-point DST-IV.
    t3 += psnr_hvs_lift(t5, 19195, 15);
    t5 += psnr_hvs_lift(t3, 11585, 14);
    t3 -= psnr_hvs_lift(t5, 7489, 13);
    t7 = psnr_hvs_half(t5) - t7;
    t5 -= t7;
    t3 = t1h - t3;
    t1 -= t3;
    // Rotations by pi/16 and 3pi/16, three lifts each.
    t7 += psnr_hvs_lift(t1, 3227, 15);
    t1 -= psnr_hvs_lift(t7, 6393, 15);
    t7 += psnr_hvs_lift(t1, 3227, 15);
    t5 += psnr_hvs_lift(t3, 2485, 13);
    t3 -= psnr_hvs_lift(t5, 18205, 15);
    t5 += psnr_hvs_lift(t3, 2485, 13);
    y[0] = t0;
    y[1] = t1;
    y[2] = t2;
    y[3] = t3;
    y[4] = t4;
    y[5] = t5;
    y[6] = t6;
    y[7] = t7;
}

/// §4.3: Daala's od_bin_fdct8x8, the 2-D transform of an 8x8 block, rows of
/// 8 in x, into y (row-major; y may be x): the 1-D transform of every column
/// of x into the rows of a scratch block, then of every column of that block
/// into the rows of y. Exact integer arithmetic.
VMAFHIP_HD void psnr_hvs_fdct8x8(const int32_t *x, int32_t *y)
{
    int32_t z[PSNR_HVS_TERMS];
    for (int i = 0; i < PSNR_HVS_BLOCK; i++)
        psnr_hvs_fdct8(x + i, PSNR_HVS_BLOCK, z + PSNR_HVS_BLOCK * i);
    for (int i = 0; i < PSNR_HVS_BLOCK; i++)
        psnr_hvs_fdct8(z + i, PSNR_HVS_BLOCK, y + PSNR_HVS_BLOCK * i);
}

/// §4.2: the 4x4 quarter of sample (i, j): ((i & 12) >> 2) + ((j & 12) >> 1),
/// i.e. +1 for the bottom half, +2 for the right half.
VMAFHIP_HD int psnr_hvs_quarter(int i, int j)
{
    return ((i & 12) >> 2) + ((j & 12) >> 1);
}

/// §4.2: the unbiased-variance factors, the float constants (1 / 63.f) * 64
/// and (1 / 15.f) * 16.
constexpr float PSNR_HVS_UNBIAS64 = 1 / 63.f * 64;
constexpr float PSNR_HVS_UNBIAS16 = 1 / 15.f * 16;

/// §4.2: how evenly a block's variance spreads over its four 4x4 quarters
/// (0 for a flat block), float32 throughout, rows then columns.
VMAFHIP_HD float psnr_hvs_variance_ratio(const int32_t *b)
{
    float mean = 0, quarter_mean[4] = {0, 0, 0, 0};
    for (int i = 0; i < PSNR_HVS_BLOCK; i++)
        for (int j = 0; j < PSNR_HVS_BLOCK; j++) {
            const float v = static_cast<float>(b[i * PSNR_HVS_BLOCK + j]);
            mean += v;
            quarter_mean[psnr_hvs_quarter(i, j)] += v;
        }
    mean /= 64.f;
    for (int q = 0; q < 4; q++)
        quarter_mean[q] /= 16.f;
    float var = 0, quarter_var[4] = {0, 0, 0, 0};
    for (int i = 0; i < PSNR_HVS_BLOCK; i++)
        for (int j = 0; j < PSNR_HVS_BLOCK; j++) {
            const float v = static_cast<float>(b[i * PSNR_HVS_BLOCK + j]);
            const float d = v - mean;
            const float dd = d * d;
            var += dd;
            const int q = psnr_hvs_quarter(i, j);
            const float dq = v - quarter_mean[q];
            const float dqdq = dq * dq;
            quarter_var[q] += dqdq;
        }
    var *= PSNR_HVS_UNBIAS64;
    for (int q = 0; q < 4; q++)
        quarter_var[q] *= PSNR_HVS_UNBIAS16;
    if (var > 0) {
        const float quarters = quarter_var[0] + quarter_var[1] + quarter_var[2] + quarter_var[3];
        var = quarters / var;
    }
    return var;
}

/// §4.4: the masking energy of a block's DCT: the AC coefficients' squares
/// (int32 products, wrapping as the C code's do) weighted, in float, times
/// the variance ratio, square-rooted in double, over 32.
VMAFHIP_HD float psnr_hvs_masking(const int32_t *dct, float ratio, const PsnrHvsWeights &w)
{
    float energy = 0;
    for (int k = 1; k < PSNR_HVS_TERMS; k++) {
        const uint32_t c = static_cast<uint32_t>(dct[k]);
        const int32_t sq = static_cast<int32_t>(c * c);
        const float weighted = static_cast<float>(sq) * w.mask[k];
        energy += weighted;
    }
    const float product = energy * ratio;
    return static_cast<float>(::sqrt(static_cast<double>(product)) / 32.f);
}

/// The 8x8 samples of type T (uint8_t or uint16_t) at p, rows stride bytes
/// apart, as int32 into b (row-major).
template <typename T> VMAFHIP_HD void psnr_hvs_load(const uint8_t *p, ptrdiff_t stride, int32_t *b)
{
    for (int i = 0; i < PSNR_HVS_BLOCK; i++) {
        const T *row = reinterpret_cast<const T *>(p + i * stride);
        for (int j = 0; j < PSNR_HVS_BLOCK; j++)
            b[i * PSNR_HVS_BLOCK + j] = row[j];
    }
}

/// §4.2-§4.4: the 64 error terms of one block, row-major, into terms: the
/// block's samples of type T at ref and dis, their rows ref_stride and
/// dis_stride bytes apart.
template <typename T>
VMAFHIP_HD void psnr_hvs_block_terms(const uint8_t *ref, ptrdiff_t ref_stride, const uint8_t *dis,
                                     ptrdiff_t dis_stride, const PsnrHvsWeights &w, float *terms)
{
    int32_t s[PSNR_HVS_TERMS], d[PSNR_HVS_TERMS];
    psnr_hvs_load<T>(ref, ref_stride, s);
    psnr_hvs_load<T>(dis, dis_stride, d);
    const float s_ratio = psnr_hvs_variance_ratio(s), d_ratio = psnr_hvs_variance_ratio(d);
    psnr_hvs_fdct8x8(s, s);
    psnr_hvs_fdct8x8(d, d);
    const float s_mask = psnr_hvs_masking(s, s_ratio, w), d_mask = psnr_hvs_masking(d, d_ratio, w);
    const float m = d_mask > s_mask ? d_mask : s_mask;
    for (int k = 0; k < PSNR_HVS_TERMS; k++) {
        const int32_t diff = s[k] - d[k];
        float err = static_cast<float>(diff < 0 ? -diff : diff);
        if (k) { // the DC coefficient is never masked
            const float threshold = m / w.mask[k];
            err = err < threshold ? 0 : err - threshold;
        }
        const float weighted = err * w.csf[k];
        terms[k] = weighted * weighted;
    }
}

} // namespace vmafhip
