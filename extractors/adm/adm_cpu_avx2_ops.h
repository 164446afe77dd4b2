// Lane pieces of the AVX2 ADM kernels (adm_cpu_avx2_*.cpp and their test):
// C's int16 narrowing, the int64 products, shifts and conversions AVX2 has
// no instruction for, and the §6 reciprocal. Each is exact on the values its
// comment names.
//
// Lanes: V holds 8 int32 (positions in order) or 4 int64. An int64 product
// of int32 lanes is formed for the even lanes (mul_epi32 reads the low half
// of each int64 lane) and for the odd ones moved down by odd(); join() puts
// the low halves of the two results back in position order.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstddef>
#include <cstdint>

#include "extractors/adm/adm_cpu_avx2.h"

namespace vmafhip::adm_avx2 {

using V = __m256i;
using D = __m256d;

VMAFHIP_AVX2 inline V set32(int32_t v) { return _mm256_set1_epi32(v); }
VMAFHIP_AVX2 inline V set64(int64_t v) { return _mm256_set1_epi64x(v); }

VMAFHIP_AVX2 inline V load(const int32_t *p)
{
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
}
VMAFHIP_AVX2 inline void store(int32_t *p, V v)
{
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(p), v);
}

/// 8 int16, sign-extended to int32 lanes.
VMAFHIP_AVX2 inline V load16(const int16_t *p)
{
    return _mm256_cvtepi16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}

/// The low 16 bits of each int32 lane, as C's int16 store keeps them (a
/// saturating pack would not).
VMAFHIP_AVX2 inline void store16(int16_t *p, V v)
{
    const V low = _mm256_shuffle_epi8(v, _mm256_setr_epi8(0, 1, 4, 5, 8, 9, 12, 13, -1, -1, -1, -1,
                                                          -1, -1, -1, -1, 0, 1, 4, 5, 8, 9, 12, 13,
                                                          -1, -1, -1, -1, -1, -1, -1, -1));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(p),
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(low, 0x08)));
}

/// i16(x) of each int32 lane, sign-extended back.
VMAFHIP_AVX2 inline V wrap16(V v) { return _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16); }

/// The odd int32 lanes in the low halves of the int64 lanes (high halves 0).
VMAFHIP_AVX2 inline V odd(V v) { return _mm256_srli_epi64(v, 32); }

/// The low halves of the int64 lanes of e (from the even int32 lanes) and o
/// (from the odd ones), in position order.
VMAFHIP_AVX2 inline V join(V e, V o)
{
    return _mm256_blend_epi32(e, _mm256_slli_epi64(o, 32), 0xAA);
}

/// The high halves of the int64 lanes of e and o, in position order.
VMAFHIP_AVX2 inline V join_high(V e, V o)
{
    return _mm256_blend_epi32(_mm256_srli_epi64(e, 32), o, 0xAA);
}

/// Lanes 0-3 and 4-7 as doubles (exact).
VMAFHIP_AVX2 inline D lo_pd(V v) { return _mm256_cvtepi32_pd(_mm256_castsi256_si128(v)); }
VMAFHIP_AVX2 inline D hi_pd(V v) { return _mm256_cvtepi32_pd(_mm256_extracti128_si256(v, 1)); }

/// Lanes 0-3 from lo and 4-7 from hi, truncated toward zero (C's conversion).
VMAFHIP_AVX2 inline V trunc32(D lo, D hi)
{
    return _mm256_set_m128i(_mm256_cvttpd_epi32(hi), _mm256_cvttpd_epi32(lo));
}

/// adm_recip(m) for m in [1, 32768] (garbage where m = 0): floor(2^30 / m)
/// through a double division. A quotient that is not an integer lies at
/// least 1/m >= 2^-15 below the next integer, and the correctly rounded
/// double is within 2^-24 of it, so truncation gives the floor.
VMAFHIP_AVX2 inline V recip(V m)
{
    const D n = _mm256_set1_pd(1073741824.0);
    return trunc32(_mm256_div_pd(n, lo_pd(m)), _mm256_div_pd(n, hi_pd(m)));
}

/**
 * f64(f32(|v|)) of int64 lanes (|v| < 2^63), with the one rounding of the
 * int64 to float conversion, which AVX2 lacks. Below 2^53 the value is
 * exact in double. Above, its bits below bit 11 are folded into bit 11 (a
 * sticky bit, far below the float's rounding position, so the float
 * rounding sees the same bits) and the rest is exact in double.
 */
VMAFHIP_AVX2 inline D float_of(V v)
{
    const V zero = _mm256_setzero_si256();
    const V neg = _mm256_cmpgt_epi64(zero, v);
    const V a = _mm256_sub_epi64(_mm256_xor_si256(v, neg), neg);
    const V big = _mm256_cmpgt_epi64(a, set64((static_cast<int64_t>(1) << 53) - 1));
    const V sticky =
        _mm256_andnot_si256(_mm256_cmpeq_epi64(_mm256_and_si256(a, set64(0x7FF)), zero), set64(1));
    const V x = _mm256_blendv_epi8(a, _mm256_or_si256(_mm256_srli_epi64(a, 11), sticky), big);
    // x < 2^53 to double: its high and low 32 bits as the mantissas of 2^84
    // and 2^52, which are then taken off (every step exact).
    const D hi =
        _mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), set64(0x4530000000000000)));
    const D lo = _mm256_castsi256_pd(_mm256_blend_epi32(x, set64(0x4330000000000000), 0xAA));
    const D d = _mm256_add_pd(_mm256_sub_pd(hi, _mm256_set1_pd(0x1p84 + 0x1p52)), lo);
    const D scale =
        _mm256_blendv_pd(_mm256_set1_pd(1.0), _mm256_set1_pd(2048.0), _mm256_castsi256_pd(big));
    return _mm256_cvtps_pd(_mm256_cvtpd_ps(_mm256_mul_pd(d, scale)));
}

/// The low half of each int64 lane of (irf x + 2^27) >> 28 (the shift's
/// kind does not matter to those bits), for the low int32 halves of x.
/// irf_hi is all ones when the uint32 weight is >= 2^31: mul_epi32 reads it
/// as irf - 2^32, and x * 2^32 puts that back.
VMAFHIP_AVX2 inline V csf_s123_half(V x, V irf, V irf_hi)
{
    const V p = _mm256_add_epi64(_mm256_mul_epi32(x, irf),
                                 _mm256_and_si256(_mm256_slli_epi64(x, 32), irf_hi));
    return _mm256_srli_epi64(_mm256_add_epi64(p, set64(static_cast<int64_t>(1) << 27)), 28);
}

/// The §8 weight irf as csf_s123 takes it.
struct Irf123 {
    V irf, hi;
};
VMAFHIP_AVX2 inline Irf123 irf123(uint32_t irf)
{
    return {set64(irf), set64(irf >= 0x80000000u ? -1 : 0)};
}

/// adm_csf_s123 of 8 lanes.
VMAFHIP_AVX2 inline V csf_s123(V x, const Irf123 &w)
{
    return join(csf_s123_half(x, w.irf, w.hi), csf_s123_half(odd(x), w.irf, w.hi));
}

} // namespace vmafhip::adm_avx2
#endif
