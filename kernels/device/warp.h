// Warp (wavefront) helpers that work for 32- and 64-lane hardware alike.
// Nothing here assumes a warp size: gpu_warp_size() is the compiling
// target's, GPU_MAX_WARP_SIZE bounds arrays.
#pragma once

#include "kernels/gpu_compat.h"

// Upper bound of the warp size, for sizing shared arrays.
#define GPU_MAX_WARP_SIZE 64

// The warp size of the AMD target the device code is compiled for: 64
// (CDNA) or 32 (RDNA). clang before 17 states it as __AMDGCN_WAVEFRONT_SIZE,
// later clang deprecates that macro for the builtin. Neither: refuse to
// build rather than guess (a wrong width makes every warp sum count lanes
// twice or miss half of them).
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__CUDA_ARCH__)
#if defined(__has_builtin)
#if __has_builtin(__builtin_amdgcn_wavefrontsize)
#define GPU_AMD_WAVE_SIZE __builtin_amdgcn_wavefrontsize()
#endif
#endif
#if !defined(GPU_AMD_WAVE_SIZE) && defined(__AMDGCN_WAVEFRONT_SIZE)
#define GPU_AMD_WAVE_SIZE __AMDGCN_WAVEFRONT_SIZE
#endif
#if !defined(GPU_AMD_WAVE_SIZE)
#error "unknown wavefront size of this AMD target: neither __builtin_amdgcn_wavefrontsize nor __AMDGCN_WAVEFRONT_SIZE"
#endif
#endif

__device__ __forceinline__ int gpu_warp_size()
{
#if defined(__CUDA_ARCH__)
    return 32;
#elif defined(GPU_AMD_WAVE_SIZE)
    return GPU_AMD_WAVE_SIZE;
#else
    return GPU_MAX_WARP_SIZE; // host pass: device logic never runs there
#endif
}

// Full-warp exchange; CUDA needs the *_sync form (the plain one is gone on
// sm_70+), HIP 5.x has only the plain one (the whole wavefront takes part;
// the width is passed so that HIP's own warpSize default plays no part).
template <typename T> __device__ __forceinline__ T gpu_shfl_xor(T v, int mask)
{
#if defined(GPU_PLATFORM_NVIDIA)
    return __shfl_xor_sync(0xffffffffu, v, mask);
#else
    return __shfl_xor(v, mask, gpu_warp_size());
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

__device__ __forceinline__ int gpu_lane_id(int linear_tid) { return linear_tid & (gpu_warp_size() - 1); }
__device__ __forceinline__ int gpu_warp_id(int linear_tid) { return linear_tid / gpu_warp_size(); }

// Butterfly sum over the warp: every lane gets the total. Integer sums are
// exact in any order; for doubles the order is fixed by the lane pattern, so
// results repeat run to run on one platform.
__device__ __forceinline__ long long gpu_warp_sum(long long v)
{
#pragma unroll
    for (int off = gpu_warp_size() / 2; off > 0; off >>= 1)
        v += gpu_shfl_xor_i64(v, off);
    return v;
}

__device__ __forceinline__ double gpu_warp_sum(double v)
{
#pragma unroll
    for (int off = gpu_warp_size() / 2; off > 0; off >>= 1)
        v += gpu_shfl_xor_f64(v, off);
    return v;
}

__device__ __forceinline__ float gpu_warp_sum(float v)
{
#pragma unroll
    for (int off = gpu_warp_size() / 2; off > 0; off >>= 1)
        v += gpu_shfl_xor(v, off);
    return v;
}

__device__ __forceinline__ unsigned gpu_warp_max(unsigned v)
{
#pragma unroll
    for (int off = gpu_warp_size() / 2; off > 0; off >>= 1) {
        const unsigned o = gpu_shfl_xor(v, off);
        v = o > v ? o : v;
    }
    return v;
}
