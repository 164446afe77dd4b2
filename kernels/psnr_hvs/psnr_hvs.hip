// psnr_hvs kernels (docs/psnr_hvs.md §7). Every block's 64 error terms go
// through kernels/psnr_hvs/psnr_hvs_ops.h, the arithmetic the CPU code runs,
// so they are the CPU's to the bit; the per-plane sum is the CPU's sequential
// float32 sum, in its order, so it is too. Every § below is a section of
// docs/psnr_hvs.md.
//
// Per frame, on one stream, always the same two launches:
//   1. terms_kernel: one thread per 8x8 block of a plane (grid y: the plane),
//      its 64 terms into the workspace, the blocks of each plane in §3's
//      order (rows of blocks, left to right), each block's terms row-major:
//      the order in which libvmaf adds them.
//   2. sum_kernel: one thread block per plane. One thread adds the plane's
//      terms one by one into a float (§5: the order cannot change without
//      changing bits), reading them from shared memory, while the block's
//      other warps load the next chunk of terms into the other buffer.
#include "kernels/psnr_hvs/psnr_hvs.h"

#include <cstdint>

#include "kernels/device/warp.h"

namespace vmafhip {

namespace {

constexpr int kTermThreads = 128;  // terms_kernel: one picture block per thread
constexpr int kSumThreads = 256;   // sum_kernel: warp 0 sums (thread 0), the others load
constexpr int kChunk = 4096;       // terms per shared buffer; two buffers: 32 KiB

static_assert(kSumThreads > GPU_MAX_WARP_SIZE, "sum_kernel: loaders besides the summing warp");
static_assert(kChunk % PSNR_HVS_TERMS == 0 && PSNR_HVS_TERMS % 4 == 0,
              "a plane's terms are whole float4s and whole chunks but for the last");

/// The planes' block grids and their sections of the workspace (in terms),
/// from the plane sizes only, so that psnr_hvs_workspace_bytes() and
/// psnr_hvs_enqueue() agree. A section is a whole number of blocks, 64
/// terms (256 bytes) each, so every section is aligned for float4 loads.
struct Layout {
    int bx[3];     // blocks per row of blocks
    int n[3];      // blocks
    size_t off[3]; // first term of the plane
    size_t terms;  // all planes
};

Layout layout_of(const int w[3], const int h[3])
{
    Layout L = {};
    for (int p = 0; p < 3; p++) {
        L.bx[p] = psnr_hvs_blocks(w[p]);
        L.n[p] = L.bx[p] * psnr_hvs_blocks(h[p]);
        L.off[p] = L.terms;
        L.terms += static_cast<size_t>(L.n[p]) * PSNR_HVS_TERMS;
    }
    return L;
}

/// The staged planes, tightly packed (row pitch w * sizeof(T)).
struct Planes {
    const uint8_t *ref[3];
    const uint8_t *dis[3];
    int w[3];
};

// §3-§4: block b of plane blockIdx.y into its 64 terms. The plane's weights
// go to shared memory first (every thread reads the same entry at a time).
// No barrier after that one, so threads past the plane's blocks may leave.
template <typename T>
__global__ void __launch_bounds__(kTermThreads)
    terms_kernel(Planes pl, Layout L, const PsnrHvsWeights *weights, float *terms)
{
    __shared__ PsnrHvsWeights w;
    const int p = static_cast<int>(blockIdx.y);
    for (int k = static_cast<int>(threadIdx.x); k < PSNR_HVS_TERMS; k += kTermThreads) {
        w.csf[k] = weights[p].csf[k];
        w.mask[k] = weights[p].mask[k];
    }
    __syncthreads();
    const int b = static_cast<int>(blockIdx.x) * kTermThreads + static_cast<int>(threadIdx.x);
    if (b >= L.n[p])
        return;
    const int by = b / L.bx[p], bx = b - by * L.bx[p];
    const ptrdiff_t stride = static_cast<ptrdiff_t>(pl.w[p]) * static_cast<ptrdiff_t>(sizeof(T));
    const ptrdiff_t o = static_cast<ptrdiff_t>(by) * PSNR_HVS_STEP * stride +
                        static_cast<ptrdiff_t>(bx) * PSNR_HVS_STEP * static_cast<ptrdiff_t>(sizeof(T));
    psnr_hvs_block_terms<T>(pl.ref[p] + o, stride, pl.dis[p] + o, stride, w,
                            terms + L.off[p] + static_cast<size_t>(b) * PSNR_HVS_TERMS);
}

// §5: the terms of plane blockIdx.x added one by one, in order, into one
// float, by thread 0; the plane's sum into out->sum[plane]. The terms pass
// through two shared buffers of kChunk: while thread 0 adds chunk c from one,
// the threads of the other warps load chunk c + 1 into the other (coalesced
// float4 loads), so the serial loop waits on nothing but its own additions.
// Every thread reaches every __syncthreads().
__global__ void __launch_bounds__(kSumThreads) sum_kernel(const float *terms, Layout L, PsnrHvsAccum *out)
{
    __shared__ float4 buf[2][kChunk / 4];
    const int p = static_cast<int>(blockIdx.x);
    const int tid = static_cast<int>(threadIdx.x);
    const int warp = gpu_warp_size();
    const size_t n = static_cast<size_t>(L.n[p]) * PSNR_HVS_TERMS;
    const float4 *src = reinterpret_cast<const float4 *>(terms + L.off[p]);
    const size_t chunks = (n + kChunk - 1) / kChunk;
    // Float4s of chunk c (the last chunk may be short; n is a multiple of 64).
    const auto chunk_quads = [n](size_t c) {
        const size_t left = n - c * kChunk, full = kChunk;
        return static_cast<int>((left < full ? left : full) / 4);
    };
    const auto load = [&](size_t c) {
        if (tid < warp)
            return;
        const float4 *from = src + c * (kChunk / 4);
        float4 *to = buf[c & 1];
        const int quads = chunk_quads(c);
        for (int i = tid - warp; i < quads; i += kSumThreads - warp)
            to[i] = from[i];
    };
    if (chunks > 0)
        load(0);
    __syncthreads();
    float sum = 0;
    for (size_t c = 0; c < chunks; c++) {
        if (c + 1 < chunks)
            load(c + 1);
        if (tid == 0) {
            const float4 *b = buf[c & 1];
            const int quads = chunk_quads(c);
#pragma unroll 4
            for (int i = 0; i < quads; i++) {
                const float4 v = b[i];
                sum += v.x;
                sum += v.y;
                sum += v.z;
                sum += v.w;
            }
        }
        __syncthreads();
    }
    if (tid == 0)
        out->sum[p] = static_cast<double>(sum);
}

template <typename T>
void enqueue_t(hipStream_t stream, const GpuFrame &f, const PsnrHvsWeights *weights, float *terms,
               PsnrHvsAccum *d_out)
{
    int w[3], h[3];
    Planes pl = {};
    for (int p = 0; p < 3; p++) {
        w[p] = f.ref[p].w;
        h[p] = f.ref[p].h;
        pl.ref[p] = f.ref[p].data;
        pl.dis[p] = f.dis[p].data;
        pl.w[p] = w[p];
    }
    const Layout L = layout_of(w, h);
    int most = 0; // blocks of the largest plane
    for (int p = 0; p < 3; p++)
        most = L.n[p] > most ? L.n[p] : most;
    if (most > 0) {
        const dim3 grid(static_cast<unsigned>((most + kTermThreads - 1) / kTermThreads), 3);
        terms_kernel<T><<<grid, kTermThreads, 0, stream>>>(pl, L, weights, terms);
    }
    sum_kernel<<<3, kSumThreads, 0, stream>>>(terms, L, d_out);
}

} // namespace

size_t psnr_hvs_workspace_bytes(const int w[3], const int h[3])
{
    const size_t terms = layout_of(w, h).terms;
    return (terms > 0 ? terms : 1) * sizeof(float);
}

void psnr_hvs_enqueue(hipStream_t stream, const GpuFrame &f, const PsnrHvsWeights *weights,
                      void *workspace, PsnrHvsAccum *d_out)
{
    float *terms = static_cast<float *>(workspace);
    if (f.bpc > 8)
        enqueue_t<uint16_t>(stream, f, weights, terms, d_out);
    else
        enqueue_t<uint8_t>(stream, f, weights, terms, d_out);
}

} // namespace vmafhip
