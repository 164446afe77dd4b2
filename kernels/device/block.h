// Block-wide reductions: warp butterflies, then one warp over the partials.
// Every thread of the block must call them (no early return before).
#pragma once

#include "kernels/device/warp.h"

// Linear thread index within the block.
__device__ __forceinline__ int gpu_block_tid()
{
    return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
}

__device__ __forceinline__ int gpu_block_threads()
{
    return static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
}

// Sum over the block; the result is valid in thread 0 (others get a partial).
// Blocks of at most 1024 threads; any warp size.
template <typename T> __device__ T gpu_block_sum(T v)
{
    __shared__ T partial[1024 / 32];
    const int tid = gpu_block_tid();
    const int nwarps = (gpu_block_threads() + gpu_warp_size() - 1) / gpu_warp_size();
    v = gpu_warp_sum(v);
    if (gpu_lane_id(tid) == 0)
        partial[gpu_warp_id(tid)] = v;
    __syncthreads();
    if (gpu_warp_id(tid) == 0) {
        v = tid < nwarps ? partial[tid] : T(0);
        v = gpu_warp_sum(v);
    }
    __syncthreads(); // partial[] may be reused by a later call
    return v;
}

// Max over the block; valid in thread 0.
__device__ __forceinline__ unsigned gpu_block_max(unsigned v)
{
    __shared__ unsigned partial[1024 / 32];
    const int tid = gpu_block_tid();
    const int nwarps = (gpu_block_threads() + gpu_warp_size() - 1) / gpu_warp_size();
    v = gpu_warp_max(v);
    if (gpu_lane_id(tid) == 0)
        partial[gpu_warp_id(tid)] = v;
    __syncthreads();
    if (gpu_warp_id(tid) == 0) {
        v = tid < nwarps ? partial[tid] : 0u;
        v = gpu_warp_max(v);
    }
    __syncthreads();
    return v;
}
