// psnr_hvs kernels (docs/psnr_hvs.md §7). Every block's 64 error terms go
// through kernels/psnr_hvs/psnr_hvs_ops.h, the arithmetic the CPU code runs,
// so they are the CPU's to the bit; the per-plane sum is the CPU's sequential
// float32 sum, in its order, so it is too. Every § below is a section of
// docs/psnr_hvs.md.
//
// Per frame, on one stream, always the same launches:
//   1. terms_kernel: one thread per 8x8 block of a plane (grid y: the plane),
//      its 64 terms into the workspace, the blocks of each plane in §3's
//      order (rows of blocks, left to right), each block's terms row-major:
//      the order in which libvmaf adds them.
//   2. per plane, kernels/device/ordered_sum.h: the plane's terms added into
//      one float in that order (§5: the order cannot change without changing
//      bits), runs of terms at once where the sequential sum provably gives
//      the same bits (the running sum staying in one binade), the others one
//      by one.
#include "kernels/psnr_hvs/psnr_hvs.h"

#include <cstdint>

#include "kernels/device/launch.h"
#include "kernels/device/ordered_sum.h"

namespace vmafhip {

namespace {

constexpr int kTermThreads = 128;  // terms_kernel: one picture block per thread

/// The planes' block grids and their sections of the workspace, from the
/// plane sizes only, so that psnr_hvs_workspace_bytes() and
/// psnr_hvs_enqueue() agree: the terms of the three planes (in terms), then
/// each plane's ordered-sum records (in bytes).
struct Layout {
    int bx[3];          // blocks per row of blocks
    int n[3];           // blocks
    size_t off[3];      // first term of the plane
    size_t terms;       // all planes
    size_t chunks_off[3]; // the plane's OrderedChunk records, bytes from the start
    size_t bytes;
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
    size_t off = workspace_align((L.terms > 0 ? L.terms : 1) * sizeof(float));
    for (int p = 0; p < 3; p++) {
        L.chunks_off[p] = off;
        off += workspace_align(sizeof(OrderedChunk<float>) *
                        (ordered_chunks(static_cast<size_t>(L.n[p]) * PSNR_HVS_TERMS) + 1));
    }
    L.bytes = off;
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

template <typename T>
void enqueue_t(hipStream_t stream, const GpuFrame &f, const PsnrHvsWeights *weights, uint8_t *ws,
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
    float *terms = reinterpret_cast<float *>(ws);
    int most = 0; // blocks of the largest plane
    for (int p = 0; p < 3; p++)
        most = L.n[p] > most ? L.n[p] : most;
    if (most > 0) {
        const dim3 grid(static_cast<unsigned>((most + kTermThreads - 1) / kTermThreads), 3);
        terms_kernel<T><<<grid, kTermThreads, 0, stream>>>(pl, L, weights, terms);
    }
    // §5: a float sum per plane, in libvmaf's order, into the double of the
    // accumulator block.
    for (int p = 0; p < 3; p++)
        ordered_sum_enqueue(stream, terms + L.off[p], static_cast<size_t>(L.n[p]) * PSNR_HVS_TERMS,
                            reinterpret_cast<OrderedChunk<float> *>(ws + L.chunks_off[p]),
                            &d_out->sum[p]);
}

} // namespace

size_t psnr_hvs_workspace_bytes(const int w[3], const int h[3]) { return layout_of(w, h).bytes; }

void psnr_hvs_enqueue(hipStream_t stream, const GpuFrame &f, const PsnrHvsWeights *weights,
                      void *workspace, PsnrHvsAccum *d_out)
{
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    if (f.bpc > 8)
        enqueue_t<uint16_t>(stream, f, weights, ws, d_out);
    else
        enqueue_t<uint8_t>(stream, f, weights, ws, d_out);
}

} // namespace vmafhip
