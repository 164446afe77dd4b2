// integer ADM kernels: DWT, decouple, CSF, contrast masking, exact sums.
#pragma once

#include <cstddef>

#include "kernels/adm/adm_ops.h"
#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// Device scratch memory adm_enqueue() needs for this context.
size_t adm_workspace_bytes(const AdmParams &p);

/// Enqueue integer ADM of the luma planes of f; adds into *d_out (device),
/// which the caller zeroes.
void adm_enqueue(hipStream_t stream, const AdmParams &p, const GpuFrame &f, void *workspace,
                 AdmAccum *d_out);

} // namespace vmafhip
