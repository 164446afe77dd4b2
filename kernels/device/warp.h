// Warp (wavefront) helpers that work for 32- and 64-lane hardware alike.
// Nothing here assumes a warp size: GPU_WARP_SIZE is the compiling
// target's, GPU_MAX_WARP_SIZE bounds arrays.
#pragma once

#include "kernels/gpu_compat.h"

// Upper bound of the warp size, for sizing shared arrays.
#define GPU_MAX_WARP_SIZE 64

#if defined(__CUDA_ARCH__)
#define GPU_WARP_SIZE 32
#elif defined(__AMDGCN_WAVEFRONT_SIZE)
#define GPU_WARP_SIZE __AMDGCN_WAVEFRONT_SIZE // 64 on CDNA (gfx9), 32 on RDNA
#else
#define GPU_WARP_SIZE 64 // host pass of HIP: never used for device logic
#endif // warp size

// Full-warp exchange; CUDA needs the *_sync form (the plain one is gone on
// sm_70+), HIP 5.x has only the plain one (the whole wavefront takes part).
template <typename T> __device__ __forceinline__ T gpu_shfl_xor(T v, int mask)
{
#if defined(GPU_PLATFORM_NVIDIA)
    return __shfl_xor_sync(0xffffffffu, v, mask);
#else
    return __shfl_xor(v, mask);
#endif // defined(GPU_PLATFORM_NVIDIA)
}

// 64-bit integers through two 32-bit shuffles (HIP 5.2 has no 64-bit integer
// overloads on every target).
__device__ __forceinline__ long long gpu_shfl_xor_i64(long long v, int mask)
{
    const unsigned lo = gpu_shfl_xor(static_cast<unsigned>(static_cast<unsigned long long>(v)), mask);
    const unsigned hi = gpu_shfl_xor(static_cast<unsigned>(static_cast<unsigned long long>(v) >> 32), mask);
    return static_cast<long long>((static_cast<unsigned long long>(hi) << 32) | lo);
}

__device__ __forceinline__ double gpu_shfl_xor_f64(double v, int mask)
{
    return gpu_shfl_xor(v, mask);
}

__device__ __forceinline__ int gpu_lane_id(int linear_tid) { return linear_tid & (GPU_WARP_SIZE - 1); }
__device__ __forceinline__ int gpu_warp_id(int linear_tid) { return linear_tid / GPU_WARP_SIZE; }

// Butterfly sum over the warp: every lane gets the total. Integer sums are
// exact in any order; for doubles the order is fixed by the lane pattern, so
// results repeat run to run on one platform.
__device__ __forceinline__ long long gpu_warp_sum(long long v)
{
#pragma unroll
    for (int off = GPU_WARP_SIZE / 2; off > 0; off >>= 1)
        v += gpu_shfl_xor_i64(v, off);
    return v;
}

__device__ __forceinline__ double gpu_warp_sum(double v)
{
#pragma unroll
    for (int off = GPU_WARP_SIZE / 2; off > 0; off >>= 1)
        v += gpu_shfl_xor_f64(v, off);
    return v;
}

__device__ __forceinline__ unsigned gpu_warp_max(unsigned v)
{
#pragma unroll
    for (int off = GPU_WARP_SIZE / 2; off > 0; off >>= 1) {
        const unsigned o = gpu_shfl_xor(v, off);
        v = o > v ? o : v;
    }
    return v;
}
