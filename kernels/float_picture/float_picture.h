// float_psnr, float_moment and float_ansnr kernels: the luma planes as
// libvmaf's picture_copy makes them (docs/float_psnr.md §1), then each
// extractor's sums in libvmaf's order (§2-§4).
#pragma once

#include <cstddef>

#include "kernels/float_picture/float_picture_ops.h"
#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// Device scratch memory float_psnr_enqueue() needs for a w x h luma plane.
size_t float_psnr_workspace_bytes(int w, int h);

/// Enqueue float_psnr of the staged luma planes of f; writes *d_out.
void float_psnr_enqueue(hipStream_t stream, const GpuFrame &f, void *workspace,
                        FloatPsnrAccum *d_out);

/// Device scratch memory float_moment_enqueue() needs for a w x h luma plane.
size_t float_moment_workspace_bytes(int w, int h);

/// Enqueue float_moment of the staged luma planes of f; writes *d_out.
void float_moment_enqueue(hipStream_t stream, const GpuFrame &f, void *workspace,
                          FloatMomentAccum *d_out);

/// Device scratch memory float_ansnr_enqueue() needs for a w x h luma plane.
size_t float_ansnr_workspace_bytes(int w, int h);

/// Enqueue float_ansnr of the staged luma planes of f (at least 3x3), with
/// the taps of ansnr_taps() in device memory; writes *d_out.
void float_ansnr_enqueue(hipStream_t stream, const GpuFrame &f, const AnsnrTaps *d_taps,
                         void *workspace, FloatAnsnrAccum *d_out);

} // namespace vmafhip
