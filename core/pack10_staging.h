// Staging of 10-bit pictures in the packed form of kernels/packed10.h:
// the host side of the GPU backend's packed copies.
#pragma once

#include <cstddef>
#include <cstdint>

namespace vmafhip {

/// Packs `rows` rows of w 16-bit samples from src (rows src_stride bytes
/// apart; negative for a bottom-up plane) into dst, rows of
/// packed10_row_words(w) words one after another; dst 16-byte aligned.
/// Like copy_rows_for_device() (base/device_copy.h): non-temporal stores on
/// x86-64, complete when it returns. @return false when a sample is above
/// PACKED10_MAX, which the form cannot hold (dst then holds no valid rows).
bool pack10_rows_for_device(uint32_t *dst, const uint8_t *src, ptrdiff_t src_stride, int w,
                            int rows);

} // namespace vmafhip
