// integer motion kernel (docs/motion.md §2, §7): one launch per frame. Each
// block of 256 threads owns a 64x32 tile of outputs z and
//   1. loads the differences prev - cur of the tile plus a 2-sample halo on
//      every side (mirrored rows and columns) into shared memory,
//   2. runs the vertical pass over the tile's rows and the halo columns,
//   3. runs the horizontal pass and sums |z| over the tile's samples inside
//      the picture,
// then reduces the per-thread sums over the block and adds the block's sum
// with one 64-bit atomic. Every value goes through kernels/motion/motion_ops.h, the
// arithmetic of the CPU reference, and integer sums are exact in any order,
// so the SAD equals the CPU's bit for bit.
#include "kernels/motion/motion.h"

#include <stddef.h>
#include <stdint.h>

#include "kernels/device/atomic.h"
#include "kernels/device/block.h"
#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kTileW = 64;             // outputs per block, x
constexpr int kTileH = 32;             // outputs per block, y
constexpr int kHaloW = kTileW + 4;     // columns j0-2 .. j0+kTileW+1
constexpr int kHaloH = kTileH + 4;     // rows i0-2 .. i0+kTileH+1
constexpr int kThreads = 256;

static_assert(kThreads % 64 == 0, "whole warps on 32- and 64-lane hardware");

/**
 * Tile (blockIdx.x, blockIdx.y). s_d[r][c] holds the difference at row
 * m(i0-2+r), column m(j0-2+c); entries beyond row h+1 or column w+1 are only
 * read by outputs outside the picture and are set to 0. s_y[r][c] is the
 * vertical value of row i0+r at column m(j0-2+c), so output (i0+r, j0+c)
 * reads s_y[r][c .. c+4]. Threads past the picture keep going with zeros
 * through both barriers and the reduction.
 */
template <typename T>
__global__ void __launch_bounds__(kThreads)
    sad_kernel(MotionParams p, const T *prev, const T *cur, unsigned long long *sad)
{
    __shared__ int32_t s_d[kHaloH][kHaloW];
    __shared__ int32_t s_y[kTileH][kHaloW];

    const int i0 = static_cast<int>(blockIdx.y) * kTileH;
    const int j0 = static_cast<int>(blockIdx.x) * kTileW;
    const int tid = static_cast<int>(threadIdx.x);

    for (int e = tid; e < kHaloH * kHaloW; e += kThreads) {
        const int r = e / kHaloW, c = e - r * kHaloW;
        const int y = i0 - 2 + r, x = j0 - 2 + c;
        int32_t d = 0;
        if (y <= p.h + 1 && x <= p.w + 1) {
            const ptrdiff_t o = static_cast<ptrdiff_t>(motion_mirror(y, p.h)) * p.w +
                                motion_mirror(x, p.w);
            // §2.3: previous minus current.
            d = static_cast<int32_t>(prev[o]) - static_cast<int32_t>(cur[o]);
        }
        s_d[r][c] = d;
    }
    __syncthreads();

    for (int e = tid; e < kTileH * kHaloW; e += kThreads) {
        const int r = e / kHaloW, c = e - r * kHaloW;
        s_y[r][c] = motion_vert(s_d[r][c], s_d[r + 1][c], s_d[r + 2][c], s_d[r + 3][c],
                                s_d[r + 4][c], p.bpc);
    }
    __syncthreads();

    long long acc = 0;
    for (int e = tid; e < kTileH * kTileW; e += kThreads) {
        const int r = e / kTileW, c = e - r * kTileW;
        if (i0 + r < p.h && j0 + c < p.w)
            acc += motion_hori_abs(s_y[r][c], s_y[r][c + 1], s_y[r][c + 2], s_y[r][c + 3],
                                   s_y[r][c + 4]);
    }
    acc = gpu_block_sum(acc);
    if (tid == 0 && acc)
        gpu_atomic_add_u64(sad, static_cast<unsigned long long>(acc));
}

} // namespace

void motion_enqueue(hipStream_t stream, const MotionParams &p, const GpuPlane &prev,
                    const GpuPlane &cur, MotionAccum *d_accum)
{
    const dim3 grid = grid_covering(p.w, p.h, kTileW, kTileH);
    unsigned long long *sad = reinterpret_cast<unsigned long long *>(&d_accum->sad);
    if (p.bpc > 8)
        sad_kernel<uint16_t><<<grid, kThreads, 0, stream>>>(
            p, reinterpret_cast<const uint16_t *>(prev.data),
            reinterpret_cast<const uint16_t *>(cur.data), sad);
    else
        sad_kernel<uint8_t><<<grid, kThreads, 0, stream>>>(p, prev.data, cur.data, sad);
}

} // namespace vmafhip
