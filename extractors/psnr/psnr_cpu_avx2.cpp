// psnr row kernels with AVX2 intrinsics (docs/psnr.md §4.1): the exact sums
// of the plain kernels (psnr_cpu.cpp). Squares of differences below 2^15
// come two at a time from vpmaddwd into uint32 lanes, widened to uint64
// before they can wrap; 16-bit differences need 32-bit squares, formed from
// their 16-bit halves and added in uint64 lanes. The last columns of a row
// go to the plain kernels.
#include "extractors/psnr/psnr_cpu_rows.h"

#if defined(__x86_64__)
#include "base/avx2.h"
#endif // defined(__x86_64__)

namespace vmafhip {

#if defined(__x86_64__)

namespace {

using V = __m256i;

/// The uint32 lanes of v, added to the uint64 lanes of sum.
VMAFHIP_AVX2 inline V widen_add(V sum, V v)
{
    sum = _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm256_castsi256_si128(v)));
    return _mm256_add_epi64(sum, _mm256_cvtepu32_epi64(_mm256_extracti128_si256(v, 1)));
}

/// A uint32 lane adds 4 * 255^2 per 32 columns: no wrap below 2^19 columns
/// (widths end at 32768).
VMAFHIP_AVX2 uint64_t sse8(const uint8_t *a, const uint8_t *b, int w)
{
    const V zero = _mm256_setzero_si256();
    V acc = zero;
    int x = 0;
    for (; x + 32 <= w; x += 32) {
        const V p = avx2_load(a + x), q = avx2_load(b + x);
        const V d = _mm256_or_si256(_mm256_subs_epu8(p, q), _mm256_subs_epu8(q, p)); // |p - q|
        const V lo = _mm256_unpacklo_epi8(d, zero), hi = _mm256_unpackhi_epi8(d, zero);
        acc = _mm256_add_epi32(acc, _mm256_add_epi32(_mm256_madd_epi16(lo, lo), _mm256_madd_epi16(hi, hi)));
    }
    return avx2_sum64(widen_add(zero, acc)) + psnr_kernels_scalar().sse8(a + x, b + x, w - x);
}

/// Vectors of 10- and 12-bit samples summed in uint32 lanes before they are
/// widened: each adds at most 2 * 4095^2 to a lane, 2^31 in 64.
constexpr int BLOCK_VECTORS = 64;

/// |p - q| < 2^12: the differences are int16.
VMAFHIP_AVX2 uint64_t sse16_narrow(const uint16_t *a, const uint16_t *b, int w, int *done)
{
    V sum = _mm256_setzero_si256();
    int x = 0;
    while (x + 16 <= w) {
        V acc = _mm256_setzero_si256();
        for (int n = 0; n < BLOCK_VECTORS && x + 16 <= w; n++, x += 16) {
            const V d = _mm256_sub_epi16(avx2_load(a + x), avx2_load(b + x));
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(d, d));
        }
        sum = widen_add(sum, acc);
    }
    *done = x;
    return avx2_sum64(sum);
}

/// Any 16-bit samples: |p - q|^2 as uint32 from the low and high halves of
/// the product, in uint64 lanes.
VMAFHIP_AVX2 uint64_t sse16_wide(const uint16_t *a, const uint16_t *b, int w, int *done)
{
    const V zero = _mm256_setzero_si256();
    V sum = zero;
    int x = 0;
    for (; x + 16 <= w; x += 16) {
        const V p = avx2_load(a + x), q = avx2_load(b + x);
        const V d = _mm256_or_si256(_mm256_subs_epu16(p, q), _mm256_subs_epu16(q, p));
        const V lo = _mm256_mullo_epi16(d, d), hi = _mm256_mulhi_epu16(d, d);
        const V s0 = _mm256_unpacklo_epi16(lo, hi), s1 = _mm256_unpackhi_epi16(lo, hi);
        sum = _mm256_add_epi64(sum, _mm256_add_epi64(_mm256_unpacklo_epi32(s0, zero), _mm256_unpackhi_epi32(s0, zero)));
        sum = _mm256_add_epi64(sum, _mm256_add_epi64(_mm256_unpacklo_epi32(s1, zero), _mm256_unpackhi_epi32(s1, zero)));
    }
    *done = x;
    return avx2_sum64(sum);
}

VMAFHIP_AVX2 uint64_t sse16(const uint16_t *a, const uint16_t *b, int w, int bpc)
{
    int x;
    const uint64_t s = bpc <= 12 ? sse16_narrow(a, b, w, &x) : sse16_wide(a, b, w, &x);
    return s + psnr_kernels_scalar().sse16(a + x, b + x, w - x, bpc);
}

} // namespace

#endif // defined(__x86_64__)

const PsnrKernels *psnr_kernels_avx2()
{
#if defined(__x86_64__)
    static const PsnrKernels k = {sse8, sse16};
    if (cpu_has_avx2())
        return &k;
#endif
    return nullptr;
}

} // namespace vmafhip
