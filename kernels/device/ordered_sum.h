// libvmaf's sequential sums, bit for bit, without adding one value at a time
// where that is not needed. Some metrics add every value of a frame into one
// accumulator in raster order (`acc += v`, a float or a double); rounding
// makes the result depend on that order. But an addition that is exact does
// not round: while every running sum and every value is a multiple of 2^m and
// below 2^(p + m) (p: the accumulator's precision, 24 or 53 bits), each sum is
// exact, and a run of such additions gives the exact total, whatever order
// computed it. So:
//   1. ordered_chunks_kernel: one block per chunk of ORDERED_CHUNK values
//      finds the lowest set bit 2^lb over the chunk's values and their total
//      (in any order), exact when every value is finite and >= 0 and the
//      total is below 2^(p + lb) (then every partial sum is exact too);
//   2. ordered_total_kernel: one block walks the chunks in order with the
//      running sum s: an exact chunk whose total T keeps s + T below
//      2^(p + m), m the lower of lb and s's lowest set bit, is added at
//      once (exact, so equal to adding its values one by one); any other
//      chunk is added value by value, in order, by one thread, as the CPU
//      does.
// Values in ascending order of their chunk, as the CPU adds them. Any
// input gives the CPU's result (negative values, NaNs and infinities take
// the value-by-value path); only the speed depends on the values.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/device/block.h"

namespace vmafhip {

constexpr int ORDERED_CHUNK = 1024;  ///< values per chunk
constexpr int ORDERED_THREADS = 256; ///< threads of both kernels

/// What ordered_chunks_kernel finds of one chunk.
template <typename Acc> struct OrderedChunk {
    Acc total;  ///< exact when `exact`
    int lowbit; ///< exponent of the lowest set bit of the chunk's non-zero values
    int exact;  ///< every value finite and >= 0, and total < 2^(p + lowbit)
};

/// Number of chunks of n values.
__host__ __device__ inline size_t ordered_chunks(size_t n) { return (n + ORDERED_CHUNK - 1) / ORDERED_CHUNK; }

/// Exponent of the lowest set bit of a non-zero finite float or double.
__device__ __forceinline__ int ordered_lowbit(float v)
{
    const uint32_t b = __float_as_uint(v) & 0x7fffffffu;
    const int e = static_cast<int>(b >> 23);
    const uint32_t mant = (b & 0x7fffffu) | (e ? 0x800000u : 0u);
    return (e ? e : 1) - 150 + __ffs(static_cast<int>(mant)) - 1;
}

__device__ __forceinline__ int ordered_lowbit(double v)
{
    const uint64_t b = static_cast<uint64_t>(__double_as_longlong(v)) & 0x7fffffffffffffffull;
    const int e = static_cast<int>(b >> 52);
    const uint64_t mant = (b & 0xfffffffffffffull) | (e ? 0x10000000000000ull : 0ull);
    return (e ? e : 1) - 1075 + __ffsll(static_cast<long long>(mant)) - 1;
}

/// Exponent e of v's leading bit (2^e <= v < 2^(e+1)), v > 0 finite.
__device__ __forceinline__ int ordered_exponent(double v) { return ilogb(v); }
__device__ __forceinline__ int ordered_exponent(float v) { return ilogbf(v); }

/// Significand bits of the accumulator: 24 (float) or 53 (double).
template <typename Acc> __device__ __forceinline__ constexpr int ordered_precision()
{
    return sizeof(Acc) == 4 ? 24 : 53;
}

/// Whether a sum s (>= 0) is below 2^k.
template <typename Acc> __device__ __forceinline__ bool ordered_below(Acc s, int k)
{
    return s == Acc(0) || ordered_exponent(s) < k;
}

template <typename Acc>
__global__ void __launch_bounds__(ORDERED_THREADS)
    ordered_chunks_kernel(const float *v, size_t n, OrderedChunk<Acc> *chunks)
{
    const size_t first = static_cast<size_t>(blockIdx.x) * ORDERED_CHUNK;
    const size_t end = first + ORDERED_CHUNK < n ? first + ORDERED_CHUNK : n;
    Acc total = Acc(0);
    unsigned bad = 0;
    unsigned low = 0; // 4096 - lowest bit exponent (block max = lowest bit)
    for (size_t i = first + threadIdx.x; i < end; i += ORDERED_THREADS) {
        const float x = v[i];
        if (!(x >= 0.0f) || isinf(x)) {
            bad = 1;
        } else if (x != 0.0f) {
            const unsigned l = static_cast<unsigned>(4096 - ordered_lowbit(x));
            low = l > low ? l : low;
        }
        total += static_cast<Acc>(x);
    }
    total = gpu_block_sum(total);
    bad = gpu_block_max(bad);
    low = gpu_block_max(low);
    if (threadIdx.x == 0) {
        const int lowbit = low ? 4096 - static_cast<int>(low) : 4096; // all zero: no bit
        chunks[blockIdx.x] = OrderedChunk<Acc>{
            total, lowbit,
            !bad && (low == 0 || ordered_below(total, ordered_precision<Acc>() + lowbit))};
    }
}

template <typename Acc>
__global__ void __launch_bounds__(ORDERED_THREADS)
    ordered_total_kernel(const float *v, size_t n, const OrderedChunk<Acc> *chunks, Acc *out)
{
    __shared__ float s_v[ORDERED_CHUNK];
    __shared__ OrderedChunk<Acc> s_chunk[ORDERED_THREADS];
    __shared__ int s_slow;
    Acc s = Acc(0); // thread 0's running sum
    const size_t nchunks = ordered_chunks(n);
    for (size_t batch = 0; batch < nchunks; batch += ORDERED_THREADS) {
        // The records of the next chunks, read at once (thread 0 would wait
        // for each in turn).
        if (batch + threadIdx.x < nchunks)
            s_chunk[threadIdx.x] = chunks[batch + threadIdx.x];
        __syncthreads();
        const size_t batch_end = batch + ORDERED_THREADS < nchunks ? batch + ORDERED_THREADS : nchunks;
        for (size_t c = batch; c < batch_end; c++) {
            if (threadIdx.x == 0) {
                const OrderedChunk<Acc> k = s_chunk[c - batch];
                int slow = 1;
                if (k.exact) {
                    const int m = s == Acc(0) ? k.lowbit
                                  : k.lowbit < ordered_lowbit(s) ? k.lowbit : ordered_lowbit(s);
                    const Acc t = s + k.total;
                    if (ordered_below(t, ordered_precision<Acc>() + m)) {
                        s = t;
                        slow = 0;
                    }
                }
                s_slow = slow;
            }
            __syncthreads();
            if (s_slow) {
                const size_t first = c * ORDERED_CHUNK;
                const int len = static_cast<int>(first + ORDERED_CHUNK < n ? ORDERED_CHUNK : n - first);
                for (int i = static_cast<int>(threadIdx.x); i < len; i += ORDERED_THREADS)
                    s_v[i] = v[first + static_cast<size_t>(i)];
                __syncthreads();
                if (threadIdx.x == 0)
                    for (int i = 0; i < len; i++)
                        s += static_cast<Acc>(s_v[i]);
            }
            __syncthreads();
        }
    }
    if (threadIdx.x == 0)
        *out = s;
}

/// Enqueue the sequential sum of v[0..n) into *out (device); chunks holds
/// ordered_chunks(n) records (device).
template <typename Acc>
void ordered_sum_enqueue(hipStream_t stream, const float *v, size_t n, OrderedChunk<Acc> *chunks,
                         Acc *out)
{
    const size_t nchunks = ordered_chunks(n);
    if (nchunks)
        ordered_chunks_kernel<Acc><<<static_cast<unsigned>(nchunks), ORDERED_THREADS, 0, stream>>>(
            v, n, chunks);
    ordered_total_kernel<Acc><<<1, ORDERED_THREADS, 0, stream>>>(v, n, chunks, out);
}

} // namespace vmafhip
