#include "core/pack10_staging.h"

#include "kernels/packed10.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vmafhip {

namespace {

constexpr int kBlock = PACKED10_BLOCK_SAMPLES, kWords = PACKED10_BLOCK_WORDS;

/// Block b of a row one sample at a time (the row's last, partial block,
/// or every block without SSE2); returns the OR of its samples.
unsigned pack_block(uint32_t *d, const uint16_t *s, int w, int b)
{
    unsigned seen = 0;
    for (int k = 0; k < kWords; k++) {
        uint32_t word = 0;
        for (int part = 0; part < 3; part++) {
            const int x = b * kBlock + part * kWords + k;
            const unsigned v = x < w ? s[x] : 0;
            seen |= v;
            word |= v << (10 * part); // a sample above 10 bits spoils it: the caller is told
        }
        d[b * kWords + k] = word;
    }
    return seen;
}

} // namespace

bool pack10_rows_for_device(uint32_t *dst, const uint8_t *src, ptrdiff_t src_stride, int w,
                            int rows)
{
    const size_t row_words = packed10_row_words(w);
    const int blocks = static_cast<int>(row_words / kWords);
    unsigned seen = 0;
#if defined(__SSE2__)
    // Eight samples from each third of a block, widened to 32 bits, shifted
    // and ORed: eight words, streamed past the caches.
    const int full = w / kBlock;
    __m128i seen_v = _mm_setzero_si128();
    const __m128i zero = _mm_setzero_si128();
    const auto words = [&](__m128i a, __m128i b, __m128i c, bool high) {
        const auto widen = [&](__m128i v) {
            return high ? _mm_unpackhi_epi16(v, zero) : _mm_unpacklo_epi16(v, zero);
        };
        return _mm_or_si128(widen(a), _mm_or_si128(_mm_slli_epi32(widen(b), 10),
                                                   _mm_slli_epi32(widen(c), 20)));
    };
#endif
    for (int y = 0; y < rows; y++) {
        const uint16_t *s = reinterpret_cast<const uint16_t *>(src + y * src_stride);
        uint32_t *d = dst + static_cast<size_t>(y) * row_words;
        int b = 0;
#if defined(__SSE2__)
        for (; b < full; b++) {
            const __m128i *in = reinterpret_cast<const __m128i *>(s + b * kBlock);
            const __m128i a = _mm_loadu_si128(in), m = _mm_loadu_si128(in + 1),
                          c = _mm_loadu_si128(in + 2);
            seen_v = _mm_or_si128(seen_v, _mm_or_si128(a, _mm_or_si128(m, c)));
            __m128i *out = reinterpret_cast<__m128i *>(d + b * kWords);
            _mm_stream_si128(out, words(a, m, c, false));
            _mm_stream_si128(out + 1, words(a, m, c, true));
        }
#endif
        for (; b < blocks; b++)
            seen |= pack_block(d, s, w, b);
    }
#if defined(__SSE2__)
    alignas(16) uint16_t lanes[8];
    _mm_store_si128(reinterpret_cast<__m128i *>(lanes), seen_v);
    for (const uint16_t v : lanes)
        seen |= v;
    _mm_sfence(); // the streamed stores are weakly ordered (base/device_copy.cpp)
#endif
    return (seen & ~PACKED10_MAX) == 0;
}

} // namespace vmafhip
