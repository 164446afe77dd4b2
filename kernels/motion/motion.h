// integer motion kernel: the exact SAD of the blurred difference of two luma
// planes (docs/motion.md §2, §7).
#pragma once

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"
#include "kernels/motion/motion_ops.h"

namespace vmafhip {

/// Enqueue Σ |z| of the blurred difference prev - cur (luma planes of
/// p.w x p.h samples, pitch p.w samples, 8 bits or 16-bit words by p.bpc) in
/// one launch; adds into d_accum->sad (device memory, zeroed by the caller).
void motion_enqueue(hipStream_t stream, const MotionParams &p, const GpuPlane &prev,
                    const GpuPlane &cur, MotionAccum *d_accum);

} // namespace vmafhip
