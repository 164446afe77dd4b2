// 64-bit atomics both platforms overload: only the unsigned long long forms
// exist everywhere, so signed values go through two's complement.
#pragma once

#include "kernels/gpu_compat.h"

__device__ __forceinline__ void gpu_atomic_add_i64(long long *p, long long v)
{
    atomicAdd(reinterpret_cast<unsigned long long *>(p), static_cast<unsigned long long>(v));
}

__device__ __forceinline__ void gpu_atomic_add_u64(unsigned long long *p, unsigned long long v)
{
    atomicAdd(p, v);
}
