// integer VIF on the CPU, AVX2: the per-pixel statistic (docs/vif.md §4.1,
// §5, §7) of eight pixels at once, with vif_pixel's integers on every input.
// Its doubles are vif_pixel's operations in the same order (no contraction:
// nothing here enables FMA) on exact conversions, and the logarithms read
// the exponent and top mantissa bits of exact doubles. Also the helpers the
// AVX2 row kernels (vif_cpu_avx2.cpp) share with it; x86-64 only.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>
#include <vector>

#include "base/avx2.h"
#include "extractors/vif/vif.h"

namespace vmafhip {
namespace vif_avx2 {

VMAFHIP_AVX2 inline __m256i u32(uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }

/// T[32768 .. 65535] (§5) and one more entry: the gathers read 32 bits at
/// every 16-bit entry.
inline const uint16_t *gather_table()
{
    static const std::vector<uint16_t> t = [] {
        std::vector<uint16_t> v(vif_log2_table(), vif_log2_table() + VIF_LOG2_ENTRIES);
        v.push_back(0);
        return v;
    }();
    return t.data();
}

/// The four sums of the per-pixel statistic, in lanes.
struct StatSums {
    __m256i den, num; ///< den_log, num_log: int32 lanes (one row, at most 4096 values
                      ///< below 2^16 in a lane: widths end at 32768)
    __m256i nonlog;   ///< num_nonlog: int64 lanes
    __m256i count;    ///< den_nonlog: int32 lanes

    VMAFHIP_AVX2 StatSums() : den(_mm256_setzero_si256()), num(den), nonlog(den), count(den) {}
    /// Adds the lanes to *part.
    VMAFHIP_AVX2 void add_to(VifPartial *part) const;
};

/// The sum of eight int32 lanes.
VMAFHIP_AVX2 inline int64_t sum32(__m256i v)
{
    return static_cast<int64_t>(avx2_sum64(_mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                                            _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1)))));
}

VMAFHIP_AVX2 inline void StatSums::add_to(VifPartial *part) const
{
    part->den_log += sum32(den);
    part->num_log += sum32(num);
    part->num_nonlog += static_cast<int64_t>(avx2_sum64(nonlog));
    part->den_nonlog += sum32(count);
}

/// L(x) + 2048 (1023 + 15) of eight exact doubles x in [2^17, 2^53) (lo,
/// hi: four each), as int32 lanes in the order lo0 lo1 hi0 hi1 lo2 lo3 hi2
/// hi3 (see log_order). The high 32 bits of a double hold its exponent
/// field, bitlength - 1 + 1023, and the top 20 bits below the leading one,
/// whose first 15 index T (vif_log2).
VMAFHIP_AVX2 inline __m256i log2_biased(__m256d lo, __m256d hi, const uint16_t *table)
{
    const __m256i top = _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castpd_ps(lo), _mm256_castpd_ps(hi), 0xDD));
    const __m256i idx = _mm256_and_si256(_mm256_srli_epi32(top, 5), _mm256_set1_epi32(0x7FFF));
    const __m256i t = _mm256_and_si256(_mm256_i32gather_epi32(reinterpret_cast<const int *>(table), idx, 2),
                                       _mm256_set1_epi32(0xFFFF));
    return _mm256_add_epi32(t, _mm256_slli_epi32(_mm256_srli_epi32(top, 20), 11));
}

/// Eight int32 lanes (pixels 0-7) in the order of log2_biased's results:
/// lo and hi are pixels 0-3 and 4-7.
VMAFHIP_AVX2 inline __m256i log_order(__m256i v) { return _mm256_permute4x64_epi64(v, 0xD8); }

/// The high 32 bits of a * b + 2^31 in every 32-bit lane (a_odd, b_odd:
/// a, b shifted right by 32 in 64-bit lanes).
VMAFHIP_AVX2 inline __m256i mul_round_hi(__m256i a, __m256i b, __m256i a_odd, __m256i b_odd)
{
    const __m256i half = _mm256_set1_epi64x(0x80000000ll);
    const __m256i even = _mm256_add_epi64(_mm256_mul_epu32(a, b), half);
    const __m256i odd = _mm256_add_epi64(_mm256_mul_epu32(a_odd, b_odd), half);
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

VMAFHIP_AVX2 inline __m128i half_of(__m256i v, int h)
{
    return h ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
}

/// vif_pixel on the valid lanes of eight pixels (horizontal sums mu1, mu2,
/// and xx, yy, xy already rounded and cut to 32 bits).
VMAFHIP_AVX2 inline void pixel_stats(__m256i mu1, __m256i mu2, __m256i xx, __m256i yy, __m256i xy, __m256i valid,
                                 __m256d egl, const uint16_t *table, StatSums &acc)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i mu1_odd = _mm256_srli_epi64(mu1, 32), mu2_odd = _mm256_srli_epi64(mu2, 32);
    const __m256i s1 = _mm256_sub_epi32(xx, mul_round_hi(mu1, mu1, mu1_odd, mu1_odd));
    const __m256i s2 = _mm256_max_epi32(_mm256_sub_epi32(yy, mul_round_hi(mu2, mu2, mu2_odd, mu2_odd)), zero);
    const __m256i s12 = _mm256_sub_epi32(xy, mul_round_hi(mu1, mu2, mu1_odd, mu2_odd));
    const __m256i log = _mm256_and_si256(_mm256_cmpgt_epi32(s1, _mm256_set1_epi32(VIF_SIGMA_NSQ - 1)), valid);
    const __m256i nonlog = _mm256_andnot_si256(log, valid);
    acc.count = _mm256_sub_epi32(acc.count, nonlog);
    const __m256i s2n = _mm256_and_si256(s2, nonlog); // >= 0: the halves of a 64-bit lane
    acc.nonlog = _mm256_add_epi64(acc.nonlog, _mm256_add_epi64(_mm256_blend_epi32(s2n, zero, 0xAA),
                                                                _mm256_srli_epi64(s2n, 32)));
    if (_mm256_testz_si256(log, log))
        return;
    const __m256i num = _mm256_and_si256(
        log, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
    const __m256d sigma = _mm256_set1_pd(VIF_SIGMA_NSQ);
    __m256d d1[2], x[2], n1[2], n1t[2];
    for (int h = 0; h < 2; h++) {
        d1[h] = _mm256_cvtepi32_pd(half_of(s1, h));
        x[h] = _mm256_add_pd(d1[h], sigma); // sigma_nsq + s1: exact (s1 < 2^31)
        const __m256d d12 = _mm256_cvtepi32_pd(half_of(s12, h));
        __m256d g = _mm256_div_pd(d12, _mm256_add_pd(d1[h], _mm256_set1_pd(65536 * 1.0e-10)));
        // vif_residual: the product rounded, then the difference; cvttpd2dq
        // is vif_trunc_i32.
        const __m256d d = _mm256_sub_pd(_mm256_cvtepi32_pd(half_of(s2, h)), _mm256_mul_pd(g, d12));
        const __m128i sv = _mm_max_epi32(_mm256_cvttpd_epi32(d), _mm_setzero_si128());
        n1[h] = _mm256_add_pd(_mm256_cvtepi32_pd(sv), sigma); // exact, below 2^32
        g = _mm256_min_pd(g, egl);                            // g < egl ? g : egl
        // (g * g) * s1 truncated (below 2^45) plus n1: exact in a double.
        const __m256d t = _mm256_round_pd(_mm256_mul_pd(_mm256_mul_pd(g, g), d1[h]),
                                          _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        n1t[h] = _mm256_add_pd(t, n1[h]);
    }
    // den_log += L(sigma_nsq + s1) - 17 * 2048, num_log += L(n1t) - L(n1).
    const __m256i den = _mm256_sub_epi32(log2_biased(x[0], x[1], table), _mm256_set1_epi32(2048 * (1038 + 17)));
    acc.den = _mm256_add_epi32(acc.den, _mm256_and_si256(den, log_order(log)));
    const __m256i n = _mm256_sub_epi32(log2_biased(n1t[0], n1t[1], table), log2_biased(n1[0], n1[1], table));
    acc.num = _mm256_add_epi32(acc.num, _mm256_and_si256(n, log_order(num)));
}

} // namespace vif_avx2
} // namespace vmafhip

#endif // defined(__x86_64__)
