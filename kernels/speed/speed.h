// SpEED kernels (kernels/speed/speed.hip): the pass of up to four plane
// sides per launch, §5.1 to §5.7, into the accumulator block (docs/speed.md
// §11).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/gpu_compat.h"
#include "kernels/speed/speed_ops.h"

namespace vmafhip {

constexpr int SPEED_MAX_SIDES = 4;

/// The samples of one plane side: plane a converted (§2.1), minus plane b
/// converted where b is not null (speed_temporal's differences, §8 step 3).
/// Device planes of d.ow x d.oh samples, pitch d.ow, 8-bit or 16-bit words.
struct SpeedSideInput {
    const uint8_t *a;
    const uint8_t *b;
};

/// Device pointers into the extractor's constants (host-built, §5.1, §5.2).
struct SpeedTables {
    const float *taps_a; ///< d.wa anti-alias taps
    const float *taps_l; ///< d.wl low-pass taps
    const int *xi;       ///< resample: d.tx source columns per scaled column
    const float *xw;     ///< and their weights
    const int *yi;       ///< resample: d.ty source rows per scaled row
    const float *yw;     ///< and their weights
};

/// Device scratch memory speed_enqueue() needs for `sides` sides.
size_t speed_workspace_bytes(const SpeedDims &d, int sides);

/**
 * Enqueue the pass (§5.1 to §5.7) of sides[0 .. n-1] on stream: side s
 * writes its SpeedSideHead and variances (kernels/speed/speed_solve.h) at
 * d_accum + s * speed_side_floats(d) (device). bpc: the planes' bits per
 * sample. Does not synchronise.
 */
void speed_enqueue(hipStream_t stream, const SpeedDims &d, const SpeedTables &t,
                   const SpeedSideInput *sides, int n, int bpc, void *workspace, float *d_accum);

} // namespace vmafhip
