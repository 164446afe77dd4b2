#include "base/device_copy.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace vmafhip {

namespace {

#if defined(__SSE2__)
// One row: ordinary stores up to the first 16-byte boundary of dst and after
// the last one, non-temporal 16-byte stores in between. SSE2 is part of
// x86-64, and wider stores gain nothing on a copy bound by memory.
void stream_row(uint8_t *dst, const uint8_t *src, size_t n)
{
    const size_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
    if (n < head + 16) {
        std::memcpy(dst, src, n);
        return;
    }
    std::memcpy(dst, src, head);
    size_t i = head;
    for (; i + 64 <= n; i += 64) {
        const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 16));
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 32));
        const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i + 48));
        _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i), a);
        _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i + 16), b);
        _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i + 32), c);
        _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i + 48), d);
    }
    for (; i + 16 <= n; i += 16)
        _mm_stream_si128(reinterpret_cast<__m128i *>(dst + i),
                         _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + i)));
    std::memcpy(dst + i, src + i, n - i);
}
#else
void stream_row(uint8_t *dst, const uint8_t *src, size_t n)
{
    std::memcpy(dst, src, n);
}
#endif // __SSE2__

} // namespace

void copy_rows_for_device(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                          ptrdiff_t src_stride, size_t row_bytes, int rows)
{
    if (rows <= 0 || !row_bytes)
        return;
    const auto packed = static_cast<ptrdiff_t>(row_bytes);
    if (dst_stride == packed && src_stride == packed) {
        // Contiguous on both sides: one run, with no boundary at each row.
        stream_row(dst, src, row_bytes * static_cast<size_t>(rows));
    } else {
        for (int y = 0; y < rows; y++)
            stream_row(dst + y * dst_stride, src + y * src_stride, row_bytes);
    }
#if defined(__SSE2__)
    // Non-temporal stores are weakly ordered: complete them before whatever
    // tells another thread, or the DMA, that the rows are there.
    _mm_sfence();
#endif
}

} // namespace vmafhip
