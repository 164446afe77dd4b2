#include "kernels/packed10_unpack.h"

#include "kernels/device/launch.h"
#include "kernels/packed10.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;

// blockIdx.y: the plane. One thread per packed word, grid-stride: its three
// samples, each written where it belongs in the row (no lane count assumed).
__global__ void __launch_bounds__(kThreads) unpack_kernel(Packed10Planes p)
{
    const int i = static_cast<int>(blockIdx.y);
    const int w = p.w[i];
    const size_t row_words = packed10_row_words(w);
    const size_t n = row_words * static_cast<size_t>(p.h[i]);
    const uint32_t *src = p.src[i];
    uint16_t *dst = p.dst[i];
    for (size_t k = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x; k < n;
         k += static_cast<size_t>(gridDim.x) * kThreads) {
        const size_t y = k / row_words, in_row = k % row_words;
        const int first = static_cast<int>(in_row / PACKED10_BLOCK_WORDS) * PACKED10_BLOCK_SAMPLES +
                          static_cast<int>(in_row % PACKED10_BLOCK_WORDS);
        const uint32_t word = src[k];
        uint16_t *out = dst + y * static_cast<size_t>(w);
        for (int part = 0; part < 3; part++) {
            const int x = first + part * PACKED10_BLOCK_WORDS;
            if (x < w)
                out[x] = static_cast<uint16_t>(word >> (10 * part) & PACKED10_MAX);
        }
    }
}

} // namespace

void packed10_unpack_enqueue(hipStream_t stream, const Packed10Planes &p)
{
    size_t most = 0;
    for (int i = 0; i < p.n; i++) {
        const size_t n = packed10_row_words(p.w[i]) * static_cast<size_t>(p.h[i]);
        most = n > most ? n : most;
    }
    if (!p.n || !most)
        return;
    // Four words a thread on the largest plane, at most 4096 blocks a plane.
    unpack_kernel<<<dim3(grid_stride_blocks(most, kThreads * 4, 4096), p.n), kThreads, 0, stream>>>(p);
}

} // namespace vmafhip
