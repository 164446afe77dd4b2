// float_vif kernels (kernels/float_vif/float_vif.hip): one frame's four
// scales, docs/float_vif.md §2 to §4 and §7, into the accumulator block.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/float_vif/float_vif_ops.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// The sizes of one frame's pass, host-built from the extractor's plan.
struct FvifDims {
    int32_t w, h;       ///< luma size (the staged planes, pitch w)
    int32_t sw, sh;     ///< prescaled size: scale 0 (§2)
    int32_t resample;   ///< the sizes differ: the prescale runs (§2)
    int32_t normalise;  ///< lanczos4: divide by the sum of the weights
    int32_t tx, ty;     ///< resample: taps per scaled column and row
    int32_t fw[FLOAT_VIF_SCALES]; ///< Gaussian filter widths (§3.1)
    int32_t skip_scale0; ///< vif_skip_scale0: scale 0's sums are not computed (§5)
};

/// Device pointers into the extractor's constants (host-built, §2, §3.1).
struct FvifTables {
    const float *taps[FLOAT_VIF_SCALES]; ///< fw[s] taps of each scale
    const int *xi;   ///< resample: tx source columns per scaled column
    const float *xw; ///< and their weights
    const int *yi;   ///< resample: ty source rows per scaled row
    const float *yw; ///< and their weights
};

/// Device scratch memory float_vif_enqueue() needs.
size_t float_vif_workspace_bytes(const FvifDims &d);

/**
 * Enqueue float_vif of the luma planes ref and dis (device, d.w x d.h
 * samples, 8-bit or 16-bit words by bpc) on stream: writes the sums of
 * every scale computed into *d_accum (zeroed by the caller). Does not
 * synchronise.
 */
void float_vif_enqueue(hipStream_t stream, const FvifDims &d, const FvifTables &t,
                       const FvifStat &stat, const uint8_t *ref, const uint8_t *dis, int bpc,
                       void *workspace, FloatVifAccum *d_accum);

} // namespace vmafhip
