// integer VIF kernels (kernels/vif/vif.hip): one launch per scale, exact sums.
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"
#include "kernels/vif/vif_ops.h"

namespace vmafhip {

/// Device scratch memory vif_enqueue() needs for p: the ref and dis
/// pictures of scales 1-3.
size_t vif_workspace_bytes(const VifParams &p);

/**
 * Enqueue integer VIF of the luma planes of f on stream; adds into *d_out
 * (device), which the caller zeroes. d_log2: the host-built table
 * T[32768 .. 65535] in device memory (docs/vif.md §5). Does not synchronise.
 */
void vif_enqueue(hipStream_t stream, const VifParams &p, const GpuFrame &f, const uint16_t *d_log2,
                 void *workspace, VifAccum *d_out);

} // namespace vmafhip
