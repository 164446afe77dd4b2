// Copies into host memory that a device reads next, not this CPU: the pinned
// staging of a frame before its host-to-device DMA.
//
// Ordinary stores read every destination line into the cache first and leave
// it dirty there, so the DMA engine then reads the frame out of the CPU's
// caches. On the H200 host measured (README, Performance) that cost half of
// the host-to-device rate besides the extra read: staging a 1080p luma pair
// with memcpy took 0.37 ms and its copy to the GPU ran at 26 GB/s; with
// stores that bypass the cache, 0.09 ms and 47 GB/s.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vmafhip {

/// Copies rows rows of row_bytes bytes from src (rows stride src_stride
/// bytes apart; negative for a bottom-up plane) to dst (dst_stride apart).
/// Non-temporal stores on x86-64, memcpy elsewhere. The stores are complete
/// (fenced) when it returns, so a thread that then publishes its work through
/// an atomic, or hands the memory to a DMA, needs no further fence.
void copy_rows_for_device(uint8_t *dst, ptrdiff_t dst_stride, const uint8_t *src,
                          ptrdiff_t src_stride, size_t row_bytes, int rows);

} // namespace vmafhip
