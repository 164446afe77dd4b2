// VMAFHIP_HD marks per-element arithmetic shared by the CPU reference and
// the GPU kernels: one definition, compiled by the host compiler and by the
// device compiler, so both backends compute the same integers by construction.
#pragma once

#if defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
// __host__/__device__ come from the runtime headers, which a shared header
// may otherwise see only after its own definitions.
#include "kernels/gpu_compat.h"
#define VMAFHIP_HD __host__ __device__ __forceinline__
#else
#define VMAFHIP_HD inline
#endif // defined(__CUDACC__) || defined(__HIPCC__) || defined(__HIP__)
