// integer motion row kernels with AVX2 intrinsics (docs/motion.md §2): the
// integers of the plain kernels (motion_cpu_scalar.cpp) on every input
// their contracts allow, 16 columns per step.
//
// Both passes are vpmaddwd on pairs of 16-bit values, a pair of taps per
// instruction. Vertical: the symmetric taps on the pairs (d0 + d4, d1 + d3)
// and (d2, 1), the second pair's taps (F2, rounding constant); the sum is
// below 2^29 at 12 bits. Horizontal: the 16-bit halves hi and lo of yv are
// filtered apart, A = Σ f hi and B = Σ f lo, and joined as
//   z = (256 A + B + 32768) >> 16 = (A + 128 + (B >> 8)) >> 8
// (floor shifts; 256 A + 32768 is a multiple of 256). Loading a row at
// offsets -2 .. +2 gives, as pairs of adjacent columns, the taps of the
// even outputs from offsets -2, +1 and 0, and those of the odd outputs from
// -1, +2 and 0; the order of |z| does not matter to their sum.
#include "extractors/motion/motion_cpu_rows.h"

#if defined(__x86_64__)
#include <algorithm>

#include "base/avx2.h"
#endif // defined(__x86_64__)

namespace vmafhip {

#if defined(__x86_64__)

namespace {

using V = __m256i;

VMAFHIP_AVX2 inline void store(int16_t *p, V v) { _mm256_storeu_si256(reinterpret_cast<V *>(p), v); }

VMAFHIP_AVX2 void diff8(const uint8_t *prev, const uint8_t *cur, int w, int16_t *d)
{
    int j = 0;
    for (; j + 16 <= w; j += 16) {
        const V p = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i *>(prev + j)));
        const V c = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i *>(cur + j)));
        store(d + j, _mm256_sub_epi16(p, c));
    }
    motion_kernels_scalar().diff8(prev + j, cur + j, w - j, d + j);
}

VMAFHIP_AVX2 uint32_t diff16(const uint16_t *prev, const uint16_t *cur, int w, int16_t *d)
{
    V any = _mm256_setzero_si256();
    int j = 0;
    for (; j + 16 <= w; j += 16) {
        const V p = avx2_load(prev + j), c = avx2_load(cur + j);
        any = _mm256_or_si256(any, _mm256_or_si256(p, c));
        store(d + j, _mm256_sub_epi16(p, c));
    }
    const __m128i a = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
    const __m128i b = _mm_or_si128(a, _mm_srli_si128(a, 8));
    const __m128i c = _mm_or_si128(b, _mm_srli_si128(b, 4));
    const uint32_t lanes = static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_or_si128(c, _mm_srli_si128(c, 2))));
    return (lanes & 0xffff) | motion_kernels_scalar().diff16(prev + j, cur + j, w - j, d + j);
}

/// Whole vectors: the rows have MOTION_ROW_SLACK columns after column w.
VMAFHIP_AVX2 void vert(const int16_t *const d[5], int w, int bpc, int16_t *hi, int16_t *lo)
{
    const V f01 = avx2_pairs(MOTION_F0, MOTION_F1), f2r = avx2_pairs(MOTION_F2, 1 << (bpc - 1));
    const V one = _mm256_set1_epi16(1), low8 = _mm256_set1_epi32(255);
    const __m128i shift = _mm_cvtsi32_si128(bpc), shift_hi = _mm_cvtsi32_si128(bpc + 8);
    for (int j = 0; j < w; j += 16) {
        const V s04 = _mm256_add_epi16(avx2_load(d[0] + j), avx2_load(d[4] + j));
        const V s13 = _mm256_add_epi16(avx2_load(d[1] + j), avx2_load(d[3] + j));
        const V s2 = avx2_load(d[2] + j);
        // Columns 0-3 and 8-11 (a), 4-7 and 12-15 (b): packs puts them back in order.
        const V a = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(s04, s13), f01),
                                     _mm256_madd_epi16(_mm256_unpacklo_epi16(s2, one), f2r));
        const V b = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(s04, s13), f01),
                                     _mm256_madd_epi16(_mm256_unpackhi_epi16(s2, one), f2r));
        store(hi + j, _mm256_packs_epi32(_mm256_sra_epi32(a, shift_hi), _mm256_sra_epi32(b, shift_hi)));
        store(lo + j, _mm256_packs_epi32(_mm256_and_si256(_mm256_sra_epi32(a, shift), low8),
                                         _mm256_and_si256(_mm256_sra_epi32(b, shift), low8)));
    }
}

/// Σ f x of the 16-bit row x at the even (*e) and odd (*o) columns of
/// x[0 .. 16).
VMAFHIP_AVX2 inline void filter16(const int16_t *x, V *e, V *o)
{
    const V f01 = avx2_pairs(MOTION_F0, MOTION_F1), f10 = avx2_pairs(MOTION_F1, MOTION_F0);
    const V f20 = avx2_pairs(MOTION_F2, 0), f02 = avx2_pairs(0, MOTION_F2);
    const V x0 = avx2_load(x);
    *e = _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(avx2_load(x - 2), f01), _mm256_madd_epi16(avx2_load(x + 1), f10)),
                          _mm256_madd_epi16(x0, f20));
    *o = _mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(avx2_load(x - 1), f01), _mm256_madd_epi16(avx2_load(x + 2), f10)),
                          _mm256_madd_epi16(x0, f02));
}

/// |z| from the filtered halves.
VMAFHIP_AVX2 inline V abs_z(V a, V b)
{
    const V r = _mm256_add_epi32(_mm256_srai_epi32(b, 8), _mm256_set1_epi32(128));
    return _mm256_abs_epi32(_mm256_srai_epi32(_mm256_add_epi32(a, r), 8));
}

/// Horizontal columns summed in uint32 lanes before they are widened: each
/// lane adds two |z| <= 2^23 per 16 columns (|yv| < 2^23), 2^30 at most.
constexpr int SUM_COLUMNS = 1024;

VMAFHIP_AVX2 uint64_t hori_sad(const int16_t *hi, const int16_t *lo, int w)
{
    const V even = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14), odd = _mm256_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15);
    V sum = _mm256_setzero_si256(); // uint64 lanes
    for (int j0 = 0; j0 < w; j0 += SUM_COLUMNS) {
        V acc = _mm256_setzero_si256();
        const int j1 = std::min(w, j0 + SUM_COLUMNS);
        for (int j = j0; j < j1; j += 16) {
            V ae, ao, be, bo;
            filter16(hi + j, &ae, &ao);
            filter16(lo + j, &be, &bo);
            V ze = abs_z(ae, be), zo = abs_z(ao, bo);
            if (j + 16 > w) { // the last columns: outputs past w are 0
                const V left = _mm256_set1_epi32(w - j);
                ze = _mm256_and_si256(ze, _mm256_cmpgt_epi32(left, even));
                zo = _mm256_and_si256(zo, _mm256_cmpgt_epi32(left, odd));
            }
            acc = _mm256_add_epi32(acc, _mm256_add_epi32(ze, zo));
        }
        sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(acc)));
        sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(acc, 1)));
    }
    return avx2_sum64(sum);
}

} // namespace

const MotionKernels *motion_kernels_avx2()
{
    static const MotionKernels k = {diff8, diff16, vert, hori_sad};
    return cpu_has_avx2() ? &k : nullptr;
}

#else // defined(__x86_64__)

const MotionKernels *motion_kernels_avx2() { return nullptr; }

#endif // defined(__x86_64__)

} // namespace vmafhip
