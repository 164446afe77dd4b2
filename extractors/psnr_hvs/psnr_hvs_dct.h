// psnr_hvs's 8x8 integer DCT (docs/psnr_hvs.md §4): Daala's od_bin_fdct8x8,
// the lifting transform of the Xiph code libvmaf's psnr_hvs comes from. Exact
// integer arithmetic: the coefficients are libvmaf's to the last bit.
#pragma once

#include <cstdint>

namespace vmafhip {

/// The 2-D transform of an 8x8 block, rows of 8 in x, into y (row-major; y
/// may be x): the 1-D transform of every column of x into the rows of a
/// scratch block, then of every column of that block into the rows of y.
void psnr_hvs_fdct8x8(const int32_t x[64], int32_t y[64]);

} // namespace vmafhip
