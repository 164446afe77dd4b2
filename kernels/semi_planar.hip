#include "kernels/semi_planar.h"

#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;

// Grid-stride loops over a plane's samples; blockIdx.y: 0 reference, 1
// distorted. One thread per output sample (pair): no lane count assumed.
template <typename T>
__global__ void __launch_bounds__(kThreads)
    split_kernel(const uint8_t *ref_pairs, const uint8_t *dis_pairs, GpuFrame f, int shift)
{
    const T *in = reinterpret_cast<const T *>(blockIdx.y ? dis_pairs : ref_pairs);
    T *cb = const_cast<T *>(reinterpret_cast<const T *>(blockIdx.y ? f.dis[1].data : f.ref[1].data));
    T *cr = const_cast<T *>(reinterpret_cast<const T *>(blockIdx.y ? f.dis[2].data : f.ref[2].data));
    const long long n = static_cast<long long>(f.ref[1].w) * f.ref[1].h;
    for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * kThreads) {
        cb[i] = static_cast<T>(in[2 * i] >> shift);
        cr[i] = static_cast<T>(in[2 * i + 1] >> shift);
    }
}

__global__ void __launch_bounds__(kThreads) shift_kernel(GpuFrame f, int shift)
{
    uint16_t *p = const_cast<uint16_t *>(
        reinterpret_cast<const uint16_t *>(blockIdx.y ? f.dis[0].data : f.ref[0].data));
    const long long n = static_cast<long long>(f.ref[0].w) * f.ref[0].h;
    for (long long i = blockIdx.x * static_cast<long long>(kThreads) + threadIdx.x; i < n;
         i += static_cast<long long>(gridDim.x) * kThreads)
        p[i] = static_cast<uint16_t>(p[i] >> shift);
}

/// Eight samples a thread on the first pass, at most 4096 blocks.
unsigned blocks_for(long long n)
{
    return grid_stride_blocks(static_cast<size_t>(n), kThreads * 8, 4096);
}

} // namespace

void semi_planar_enqueue(hipStream_t stream, const GpuFrame &f, const uint8_t *const pairs[2],
                         int planes, int shift)
{
    if (shift) {
        const long long n = static_cast<long long>(f.ref[0].w) * f.ref[0].h;
        shift_kernel<<<dim3(blocks_for(n), 2), kThreads, 0, stream>>>(f, shift);
    }
    if (planes == 1)
        return;
    const long long n = static_cast<long long>(f.ref[1].w) * f.ref[1].h;
    if (n == 0)
        return;
    if (f.bpc > 8)
        split_kernel<uint16_t><<<dim3(blocks_for(n), 2), kThreads, 0, stream>>>(pairs[0], pairs[1], f, shift);
    else
        split_kernel<uint8_t><<<dim3(blocks_for(n), 2), kThreads, 0, stream>>>(pairs[0], pairs[1], f, 0);
}

} // namespace vmafhip
