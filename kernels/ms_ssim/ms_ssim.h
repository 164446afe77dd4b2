// float_ms_ssim kernels: the 9x9 decimation of the scales, float_ssim's map
// sums at each.
#pragma once

#include <cstddef>

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"
#include "kernels/ms_ssim/ms_ssim_ops.h"

namespace vmafhip {

/// Device scratch memory ms_ssim_enqueue() needs for scales of sizes sz.
size_t ms_ssim_workspace_bytes(const MsSsimSizes &sz);

/// Enqueue float_ms_ssim's sums of the luma planes of f; writes *d_out (device).
void ms_ssim_enqueue(hipStream_t stream, const MsSsimSizes &sz, const GpuFrame &f,
                     void *workspace, MsSsimAccum *d_out);

} // namespace vmafhip
