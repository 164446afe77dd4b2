// ciede kernels: the per-pixel CIEDE2000 differences and their sum in
// libvmaf's order.
#pragma once

#include <cstddef>

#include "kernels/ciede/ciede_ops.h"
#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// Device scratch memory ciede_enqueue() needs for a w x h frame.
size_t ciede_workspace_bytes(int w, int h);

/// Enqueue ciede of the staged planes of f (4:2:0 with even sizes, or
/// 4:4:4; ss = 1 or 0, the chroma subsampling of both axes; powf_kind as
/// host_powf_kind() says); writes *d_out.
void ciede_enqueue(hipStream_t stream, const GpuFrame &f, int ss, int powf_kind, void *workspace,
                   CiedeAccum *d_out);

} // namespace vmafhip
