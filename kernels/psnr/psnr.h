// psnr kernels: exact per-plane sums of squared differences.
#pragma once

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// Add the SSE of planes [0, planes) of f to d_sse[p] (zeroed by the caller).
void psnr_enqueue(hipStream_t stream, const GpuFrame &f, int planes, unsigned long long *d_sse);

} // namespace vmafhip
