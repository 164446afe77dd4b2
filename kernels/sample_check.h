// Largest sample of every staged plane, for the bit-depth range check.
#pragma once

#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// Fold the largest 16-bit sample of planes [0, f.planes) of both pictures
/// into *d_max (zeroed by the caller).
void sample_max_enqueue(hipStream_t stream, const GpuFrame &f, unsigned *d_max);

/// hipSuccess when this binary has device code for the current device
/// (checked once at open, to name the missing architecture).
hipError_t gpu_probe_kernels();

} // namespace vmafhip
