// Largest sample of the staged planes: frames with values above 2^bpc - 1
// are rejected rather than scored (a 10-bit ADM on 16-bit garbage overflows).
#include "kernels/sample_check.h"

#include "kernels/device/block.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;

// blockIdx.y: plane, blockIdx.z: 0 reference, 1 distorted.
__global__ void __launch_bounds__(kThreads) max_kernel(GpuFrame f, unsigned *out)
{
    const GpuPlane &pl = blockIdx.z ? f.dis[blockIdx.y] : f.ref[blockIdx.y];
    const uint16_t *s = reinterpret_cast<const uint16_t *>(pl.data);
    const long long n = static_cast<long long>(pl.w) * pl.h;
    unsigned m = 0;
    for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * kThreads)
        m = s[i] > m ? s[i] : m;
    m = gpu_block_max(m);
    if (threadIdx.x == 0 && m)
        atomicMax(out, m);
}

} // namespace

void sample_max_enqueue(hipStream_t stream, const GpuFrame &f, unsigned *d_max)
{
    const long long n = static_cast<long long>(f.ref[0].w) * f.ref[0].h;
    long long blocks = (n + kThreads * 16 - 1) / (kThreads * 16);
    blocks = blocks < 1 ? 1 : blocks > 2048 ? 2048 : blocks;
    max_kernel<<<dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(f.planes), 2), kThreads, 0,
                 stream>>>(f, d_max);
}

hipError_t gpu_probe_kernels()
{
    hipFuncAttributes attr;
    return hipFuncGetAttributes(&attr, reinterpret_cast<const void *>(&max_kernel));
}

} // namespace vmafhip
