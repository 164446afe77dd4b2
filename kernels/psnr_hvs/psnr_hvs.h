// psnr_hvs kernels (docs/psnr_hvs.md §7): every block's error terms, then one
// sequential float32 sum per plane, as the CPU code adds them.
#pragma once

#include <cstddef>

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"
#include "kernels/psnr_hvs/psnr_hvs_ops.h"

namespace vmafhip {

/// Device scratch memory psnr_hvs_enqueue() needs for planes of w[p] x h[p]
/// samples (the frame's scored sizes: luma, Cb, Cr).
size_t psnr_hvs_workspace_bytes(const int w[3], const int h[3]);

/// Enqueue the three planes' error sums of frame f into *d_out (device).
/// weights: the three planes' psnr_hvs_weights() in device memory.
void psnr_hvs_enqueue(hipStream_t stream, const GpuFrame &f, const PsnrHvsWeights *weights,
                      void *workspace, PsnrHvsAccum *d_out);

} // namespace vmafhip
