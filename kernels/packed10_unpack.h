// Packed ten-bit planes (kernels/packed10.h) back to 16-bit samples on the
// GPU, after their host-to-device copy.
#pragma once

#include <stdint.h>

#include "kernels/gpu_compat.h"

namespace vmafhip {

constexpr int PACKED10_MAX_PLANES = 6; ///< three planes of two pictures

/// Planes to unpack: plane i from packed rows at src[i] into w[i] x h[i]
/// 16-bit samples at dst[i], rows packed.
struct Packed10Planes {
    const uint32_t *src[PACKED10_MAX_PLANES];
    uint16_t *dst[PACKED10_MAX_PLANES];
    int w[PACKED10_MAX_PLANES], h[PACKED10_MAX_PLANES];
    int n;
};

void packed10_unpack_enqueue(hipStream_t stream, const Packed10Planes &p);

} // namespace vmafhip
