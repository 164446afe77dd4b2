// float_motion kernels: the score of a frame (docs/float_motion.md §2, §3)
// from the previous and the current reference luma.
#pragma once

#include <cstddef>

#include "kernels/float_motion/float_motion_ops.h"
#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// The sizes of a frame's pass, host-built.
struct FmotionDims {
    int w, h;       ///< luma size
    int fw;         ///< blur taps (§2): 3 or 5
    int add_scale1; ///< §3.2 runs: the sw x sh half-size pictures
    int sw, sh;     ///< half size (§3.2)
    int tx, ty;     ///< resample: taps per half-size column and row (2, bilinear)
    int normalise;  ///< resample: divide by the weights' sum (0 for bilinear)
    int own_pitch, buffer_pitch; ///< §3.4: libvmaf's pitches of this plane and of luma
};

/// Device pointers into the extractor's constants (host-built).
struct FmotionTables {
    const float *taps; ///< fw blur taps
    const int *xi;     ///< add_scale1: tx source columns per half-size column
    const float *xw;   ///< and their weights
    const int *yi;     ///< add_scale1: ty source rows per half-size row
    const float *yw;   ///< and their weights
};

/// Device scratch memory fmotion_enqueue() needs.
size_t fmotion_workspace_bytes(const FmotionDims &d);

/// Enqueue the score (§3) of the planes prev and cur (d.w x d.h samples,
/// pitch d.w, 8-bit or 16-bit words by bpc) on stream; writes *d_score
/// (device). Does not synchronise.
void fmotion_enqueue(hipStream_t stream, const FmotionDims &d, const FmotionTables &t,
                     const GpuPlane &prev, const GpuPlane &cur, int bpc, void *workspace,
                     double *d_score);

} // namespace vmafhip
