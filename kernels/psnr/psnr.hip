// psnr: sum of squared differences per plane (docs/psnr.md §4.1, §9).
// Integer sums are associative, so any reduction order gives libvmaf's exact
// value: 64-bit per-thread partials, a block reduction, one atomic per block.
#include "kernels/psnr/psnr.h"
#include "kernels/psnr/psnr_ops.h"

#include "kernels/device/atomic.h"
#include "kernels/device/block.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;

// Squared differences of the samples packed in two 16-byte vectors.
template <typename T> __device__ __forceinline__ long long sse16(uint4 a, uint4 b)
{
    const T *x = reinterpret_cast<const T *>(&a);
    const T *y = reinterpret_cast<const T *>(&b);
    long long acc = 0;
#pragma unroll
    for (int k = 0; k < static_cast<int>(16 / sizeof(T)); k++)
        acc += psnr_sq_diff(x[k], y[k]);
    return acc;
}

// The plane is read as one flat array (rows are packed), in 16-byte vectors
// (the staged planes are 256-byte aligned) with a grid stride, then the
// remaining samples one by one. blockIdx.y selects the plane.
template <typename T>
__global__ void __launch_bounds__(kThreads) sse_kernel(GpuFrame f, unsigned long long *sse)
{
    const int p = blockIdx.y;
    const long long n = static_cast<long long>(f.ref[p].w) * f.ref[p].h;
    const long long vectors = n * static_cast<long long>(sizeof(T)) / 16;
    const long long stride = static_cast<long long>(gridDim.x) * kThreads;
    const long long first = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x;
    const uint4 *rv = reinterpret_cast<const uint4 *>(f.ref[p].data);
    const uint4 *dv = reinterpret_cast<const uint4 *>(f.dis[p].data);
    long long acc = 0;
    for (long long i = first; i < vectors; i += stride)
        acc += sse16<T>(rv[i], dv[i]);
    const T *ref = reinterpret_cast<const T *>(f.ref[p].data);
    const T *dis = reinterpret_cast<const T *>(f.dis[p].data);
    for (long long i = vectors * static_cast<long long>(16 / sizeof(T)) + first; i < n; i += stride)
        acc += psnr_sq_diff(ref[i], dis[i]);
    acc = gpu_block_sum(acc);
    if (threadIdx.x == 0 && acc)
        gpu_atomic_add_u64(&sse[p], static_cast<unsigned long long>(acc));
}

} // namespace

void psnr_enqueue(hipStream_t stream, const GpuFrame &f, int planes, unsigned long long *d_sse)
{
    const long long n = static_cast<long long>(f.ref[0].w) * f.ref[0].h;
    // Enough blocks to fill the GPU, each thread summing a few vectors.
    long long blocks = (n + kThreads * 32 - 1) / (kThreads * 32);
    blocks = blocks < 1 ? 1 : blocks > 4096 ? 4096 : blocks;
    const dim3 grid(static_cast<unsigned>(blocks), static_cast<unsigned>(planes));
    if (f.bpc > 8)
        sse_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(f, d_sse);
    else
        sse_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(f, d_sse);
}

} // namespace vmafhip
