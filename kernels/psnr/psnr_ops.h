// psnr per-sample arithmetic (docs/psnr.md §4.1), shared by the CPU
// reference and the GPU kernel.
#pragma once

#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

/// Squared difference of two samples of up to 16 bits, exact and defined:
/// |a - b| <= 65535, so the square fits in uint32 (65535^2 overflows int32).
template <typename T> VMAFHIP_HD uint32_t psnr_sq_diff(T a, T b)
{
    const uint32_t d = a > b ? static_cast<uint32_t>(a) - b : static_cast<uint32_t>(b) - a;
    return d * d;
}

} // namespace vmafhip
