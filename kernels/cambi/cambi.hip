// CAMBI kernels (docs/cambi.md; § numbers are its sections). Every value
// goes through kernels/cambi/cambi_ops.h, the arithmetic of the CPU code
// (extractors/cambi/cambi_cpu.cpp), so each plane, mask and c-value equals
// the CPU's; the pooling is exact or runs the CPU's own selection (§9, §14).
//
// Per picture pass (the distorted picture; with full_ref the reference
// after it), on one stream:
//   prep_kernel            §4.2 resize (host index vectors) and depth map
//   anti_dither_kernel     §4.3, from the unfiltered plane (second buffer)
//   mask_kernel            §5, zero-derivative flags and their 7x7 sums in
//                          shared memory, one 16x16 tile per block
//   per scale 0..4 (§3):
//     mode_kernel          §6 decimation (a sample step of 2 in the source)
//                          and §7 mode filter, into the other buffer
//     cvalue_kernel        §8, one thread per pixel: its clipped window,
//                          from a shared tile with a pad halo, counted into
//                          2 nd + 1 per-thread counters (integers: exact),
//                          into the scale's part of the c-value buffer
//   the five scales' pooling at once (a row of blocks per scale):
//     hist_kernel x 3      §14 radix select of each scale's k-th largest
//                          c-value t on the float bits (12, 12 and 8 bits);
//                          the last block of a row to finish picks the digit
//     sum_kernel           Σ c * 2^24 over the c-values above t, exact int64;
//                          the last block of a row makes the scale's pooled
//                          value from the exact sum when it is below 2^29
//                          (then every order of libvmaf's double sum gives
//                          it, §9), else with libvmaf's selection and ordered
//                          sum on the c-values (cambi_top_k_mean, as the
//                          CPU); the last row to finish, the score (§10)
//                          into the accumulator.
// The pooling's decisions run in the last block of the pass before them
// (kernels/device/last_block.h): 5 pooling launches per picture (a memset
// and 4 kernels), not 9 per scale, since launches are most of CAMBI's time.
//
// Workspace (256-byte aligned sections): planes X and Y (uint16, the
// largest target size), the scale-0 mask M (uint8, same size), the
// c-values of the five scales (float), the pooling state, the five pooled
// values.
#include "kernels/cambi/cambi.h"

#include <stdint.h>

#include "kernels/cambi/cambi_ops.h"
#include "kernels/device/block.h"
#include "kernels/device/last_block.h"
#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kTile = 16;          // mask_kernel, cvalue_kernel: 16x16 outputs, one per thread
constexpr int kMaskHalo = 3;       // §5: 7x7 sums
constexpr int kMaskTile = kTile + 2 * kMaskHalo;
constexpr int kPlaneW = 32, kPlaneH = 8; // per-pixel kernels
constexpr int kPoolThreads = 256;
constexpr int kPoolBlocks = 512;   // most blocks of a pooling pass
constexpr int kBins = 4096;        // radix digits of at most 12 bits
constexpr uint16_t kOutside = 0xFFFF; // cvalue tile: unmasked or outside the scale

static_assert(kTile * kTile % 64 == 0 && kPoolThreads % 64 == 0,
              "whole warps on 32- and 64-lane hardware");

// The three radix passes over the 32 float bits: shift and width of the digit.
__host__ __device__ constexpr int digit_shift(int pass)
{
    return pass == 0 ? 20 : pass == 1 ? 8 : 0;
}
__host__ __device__ constexpr int digit_bits(int pass) { return pass == 2 ? 8 : 12; }

/// The selection state of one scale, zeroed before the first pass.
struct PoolState {
    unsigned hist[kBins];         ///< counts of the non-zero c-values per digit
    unsigned prefix;              ///< bits of t chosen so far; t itself after the last pass
    int remaining;                ///< values equal to t (so far: to the prefix) among the k largest
    int done;                     ///< t is 0: every non-zero c-value is among the k largest
    unsigned long long sum;       ///< Σ c * 2^24 over the c-values above t
    unsigned arrived;             ///< blocks of the scale's row done with the current launch
};

/// The pooling state of a picture's five scales.
struct Pooling {
    PoolState scale[CAMBI_SCALES];
    unsigned scales_done;         ///< rows whose pooled value is made
};

/// Where each scale's c-values lie in the c-value buffer, and how many of
/// them are pooled: the pooling kernels' view of a pass.
struct ScaleSet {
    int n[CAMBI_SCALES];          ///< c-values of the scale
    int k[CAMBI_SCALES];          ///< the largest k of them pooled (§9)
    long long at[CAMBI_SCALES];   ///< first c-value of the scale in the buffer
};

ScaleSet scale_set_of(const CambiGpuPass &q)
{
    ScaleSet set = {};
    long long at = 0;
    for (int s = 0; s < CAMBI_SCALES; s++) {
        set.n[s] = q.sw[s] * q.sh[s];
        set.k[s] = q.k[s];
        set.at[s] = at;
        at += set.n[s];
    }
    return set;
}

struct Buffers {
    uint16_t *x, *y;
    uint8_t *mask;
    float *cv;
    Pooling *pool;
    double *value;
    size_t bytes;
};

Buffers layout_of(const CambiGpuParams &p, uint8_t *base)
{
    size_t plane = 0, cvalues = 0;
    for (int k = 0; k < p.passes; k++) {
        const CambiGpuPass &q = p.pass[k];
        plane = plane > size_t(q.w) * q.h ? plane : size_t(q.w) * q.h;
        const ScaleSet set = scale_set_of(q);
        const size_t all = size_t(set.at[CAMBI_SCALES - 1]) + size_t(set.n[CAMBI_SCALES - 1]);
        cvalues = cvalues > all ? cvalues : all;
    }
    Buffers b = {};
    WorkspaceSections sections;
    auto take = [&](size_t bytes) -> uint8_t * {
        const size_t at = sections.take(bytes);
        return base ? base + at : nullptr;
    };
    b.x = reinterpret_cast<uint16_t *>(take(plane * sizeof(uint16_t)));
    b.y = reinterpret_cast<uint16_t *>(take(plane * sizeof(uint16_t)));
    b.mask = take(plane);
    b.cv = reinterpret_cast<float *>(take(cvalues * sizeof(float)));
    b.pool = reinterpret_cast<Pooling *>(take(sizeof(Pooling)));
    b.value = reinterpret_cast<double *>(take(CAMBI_SCALES * sizeof(double)));
    b.bytes = sections.bytes;
    return b;
}

dim3 plane_grid(int w, int h)
{
    return grid_covering(w, h, kPlaneW, kPlaneH);
}

dim3 tile_grid(int w, int h)
{
    return grid_covering(w, h, kTile, kTile);
}

/// Blocks of a scale's row in a pooling launch: n values, 16 per thread.
__host__ __device__ int pool_blocks(int n)
{
    const int blocks = (n + kPoolThreads * 16 - 1) / (kPoolThreads * 16);
    return blocks < kPoolBlocks ? blocks : kPoolBlocks;
}

/// A pooling launch: a row of blocks per scale, as many as scale 0 needs;
/// the rows of smaller scales use their first pool_blocks(n) blocks.
dim3 pool_grid(const ScaleSet &set)
{
    return dim3(static_cast<unsigned>(pool_blocks(set.n[0])), CAMBI_SCALES);
}

// ---------------------------------------------------------------------------
// Preprocessing and mask (§4, §5).

/// §4.2: out (w x h, packed) from the luma plane (in_w wide); idx: the
/// constants' int area, sx/sy the index vectors' offsets or -1.
template <typename T>
__global__ void __launch_bounds__(kPlaneW * kPlaneH)
    prep_kernel(const T *in, int in_w, int bpc, const int32_t *idx, int sx, int sy, int w, int h,
                uint16_t *out)
{
    const int j = static_cast<int>(blockIdx.x) * kPlaneW + static_cast<int>(threadIdx.x);
    const int i = static_cast<int>(blockIdx.y) * kPlaneH + static_cast<int>(threadIdx.y);
    if (i >= h || j >= w)
        return;
    const int y = sy < 0 ? i : idx[sy + i], x = sx < 0 ? j : idx[sx + j];
    out[static_cast<long long>(i) * w + j] =
        cambi_to10(in[static_cast<long long>(y) * in_w + x], bpc);
}

__global__ void __launch_bounds__(kPlaneW * kPlaneH)
    anti_dither_kernel(const uint16_t *in, int w, int h, uint16_t *out)
{
    const int j = static_cast<int>(blockIdx.x) * kPlaneW + static_cast<int>(threadIdx.x);
    const int i = static_cast<int>(blockIdx.y) * kPlaneH + static_cast<int>(threadIdx.y);
    if (i < h && j < w)
        out[static_cast<long long>(i) * w + j] = cambi_anti_dither(in, w, h, i, j);
}

/// §5: M = (Σ of z over the 7x7 square, clipped) > mask_index.
__global__ void __launch_bounds__(kTile * kTile)
    mask_kernel(const uint16_t *img, int w, int h, int mask_index, uint8_t *mask)
{
    __shared__ uint8_t s_z[kMaskTile][kMaskTile];
    const int i0 = static_cast<int>(blockIdx.y) * kTile, j0 = static_cast<int>(blockIdx.x) * kTile;
    const int tid = static_cast<int>(threadIdx.y) * kTile + static_cast<int>(threadIdx.x);
    for (int e = tid; e < kMaskTile * kMaskTile; e += kTile * kTile) {
        const int r = e / kMaskTile, c = e - r * kMaskTile;
        const int a = i0 - kMaskHalo + r, b = j0 - kMaskHalo + c;
        s_z[r][c] = a >= 0 && a < h && b >= 0 && b < w
                        ? static_cast<uint8_t>(cambi_zero_derivative(img, w, h, a, b))
                        : 0;
    }
    __syncthreads();
    const int i = i0 + static_cast<int>(threadIdx.y), j = j0 + static_cast<int>(threadIdx.x);
    if (i >= h || j >= w)
        return;
    int sum = 0;
    for (int r = 0; r < 2 * kMaskHalo + 1; r++)
        for (int c = 0; c < 2 * kMaskHalo + 1; c++)
            sum += s_z[threadIdx.y + r][threadIdx.x + c];
    mask[static_cast<long long>(i) * w + j] = sum > mask_index;
}

// ---------------------------------------------------------------------------
// One scale (§6 to §8).

/// §6 and §7: the scale's P (w x h, packed) is the source sampled with
/// `step` (source rows src_w wide); rows 0 and h-1 keep it, the others take
/// the vertical mode of the horizontal modes (columns 0 and w-1 kept).
__global__ void __launch_bounds__(kPlaneW * kPlaneH)
    mode_kernel(const uint16_t *src, int src_w, int step, int w, int h, uint16_t *out)
{
    const int j = static_cast<int>(blockIdx.x) * kPlaneW + static_cast<int>(threadIdx.x);
    const int i = static_cast<int>(blockIdx.y) * kPlaneH + static_cast<int>(threadIdx.y);
    if (i >= h || j >= w)
        return;
    auto at = [&](int a, int b) {
        return src[static_cast<long long>(a) * step * src_w + static_cast<long long>(b) * step];
    };
    uint16_t v;
    if (i == 0 || i == h - 1) {
        v = at(i, j);
    } else {
        uint16_t hm[3];
        for (int r = 0; r < 3; r++)
            hm[r] = j == 0 || j == w - 1 ? at(i - 1 + r, j)
                                         : cambi_mode3(at(i - 1 + r, j - 1), at(i - 1 + r, j),
                                                       at(i - 1 + r, j + 1));
        v = cambi_mode3(hm[0], hm[1], hm[2]);
    }
    out[static_cast<long long>(i) * w + j] = v;
}

/// Window counts of one thread: its counters in shared memory, one row of
/// kTile * kTile per value offset e = -nd..nd.
struct TileCounts {
    const uint16_t *centre;
    __device__ int operator()(int e) const { return centre[e * kTile * kTile]; }
};

/**
 * §8: the c-values of one 16x16 tile of a scale (w x h, P packed), one per
 * thread. The mask of the scale is the target-size mask M sampled with
 * mstep (mask_w wide, §6). Dynamic shared memory: the tile of P with a pad
 * halo, unmasked and outside samples set to kOutside (no value matches it:
 * the window is clipped and counts masked pixels only, §8.1), then the
 * counters.
 */
__global__ void __launch_bounds__(kTile * kTile)
    cvalue_kernel(CambiTables t, const float *recip, const uint16_t *img, const uint8_t *mask,
                  int mask_w, int mstep, int w, int h, int pad, float *cv)
{
    extern __shared__ uint16_t s_mem[];
    __shared__ CambiTables s_t; // indexed by d: shared memory, not the parameters
    const int tw = kTile + 2 * pad;
    uint16_t *s_p = s_mem;
    uint16_t *s_cnt = s_mem + tw * tw;
    const int i0 = static_cast<int>(blockIdx.y) * kTile, j0 = static_cast<int>(blockIdx.x) * kTile;
    const int tid = static_cast<int>(threadIdx.y) * kTile + static_cast<int>(threadIdx.x);
    if (tid == 0)
        s_t = t;
    for (int e = tid; e < tw * tw; e += kTile * kTile) {
        const int r = e / tw, c = e - r * tw;
        const int a = i0 - pad + r, b = j0 - pad + c;
        uint16_t v = kOutside;
        if (a >= 0 && a < h && b >= 0 && b < w &&
            mask[static_cast<long long>(a) * mstep * mask_w + static_cast<long long>(b) * mstep])
            v = img[static_cast<long long>(a) * w + b];
        s_p[e] = v;
    }
    __syncthreads();
    const int i = i0 + static_cast<int>(threadIdx.y), j = j0 + static_cast<int>(threadIdx.x);
    if (i >= h || j >= w)
        return;
    const int ty = static_cast<int>(threadIdx.y), tx = static_cast<int>(threadIdx.x);
    const int v = s_p[(ty + pad) * tw + tx + pad];
    float c = 0.0f;
    if (v != kOutside && v >= s_t.lo && v <= s_t.hi) {
        const int nd = s_t.nd, ws = 2 * pad + 1;
        for (int e = 0; e <= 2 * nd; e++)
            s_cnt[e * kTile * kTile + tid] = 0;
        for (int r = 0; r < ws; r++) {
            const uint16_t *row = s_p + (ty + r) * tw + tx;
            for (int q = 0; q < ws; q++) {
                const unsigned e = static_cast<unsigned>(row[q] - v + nd);
                if (e <= static_cast<unsigned>(2 * nd))
                    s_cnt[e * kTile * kTile + tid]++;
            }
        }
        c = cambi_c_value(v, s_t, recip, TileCounts{s_cnt + nd * kTile * kTile + tid});
    }
    cv[static_cast<long long>(i) * w + j] = c;
}

// ---------------------------------------------------------------------------
// Pooling of the five scales (§9, §14): blockIdx.y is the scale.

/// One block: the digit of t in pass `pass`, i.e. the highest digit whose
/// values with those above reach the remaining count (k before pass 0).
/// When the non-zero c-values do not reach it, t is 0. Clears the counts
/// for the next pass. Every thread of the block calls it.
__device__ void select_digit(int pass, int k, PoolState *st)
{
    __shared__ unsigned s_chunk[kPoolThreads];
    const volatile unsigned *hist = st->hist; // other blocks' atomics
    const int tid = static_cast<int>(threadIdx.x);
    const int per = (1 << digit_bits(pass)) / kPoolThreads; // digits per thread
    unsigned total = 0;
    for (int b = tid * per; b < (tid + 1) * per; b++)
        total += hist[b];
    s_chunk[tid] = total;
    __syncthreads();
    if (tid == 0) {
        const unsigned need = static_cast<unsigned>(pass == 0 ? k : st->remaining);
        unsigned above = 0;
        int chunk = kPoolThreads - 1;
        while (chunk >= 0 && above + s_chunk[chunk] < need)
            above += s_chunk[chunk--];
        if (chunk < 0) {
            st->done = 1;
            st->prefix = 0;
        } else {
            int digit = (chunk + 1) * per - 1;
            while (above + hist[digit] < need)
                above += hist[digit--];
            st->prefix |= static_cast<unsigned>(digit) << digit_shift(pass);
        }
        st->remaining = static_cast<int>(need - above);
    }
    __syncthreads();
    for (int b = tid; b < kBins; b += kPoolThreads)
        st->hist[b] = 0;
}

/// Counts per digit of radix pass `pass` of the non-zero c-values whose
/// higher bits match the prefix chosen so far; the row's last block picks
/// the digit (select_digit).
__global__ void __launch_bounds__(kPoolThreads)
    hist_kernel(const float *cv_all, ScaleSet set, int pass, Pooling *pool)
{
    __shared__ unsigned s_h[kBins];
    const int s = static_cast<int>(blockIdx.y), n = set.n[s];
    const int blocks = pool_blocks(n);
    PoolState *st = &pool->scale[s];
    if (static_cast<int>(blockIdx.x) >= blocks || st->done)
        return; // the same for every thread of the block; done: t is already known
    const float *cv = cv_all + set.at[s];
    const int tid = static_cast<int>(threadIdx.x);
    for (int b = tid; b < kBins; b += kPoolThreads)
        s_h[b] = 0;
    __syncthreads();
    const int shift = digit_shift(pass), above = shift + digit_bits(pass);
    const unsigned long long prefix = st->prefix;
    const unsigned mask = (1u << digit_bits(pass)) - 1;
    for (int q = static_cast<int>(blockIdx.x) * kPoolThreads + tid; q < n; q += blocks * kPoolThreads) {
        const unsigned bits = __float_as_uint(cv[q]);
        if (bits && (static_cast<unsigned long long>(bits) >> above) == (prefix >> above))
            atomicAdd(&s_h[(bits >> shift) & mask], 1u);
    }
    __syncthreads();
    for (int b = tid; b < kBins; b += kPoolThreads)
        if (s_h[b])
            atomicAdd(&st->hist[b], s_h[b]);
    if (gpu_last_block(&st->arrived, static_cast<unsigned>(blocks)))
        select_digit(pass, set.k[s], st);
}

/// Σ c * 2^24 over the c-values above t: whole numbers (§14), exact in any
/// order. The row's last block makes the scale's pooled value (§9); the last
/// row's, the score (§10) into *out.
__global__ void __launch_bounds__(kPoolThreads)
    sum_kernel(float *cv_all, ScaleSet set, int ws, Pooling *pool, double *value, double *out)
{
    const int s = static_cast<int>(blockIdx.y), n = set.n[s];
    const int blocks = pool_blocks(n);
    if (static_cast<int>(blockIdx.x) >= blocks)
        return;
    float *cv = cv_all + set.at[s];
    PoolState *st = &pool->scale[s];
    const unsigned t = st->prefix;
    long long acc = 0;
    for (int q = static_cast<int>(blockIdx.x) * kPoolThreads + static_cast<int>(threadIdx.x); q < n;
         q += blocks * kPoolThreads) {
        const float c = cv[q];
        if (__float_as_uint(c) > t)
            acc += static_cast<long long>(cambi_units(c));
    }
    acc = gpu_block_sum(acc);
    if (threadIdx.x == 0 && acc)
        atomicAdd(&st->sum, static_cast<unsigned long long>(acc));
    if (!gpu_last_block(&st->arrived, static_cast<unsigned>(blocks)))
        return;
    if (threadIdx.x == 0) {
        const int k = set.k[s];
        const uint64_t units = *static_cast<volatile unsigned long long *>(&st->sum) +
                               static_cast<uint64_t>(st->remaining) *
                                   cambi_units(__uint_as_float(st->prefix));
        // Below the bound every order of libvmaf's sum is exact; at or above
        // it the result depends on the order: libvmaf's selection, as the CPU
        // runs it.
        value[s] = units < CAMBI_EXACT_UNITS ? cambi_exact_mean(units, k)
                                             : cambi_top_k_mean(cv, n, k);
    }
    if (gpu_last_block(&pool->scales_done, CAMBI_SCALES) && threadIdx.x == 0) {
        double v[CAMBI_SCALES];
        for (int r = 0; r < CAMBI_SCALES; r++)
            v[r] = static_cast<volatile double *>(value)[r];
        *out = cambi_combine(v, ws);
    }
}

// ---------------------------------------------------------------------------

void enqueue_pass(hipStream_t stream, const CambiGpuParams &p, const CambiGpuPass &q,
                  const GpuPlane &in, const void *constants, const Buffers &b, double *out)
{
    const float *recip = static_cast<const float *>(constants);
    const int32_t *idx = static_cast<const int32_t *>(constants) + CAMBI_CONST_INTS;
    // §4: into X, or into Y and anti-dithered into X.
    uint16_t *prep = p.anti_dither ? b.y : b.x;
    if (p.bpc > 8)
        prep_kernel<uint16_t><<<plane_grid(q.w, q.h), dim3(kPlaneW, kPlaneH), 0, stream>>>(
            reinterpret_cast<const uint16_t *>(in.data), in.w, p.bpc, idx, q.sx, q.sy, q.w, q.h,
            prep);
    else
        prep_kernel<uint8_t><<<plane_grid(q.w, q.h), dim3(kPlaneW, kPlaneH), 0, stream>>>(
            in.data, in.w, p.bpc, idx, q.sx, q.sy, q.w, q.h, prep);
    if (p.anti_dither)
        anti_dither_kernel<<<plane_grid(q.w, q.h), dim3(kPlaneW, kPlaneH), 0, stream>>>(
            b.y, q.w, q.h, b.x);
    mask_kernel<<<tile_grid(q.w, q.h), dim3(kTile, kTile), 0, stream>>>(b.x, q.w, q.h,
                                                                        q.mask_index, b.mask);

    const int pad = q.ws >> 1;
    const size_t shmem = (static_cast<size_t>(kTile + 2 * pad) * (kTile + 2 * pad) +
                          static_cast<size_t>(2 * p.t.nd + 1) * kTile * kTile) * sizeof(uint16_t);
    // Scale s reads the previous scale's filtered plane (the preprocessed
    // one for scale 0) with a step of 2, or 1 at scale 0 without the speed-up.
    const ScaleSet set = scale_set_of(q);
    const uint16_t *src = b.x;
    int src_w = q.w, step = p.speedup ? 2 : 1;
    uint16_t *cur = b.y, *other = b.x;
    for (int s = 0; s < CAMBI_SCALES; s++) {
        const int w = q.sw[s], h = q.sh[s];
        mode_kernel<<<plane_grid(w, h), dim3(kPlaneW, kPlaneH), 0, stream>>>(src, src_w, step, w,
                                                                             h, cur);
        cvalue_kernel<<<tile_grid(w, h), dim3(kTile, kTile), shmem, stream>>>(
            p.t, recip, cur, b.mask, q.w, 1 << (s + p.speedup), w, h, pad, b.cv + set.at[s]);
        src = cur;
        src_w = w;
        step = 2;
        uint16_t *t = cur;
        cur = other;
        other = t;
    }
    (void)hipMemsetAsync(b.pool, 0, sizeof(Pooling), stream);
    for (int pass = 0; pass < 3; pass++)
        hist_kernel<<<pool_grid(set), kPoolThreads, 0, stream>>>(b.cv, set, pass, b.pool);
    sum_kernel<<<pool_grid(set), kPoolThreads, 0, stream>>>(b.cv, set, q.ws, b.pool, b.value, out);
}

} // namespace

size_t cambi_workspace_bytes(const CambiGpuParams &p) { return layout_of(p, nullptr).bytes; }

void cambi_enqueue(hipStream_t stream, const CambiGpuParams &p, const GpuFrame &f,
                   const void *constants, void *workspace, CambiAccum *d_out)
{
    const Buffers b = layout_of(p, static_cast<uint8_t *>(workspace));
    enqueue_pass(stream, p, p.pass[0], f.dis[0], constants, b, &d_out->dis);
    if (p.passes > 1)
        enqueue_pass(stream, p, p.pass[1], f.ref[0], constants, b, &d_out->src);
}

} // namespace vmafhip
