// integer VIF kernels (docs/vif.md §3, §4, §8, §9). Every value goes through
// kernels/vif/vif_ops.h, the arithmetic the CPU reference (extractors/vif/vif_cpu.cpp)
// uses, and every accumulator is an exact int64 sum, so the result is the
// CPU's to the bit whatever the order of the atomics.
//
// Per frame, on one stream, 4 launches: scale_kernel<S> for S = 0..3. One
// block of 256 threads per 64x16 tile of scale-S pixels:
//   1. the ref and dis samples of the tile plus the filter halo (half = 8,
//      4, 2, 1 rows and columns) into shared memory, rows and columns
//      mirrored as libvmaf pads them (vif_mirror);
//   2. the vertical statistics filter of every tile row and every halo
//      column (VifVert, shared memory), and, for S < 3, the vertical
//      low-pass of scale S + 1 at the tile's even rows;
//   3. the horizontal filter and the per-pixel statistic of every pixel of
//      the tile inside the picture, summed per thread; for S < 3 the
//      horizontal low-pass at the even columns, written as the scale-S + 1
//      picture (only the even positions are ever computed: that is the
//      decimation);
//   4. block sums of the 4 accumulators (every thread takes part, pixels
//      outside the picture count 0), one 64-bit atomic each.
// Scale S + 1 is read by the next launch, which stream order runs after all
// blocks of this one. With vif_skip_scale0 the scale-0 launch only builds
// scale 1.
//
// Workspace: the ref and dis pictures of scales 1-3 (uint16, w_s x h_s,
// tightly packed), each 256-byte aligned.
#include "kernels/vif/vif.h"

#include "kernels/device/atomic.h"
#include "kernels/device/block.h"
#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kTileW = 64; // scale-S pixels per block, x (even: the decimation keeps even columns)
constexpr int kTileH = 16; // rows per block (even)
constexpr int kThreads = 256;

static_assert(kThreads % 64 == 0, "whole warps on 32- and 64-lane hardware");
static_assert(kTileW % 2 == 0 && kTileH % 2 == 0, "tiles start at even rows and columns");

/// Pictures a scale launch reads and writes ([0] ref, [1] dis).
struct ScaleIO {
    const void *in[2];       ///< scale S: the luma planes (S = 0) or workspace pictures
    uint16_t *next[2];       ///< scale S + 1 (S < 3)
    const uint16_t *prev[2]; ///< scale 2 (S = 3): libvmaf's leftovers of a 1-row / 1-column scale 3
};

/// The workspace pictures of scales 1-3 (index 0 unused: scale 0 is the input).
struct Pictures {
    uint16_t *img[VIF_SCALES][2];
    size_t bytes;
};

Pictures layout_of(const VifParams &p, uint8_t *base)
{
    Pictures L = {};
    size_t off = 0;
    for (int s = 1; s < VIF_SCALES; s++)
        for (int k = 0; k < 2; k++) {
            L.img[s][k] = base ? reinterpret_cast<uint16_t *>(base + off) : nullptr;
            off += workspace_align(static_cast<size_t>(p.w[s]) * p.h[s] * sizeof(uint16_t));
        }
    L.bytes = off;
    return L;
}

/**
 * §8: scale 3 with one column (W < 16). libvmaf's mirrored columns then hold
 * what its row buffer kept from scale 2: the vertical filter outputs of the
 * last scale-2 row at column 1. Rows mirrored on the scale-2 height (>= 2).
 */
__device__ VifVert scale2_leftover(const VifParams &p, const uint16_t *x2, const uint16_t *y2)
{
    constexpr int R = vif_half(2);
    uint16_t x[2 * R + 1], y[2 * R + 1];
    for (int k = 0; k <= 2 * R; k++) {
        const ptrdiff_t o = static_cast<ptrdiff_t>(vif_mirror(p.h[2] - 1 - R + k, p.h[2])) * p.w[2] + 1;
        x[k] = x2[o];
        y[k] = y2[o];
    }
    return vif_vertical<2>(x, y, 1, vif_vp_shift(2, p.bpc), vif_vq_shift(2, p.bpc));
}

/// A VifVert from shared memory in one 16-byte load: field by field the
/// compiler reads it in three, each with a 16-byte stride across the warp
/// (four-way bank conflicts).
__device__ VifVert load_vert(const VifVert *v)
{
    static_assert(sizeof(VifVert) == sizeof(uint4) && alignof(VifVert) == alignof(uint4) &&
                      offsetof(VifVert, mu2) == 2 && offsetof(VifVert, xx) == 4 &&
                      offsetof(VifVert, yy) == 8 && offsetof(VifVert, xy) == 12,
                  "VifVert is one uint4: mu1 | mu2 << 16, xx, yy, xy");
    const uint4 q = *reinterpret_cast<const uint4 *>(v);
    return VifVert{static_cast<uint16_t>(q.x), static_cast<uint16_t>(q.x >> 16), q.y, q.z, q.w};
}

/// One 64x16 tile of scale S per block; see the file comment.
template <int S, typename In>
__global__ void __launch_bounds__(kThreads)
    scale_kernel(VifParams p, ScaleIO io, const uint16_t *__restrict__ table, VifAccum *out)
{
    constexpr int R = vif_half(S);                   // statistics filter
    constexpr int RN = S < 3 ? vif_half(S + 1) : 0;  // low-pass building scale S + 1
    constexpr int IW = kTileW + 2 * R, IH = kTileH + 2 * R;
    constexpr int DW = S < 3 ? kTileW + 2 * RN : 1, DH = S < 3 ? kTileH / 2 : 1;
    __shared__ uint16_t s_x[IH][IW], s_y[IH][IW];  // input tile with halo
    __shared__ VifVert s_v[kTileH][IW];            // vertical statistics outputs
    __shared__ uint16_t s_tx[DH][DW], s_ty[DH][DW]; // vertical low-pass, even rows
    __shared__ ptrdiff_t s_row[IH];                // offsets of the tile's mirrored rows
    __shared__ int s_col[IW];                      // the tile's mirrored columns

    const int w = p.w[S], h = p.h[S];
    const int i0 = static_cast<int>(blockIdx.y) * kTileH;
    const int j0 = static_cast<int>(blockIdx.x) * kTileW;
    const int tid = static_cast<int>(threadIdx.x);
    const In *X = static_cast<const In *>(io.in[0]);
    const In *Y = static_cast<const In *>(io.in[1]);
    const bool stats = !(S == 0 && p.skip_scale0); // uniform over the grid

    // 1. The tile and its halo, mirrored (§3): the mirror of each row and
    //    column once, then the samples. §8: a scale 3 of one row has the
    //    scale-2 picture's row 1 above and below it; a scale 3 of one column
    //    reads column 0 here and replaces the others in step 2.
    static_assert(IH + IW <= kThreads, "one thread per mirrored row or column");
    if (tid < IH)
        s_row[tid] = static_cast<ptrdiff_t>(vif_mirror(i0 - R + tid, h)) * w;
    else if (tid < IH + IW)
        s_col[tid - IH] = vif_mirror(j0 - R + tid - IH, w);
    __syncthreads();
    for (int e = tid; e < IH * IW; e += kThreads) {
        const int r = e / IW, c = e - r * IW;
        const int gj = s_col[c];
        uint16_t xv, yv;
        if (S == 3 && h == 1 && i0 - R + r != 0) {
            xv = io.prev[0][p.w[2] + gj];
            yv = io.prev[1][p.w[2] + gj];
        } else {
            const ptrdiff_t o = s_row[r] + gj;
            xv = static_cast<uint16_t>(X[o]);
            yv = static_cast<uint16_t>(Y[o]);
        }
        s_x[r][c] = xv;
        s_y[r][c] = yv;
    }
    __syncthreads();

    // 2. Vertical statistics filter of every tile row, halo columns included.
    //    8-bit samples at scale 0 sum their second moments in uint32
    //    (VIF_NARROW_SUMS_8BIT): the same values with half-width products.
    if (stats) {
        const int vp = vif_vp_shift(S, p.bpc), vq = vif_vq_shift(S, p.bpc);
        const bool one_column = S == 3 && w == 1;
        VifVert leftover = {0, 0, 0, 0, 0};
        if (one_column)
            leftover = scale2_leftover(p, io.prev[0], io.prev[1]);
        for (int e = tid; e < kTileH * IW; e += kThreads) {
            const int r = e / IW, c = e - r * IW;
            if constexpr (S == 0 && sizeof(In) == 1)
                s_v[r][c] = vif_vertical<S, uint32_t>(&s_x[r][c], &s_y[r][c], IW, vp, vq);
            else
                s_v[r][c] = one_column && j0 - R + c != 0
                                ? leftover
                                : vif_vertical<S>(&s_x[r][c], &s_y[r][c], IW, vp, vq);
        }
    }
    // Vertical low-pass of scale S + 1 at the even rows 2r: taps from tile
    // row 2r + R - RN; entry c holds column j0 - RN + c.
    if constexpr (S < 3) {
        const int sh = vif_down_shift(S + 1, p.bpc);
        for (int e = tid; e < DH * DW; e += kThreads) {
            const int r = e / DW, c = e - r * DW;
            s_tx[r][c] = vif_lowpass<S + 1>(&s_x[2 * r + R - RN][c + R - RN], IW, sh);
            s_ty[r][c] = vif_lowpass<S + 1>(&s_y[2 * r + R - RN][c + R - RN], IW, sh);
        }
    }
    __syncthreads();

    // 3. Horizontal filter and statistic of the tile's pixels; entry c of
    //    s_v holds column j0 - R + c, so pixel c reads entries c .. c + 2R.
    VifPartial part = {0, 0, 0, 0};
    if (stats) {
        for (int e = tid; e < kTileH * kTileW; e += kThreads) {
            const int r = e / kTileW, c = e - r * kTileW;
            if (i0 + r < h && j0 + c < w) {
                VifVert win[2 * R + 1];
                VIF_UNROLL
                for (int k = 0; k <= 2 * R; k++)
                    win[k] = load_vert(&s_v[r][c + k]);
                vif_pixel(vif_horizontal<S>(win), p.egl, table, part);
            }
        }
    }
    // Horizontal low-pass at the even columns: scale S + 1 at (y, x) is the
    // low-passed scale S at (2y, 2x).
    if constexpr (S < 3) {
        const int wn = p.w[S + 1], hn = p.h[S + 1];
        for (int e = tid; e < DH * (kTileW / 2); e += kThreads) {
            const int r = e / (kTileW / 2), c = e - r * (kTileW / 2);
            const int y = i0 / 2 + r, x = j0 / 2 + c;
            if (y < hn && x < wn) {
                const ptrdiff_t o = static_cast<ptrdiff_t>(y) * wn + x;
                io.next[0][o] = vif_lowpass<S + 1>(&s_tx[r][2 * c], 1, 16);
                io.next[1][o] = vif_lowpass<S + 1>(&s_ty[r][2 * c], 1, 16);
            }
        }
    }

    // 4. Exact block sums (every thread calls them), one atomic per value.
    if (stats) {
        long long v[4] = {part.num_log, part.den_log, part.num_nonlog, part.den_nonlog};
        for (int k = 0; k < 4; k++)
            v[k] = gpu_block_sum(v[k]);
        if (tid == 0) {
            long long *dst[4] = {reinterpret_cast<long long *>(&out->num_log[S]),
                                 reinterpret_cast<long long *>(&out->den_log[S]),
                                 reinterpret_cast<long long *>(&out->num_nonlog[S]),
                                 reinterpret_cast<long long *>(&out->den_nonlog[S])};
            for (int k = 0; k < 4; k++)
                if (v[k])
                    gpu_atomic_add_i64(dst[k], v[k]);
        }
    }
}

dim3 grid_of(const VifParams &p, int s)
{
    return grid_covering(p.w[s], p.h[s], kTileW, kTileH);
}

} // namespace

size_t vif_workspace_bytes(const VifParams &p) { return layout_of(p, nullptr).bytes; }

void vif_enqueue(hipStream_t stream, const VifParams &p, const GpuFrame &f, const uint16_t *d_log2,
                 void *workspace, VifAccum *d_out)
{
    const Pictures pic = layout_of(p, static_cast<uint8_t *>(workspace));
    ScaleIO io = {};
    // Scale 0 from the luma planes (stored with pitch = width).
    io.in[0] = f.ref[0].data;
    io.in[1] = f.dis[0].data;
    io.next[0] = pic.img[1][0];
    io.next[1] = pic.img[1][1];
    if (p.bpc > 8)
        scale_kernel<0, uint16_t><<<grid_of(p, 0), kThreads, 0, stream>>>(p, io, d_log2, d_out);
    else
        scale_kernel<0, uint8_t><<<grid_of(p, 0), kThreads, 0, stream>>>(p, io, d_log2, d_out);
    // Scales 1-3 from the workspace pictures.
    for (int s = 1; s < VIF_SCALES; s++) {
        for (int k = 0; k < 2; k++) {
            io.in[k] = pic.img[s][k];
            io.next[k] = s < 3 ? pic.img[s + 1][k] : nullptr;
            io.prev[k] = s == 3 ? pic.img[2][k] : nullptr;
        }
        if (s == 1)
            scale_kernel<1, uint16_t><<<grid_of(p, 1), kThreads, 0, stream>>>(p, io, d_log2, d_out);
        else if (s == 2)
            scale_kernel<2, uint16_t><<<grid_of(p, 2), kThreads, 0, stream>>>(p, io, d_log2, d_out);
        else
            scale_kernel<3, uint16_t><<<grid_of(p, 3), kThreads, 0, stream>>>(p, io, d_log2, d_out);
    }
}

} // namespace vmafhip
