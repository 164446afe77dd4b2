// float_ssim kernels: downscale, separable Gaussian, per-pixel SSIM, sums;
// the map sums alone for float_ms_ssim's scales.
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

/// Device scratch memory of the two calls below for a w x h pair.
size_t ssim_map_workspace_bytes(int w, int h);

/// float_ssim's map sums (docs/ssim.md §5, §6) of a w x h pair of staged
/// planes of bpc bits, normalised on read, into *d_out (always written).
void ssim_map_sums_enqueue(hipStream_t stream, const GpuPlane &ref, const GpuPlane &dis, int bpc,
                           void *workspace, SsimAccum *d_out);

/// The same for a pair of dense w x h float planes on the 8-bit scale.
void ssim_map_sums_float_enqueue(hipStream_t stream, const float *ref, const float *dis, int w,
                                 int h, void *workspace, SsimAccum *d_out);

} // namespace vmafhip
