// libvmaf's sequential sums, bit for bit, without adding one value at a time
// where that is not needed. Some metrics add every value of a frame into one
// accumulator in raster order (`acc += v`, a float or a double); rounding
// makes the result depend on that order. Two facts let runs of values be
// added at once with the sequential result:
//   exact runs    while every running sum and value is a multiple of 2^m and
//                 the sums stay below 2^(p + m) (p: the accumulator's
//                 precision, 24 or 53 bits), no addition rounds, and the run
//                 gives the exact total, whatever order computed it;
//   binade runs   while the running sum s stays in one binade [2^e, 2^(e+1)),
//                 its unit is u = 2^(e - p + 1) and s + v (v >= 0) rounds to
//                 s + u * rn(v / u): the rounding of v alone, unless v / u is
//                 exactly halfway between two integers (ties go to the even
//                 result, which depends on s). So a run that stays in the
//                 binade adds u * the sum of the values' rounded units.
// The kernels, per sum of n values (chunks of ORDERED_CHUNK, in order):
//   1. ordered_chunks_kernel: per chunk, the lowest set bit of its values and
//      their total (exact when every value is finite, >= 0 and the total is
//      below 2^(p + lowbit)), and the total in double, in any order;
//   2. ordered_starts_kernel: one block; where the running sum about stands at
//      each chunk (the double totals before it), hence its likely binade;
//   3. ordered_units_kernel: per chunk, the rounded units of its values for
//      the likely binade and the two beside it, with whether any value
//      rules a binade run out (negative, not finite, a tie, or too large);
//   4. ordered_total_kernel: one block walks the chunks in order with the true
//      running sum, adding a chunk at once as an exact run or a binade run
//      when the sum at its start allows one, else value by value, in order,
//      by one thread, as the CPU does.
// Any input gives the CPU's result (negative values, NaNs and infinities
// take the value-by-value path); only the speed depends on the values.
#pragma once

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/device/block.h"

namespace vmafhip {

constexpr int ORDERED_CHUNK = 1024;  ///< values per chunk
constexpr int ORDERED_THREADS = 256; ///< threads of every kernel
constexpr int ORDERED_BINADES = 3;   ///< binades tried per chunk: the likely one and its neighbours

/// What the kernels find of one chunk.
template <typename Acc> struct OrderedChunk {
    Acc total;     ///< exact when `exact`
    int lowbit;    ///< exponent of the lowest set bit of the chunk's non-zero values
    int exact;     ///< every value finite and >= 0, and total < 2^(p + lowbit)
    double approx; ///< the total in double (any order): where the running sum goes
    int e0;        ///< the likely binade's exponent at the chunk's start, minus 1 (INT_MIN: none)
    unsigned ok;   ///< bit k: a binade run is possible in binade e0 + k
    long long units[ORDERED_BINADES]; ///< the values' rounded units in binade e0 + k
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

/// Significand bits of the accumulator: 24 (float) or 53 (double).
template <typename Acc> __device__ __forceinline__ constexpr int ordered_precision()
{
    return sizeof(Acc) == 4 ? 24 : 53;
}

/// Exponent of the smallest normal accumulator value.
template <typename Acc> __device__ __forceinline__ constexpr int ordered_min_exponent()
{
    return sizeof(Acc) == 4 ? -126 : -1022;
}

/// Whether a sum s (>= 0, finite) is below 2^k.
__device__ __forceinline__ bool ordered_below(double s, int k)
{
    return s == 0.0 || ilogb(s) < k;
}

template <typename Acc>
__global__ void __launch_bounds__(ORDERED_THREADS)
    ordered_chunks_kernel(const float *v, size_t n, OrderedChunk<Acc> *chunks)
{
    const size_t first = static_cast<size_t>(blockIdx.x) * ORDERED_CHUNK;
    const size_t end = first + ORDERED_CHUNK < n ? first + ORDERED_CHUNK : n;
    Acc total = Acc(0);
    double approx = 0.0;
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
        approx += static_cast<double>(x);
    }
    total = gpu_block_sum(total);
    approx = gpu_block_sum(approx);
    bad = gpu_block_max(bad);
    low = gpu_block_max(low);
    if (threadIdx.x == 0) {
        OrderedChunk<Acc> &c = chunks[blockIdx.x];
        c.total = total;
        c.lowbit = low ? 4096 - static_cast<int>(low) : 4096; // all zero: no bit
        c.exact = !bad && (low == 0 || ordered_below(static_cast<double>(total),
                                                     ordered_precision<Acc>() + c.lowbit));
        c.approx = approx;
    }
}

// One block: each thread adds the approximate totals of a run of chunks, the
// runs' sums are added in order, and each thread then writes the likely
// binade of each of its chunks' starts.
template <typename Acc>
__global__ void __launch_bounds__(ORDERED_THREADS)
    ordered_starts_kernel(size_t nchunks, OrderedChunk<Acc> *chunks)
{
    __shared__ double s_run[ORDERED_THREADS];
    const size_t per = (nchunks + ORDERED_THREADS - 1) / ORDERED_THREADS;
    const size_t first = threadIdx.x * per;
    const size_t end = first + per < nchunks ? first + per : nchunks;
    double run = 0.0;
    for (size_t c = first; c < end; c++)
        run += chunks[c].approx;
    s_run[threadIdx.x] = run;
    __syncthreads();
    if (threadIdx.x == 0) {
        double before = 0.0;
        for (int t = 0; t < ORDERED_THREADS; t++) {
            const double r = s_run[t];
            s_run[t] = before;
            before += r;
        }
    }
    __syncthreads();
    double start = s_run[threadIdx.x];
    for (size_t c = first; c < end; c++) {
        const Acc s = static_cast<Acc>(start);
        chunks[c].e0 = s > Acc(0) && isfinite(s) ? ilogb(static_cast<double>(s)) - 1 : INT_MIN;
        start += chunks[c].approx;
    }
}

template <typename Acc>
__global__ void __launch_bounds__(ORDERED_THREADS)
    ordered_units_kernel(const float *v, size_t n, OrderedChunk<Acc> *chunks)
{
    OrderedChunk<Acc> &c = chunks[blockIdx.x];
    const int e0 = c.e0;
    if (e0 == INT_MIN) { // uniform across the block: no barrier is skipped by part of it
        if (threadIdx.x == 0)
            c.ok = 0;
        return;
    }
    const size_t first = static_cast<size_t>(blockIdx.x) * ORDERED_CHUNK;
    const size_t end = first + ORDERED_CHUNK < n ? first + ORDERED_CHUNK : n;
    // Values up to 2^(e + 1 - slack): the units of a chunk then fit an int64.
    const int slack = sizeof(Acc) == 8 ? 11 : 0;
    long long units[ORDERED_BINADES] = {};
    unsigned bad = 0; // bit k: binade e0 + k ruled out
    for (size_t i = first + threadIdx.x; i < end; i += ORDERED_THREADS) {
        const double x = static_cast<double>(v[i]);
        for (int k = 0; k < ORDERED_BINADES; k++) {
            const int e = e0 + k;
            if (!(x >= 0.0) || !(x < ldexp(1.0, e + 1 - slack))) {
                bad |= 1u << k;
                continue;
            }
            const double q = ldexp(x, ordered_precision<Acc>() - 1 - e); // x / u, exact
            const double f = floor(q);
            if (q - f == 0.5)
                bad |= 1u << k; // a tie: its rounding depends on the sum
            units[k] += static_cast<long long>(rint(q));
        }
    }
    unsigned ok = 0;
    for (int k = 0; k < ORDERED_BINADES; k++) {
        units[k] = gpu_block_sum(units[k]);
        // a bit of any thread rules binade k out (a maximum of the masks would not)
        ok |= gpu_block_max((bad >> k) & 1u) ? 0u : 1u << k;
    }
    if (threadIdx.x == 0) {
        for (int k = 0; k < ORDERED_BINADES; k++)
            c.units[k] = units[k];
        c.ok = ok;
    }
}

/// Thread 0 of ordered_total_kernel: s plus chunk k at once, when an exact
/// run or a binade run allows it. @return whether it did.
template <typename Acc> __device__ bool ordered_add_run(const OrderedChunk<Acc> &k, Acc *s)
{
    const int p = ordered_precision<Acc>();
    const Acc s0 = *s;
    if (k.exact) {
        const int m = s0 == Acc(0) ? k.lowbit
                      : k.lowbit < ordered_lowbit(s0) ? k.lowbit : ordered_lowbit(s0);
        const Acc t = s0 + k.total;
        if (ordered_below(static_cast<double>(t), p + m)) {
            *s = t;
            return true;
        }
    }
    if (s0 > Acc(0) && ilogb(static_cast<double>(s0)) >= ordered_min_exponent<Acc>()) {
        const int e = ilogb(static_cast<double>(s0));
        const int b = e - k.e0;
        if (k.e0 != INT_MIN && b >= 0 && b < ORDERED_BINADES && ((k.ok >> b) & 1u)) {
            // s0 and the units are multiples of u: below 2^(e + 1) the sum is exact.
            const double t = static_cast<double>(s0) + ldexp(static_cast<double>(k.units[b]), e - p + 1);
            if (ordered_below(t, e + 1)) {
                *s = static_cast<Acc>(t);
                return true;
            }
        }
    }
    return false;
}

template <typename Acc, typename Out>
__global__ void __launch_bounds__(ORDERED_THREADS)
    ordered_total_kernel(const float *v, size_t n, const OrderedChunk<Acc> *chunks, Out *out)
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
            if (threadIdx.x == 0)
                s_slow = !ordered_add_run(s_chunk[c - batch], &s);
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
        *out = static_cast<Out>(s);
}

/// Enqueue the sequential sum, in Acc, of v[0..n) into *out (device);
/// chunks holds ordered_chunks(n) records (device).
template <typename Acc, typename Out>
void ordered_sum_enqueue(hipStream_t stream, const float *v, size_t n, OrderedChunk<Acc> *chunks,
                         Out *out)
{
    const size_t nchunks = ordered_chunks(n);
    if (nchunks) {
        const unsigned grid = static_cast<unsigned>(nchunks);
        ordered_chunks_kernel<Acc><<<grid, ORDERED_THREADS, 0, stream>>>(v, n, chunks);
        ordered_starts_kernel<Acc><<<1, ORDERED_THREADS, 0, stream>>>(nchunks, chunks);
        ordered_units_kernel<Acc><<<grid, ORDERED_THREADS, 0, stream>>>(v, n, chunks);
    }
    ordered_total_kernel<Acc, Out><<<1, ORDERED_THREADS, 0, stream>>>(v, n, chunks, out);
}

} // namespace vmafhip
