// float_ssim kernels: downscale, separable Gaussian, per-pixel SSIM, sums.
#pragma once

#include <cstddef>

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

/// Device scratch memory ssim_enqueue() needs for this context.
size_t ssim_workspace_bytes(const SsimParams &p);

/// Enqueue float_ssim of the luma planes of f; writes *d_out (device).
void ssim_enqueue(hipStream_t stream, const SsimParams &p, const GpuFrame &f, void *workspace,
                  SsimAccum *d_out);

} // namespace vmafhip
