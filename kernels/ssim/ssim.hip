// float_ssim kernels (docs/ssim.md §2-§6, §11). Every per-pixel value goes
// through kernels/ssim/ssim_ops.h, the arithmetic the CPU reference uses, so
// the decimated planes, the five filtered planes and each pixel's
// (ssim, l, c, s) are the CPU's to the bit. Only the order of the double sums
// over the map differs; it is fixed (thread order, then block order), so a
// frame gives the same bits on every run. Every § below is a section of
// docs/ssim.md.
//
// Per frame, on one stream, always the same launches for a given context:
//   1. decimate_kernel (only when scale > 1): luma of ref and dis, normalised
//      and box-decimated, into two float planes of the workspace. Each
//      full-resolution sample is read once (the taps of neighbouring anchors
//      do not overlap).
//   2. map_kernel: one block per 32x16 tile of the SSIM map. The tile's
//      (32+10)x(16+10) input samples go to shared memory (with scale 1 read
//      and normalised straight from the staged planes), the horizontal pass
//      of the five moments to shared memory, then the vertical pass, the
//      pixel SSIM and a block sum of (ssim, l, c, s) into one partial per
//      block in the workspace.
//   3. sum_kernel: one block adds the partials in a fixed order into *d_out,
//      which it always writes in full.
#include "kernels/ssim/ssim.h"

#include <cstdint>

#include "kernels/ssim/ssim_ops.h"
#include "kernels/device/block.h"
#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kHalo = SSIM_TAPS - 1;  // 10: an 11-tap window needs 10 more samples
constexpr int kTileW = 32;            // map pixels per block, x
constexpr int kTileH = 16;            // map pixels per block, y
constexpr int kInW = kTileW + kHalo;  // input samples per block, x
constexpr int kInH = kTileH + kHalo;  // input samples per block, y
constexpr int kThreadsX = 32;         // block shape of map_kernel and decimate_kernel
constexpr int kThreadsY = 8;
constexpr int kThreads = kThreadsX * kThreadsY;
constexpr int kSumThreads = 1024;     // sum_kernel: one block

static_assert(kThreadsX == kTileW, "map_kernel: one thread per tile column in the vertical pass");
static_assert(kTileH % kThreadsY == 0, "map_kernel: whole rows of the tile per thread row");

// §2, §4.3: one thread per decimated sample, ref and dis together. The taps
// are ssim_decimate_sample()'s, in its order (rows outer, columns inner,
// ascending), one double accumulator per plane. No barrier or shuffle here,
// so threads outside the plane may simply leave.
template <typename T, int BPC>
__global__ void __launch_bounds__(kThreads)
    decimate_kernel(const T *ref, const T *dis, int w, int h, int f, int dw, int dh, float *out_r,
                    float *out_d)
{
    const int xo = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int yo = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (xo >= dw || yo >= dh)
        return;
    const float k = ssim_decimate_weight(f);
    const int lo = ssim_decimate_first_tap(f), hi = ssim_decimate_last_tap(f);
    const int ax = xo * f, ay = yo * f;
    double ar = 0.0, ad = 0.0;
    for (int dy = lo; dy <= hi; dy++) {
        const ptrdiff_t row = static_cast<ptrdiff_t>(ssim_mirror(ay + dy, h)) * w;
        for (int dx = lo; dx <= hi; dx++) {
            const ptrdiff_t i = row + ssim_mirror(ax + dx, w);
            ar = ssim_decimate_acc(ar, ssim_normalise(ref[i], BPC), k);
            ad = ssim_decimate_acc(ad, ssim_normalise(dis[i], BPC), k);
        }
    }
    const size_t o = static_cast<size_t>(yo) * dw + xo;
    out_r[o] = static_cast<float>(ar);
    out_d[o] = static_cast<float>(ad);
}

// §5, §6: one 32x16 tile of the map per block of 32x8 threads. ref/dis are
// w x h planes: raw samples (scale 1, normalised here with BPC) or the
// decimated floats (T = float, BPC = 8: ssim_normalise is then the identity).
// Map pixel (mx, my) reads samples [mx, mx+10] x [my, my+10], all inside the
// plane when mx < w-10 and my < h-10; samples of the tile outside the plane
// are 0 and only reach map pixels outside the map, which are not computed.
// Every thread reaches every __syncthreads() and the block sums.
template <typename T, int BPC>
__global__ void __launch_bounds__(kThreads)
    map_kernel(const T *ref, const T *dis, int w, int h, SsimAccum *partial)
{
    __shared__ float s_r[kInH][kInW];
    __shared__ float s_d[kInH][kInW];
    __shared__ float s_h[5][kInH][kTileW]; // horizontal pass: mu1, mu2, e11, e22, e12

    const int mw = w - kHalo, mh = h - kHalo;
    const int x0 = static_cast<int>(blockIdx.x) * kTileW;
    const int y0 = static_cast<int>(blockIdx.y) * kTileH;
    const int tid = static_cast<int>(threadIdx.x) + kThreadsX * static_cast<int>(threadIdx.y);

    // Input tile: plane rows y0 .. y0+kInH-1, columns x0 .. x0+kInW-1.
    for (int i = tid; i < kInH * kInW; i += kThreads) {
        const int ty = i / kInW, tx = i - ty * kInW;
        const int y = y0 + ty, x = x0 + tx;
        float r = 0.0f, d = 0.0f;
        if (x < w && y < h) {
            const size_t o = static_cast<size_t>(y) * w + x;
            r = ssim_normalise(ref[o], BPC);
            d = ssim_normalise(dis[o], BPC);
        }
        s_r[ty][tx] = r;
        s_d[ty][tx] = d;
    }
    __syncthreads();

    // Horizontal pass of the five planes: every tile row, kTileW columns
    // (the CPU's hp[] planes, restricted to the tile).
    for (int i = tid; i < kInH * kTileW; i += kThreads) {
        const int ty = i / kTileW, tx = i - ty * kTileW;
        const SsimMoments m = ssim_hpass5(&s_r[ty][tx], &s_d[ty][tx], 1);
        s_h[0][ty][tx] = m.mu1;
        s_h[1][ty][tx] = m.mu2;
        s_h[2][ty][tx] = m.e11;
        s_h[3][ty][tx] = m.e22;
        s_h[4][ty][tx] = m.e12;
    }
    __syncthreads();

    // Vertical pass and pixel SSIM: thread column tx, tile rows ty, ty+8.
    double a_ssim = 0.0, a_l = 0.0, a_c = 0.0, a_s = 0.0;
    const int tx = static_cast<int>(threadIdx.x);
    for (int ty = static_cast<int>(threadIdx.y); ty < kTileH; ty += kThreadsY) {
        if (x0 + tx < mw && y0 + ty < mh) {
            const SsimPixel p = ssim_pixel(ssim_filter11(&s_h[0][ty][tx], kTileW),
                                           ssim_filter11(&s_h[1][ty][tx], kTileW),
                                           ssim_filter11(&s_h[2][ty][tx], kTileW),
                                           ssim_filter11(&s_h[3][ty][tx], kTileW),
                                           ssim_filter11(&s_h[4][ty][tx], kTileW));
            a_ssim += p.ssim;
            a_l += p.l;
            a_c += p.c;
            a_s += p.s;
        }
    }
    a_ssim = gpu_block_sum(a_ssim);
    a_l = gpu_block_sum(a_l);
    a_c = gpu_block_sum(a_c);
    a_s = gpu_block_sum(a_s);
    if (tid == 0)
        partial[blockIdx.y * gridDim.x + blockIdx.x] = SsimAccum{a_ssim, a_l, a_c, a_s};
}

// §6, §11: the n block partials, each thread a fixed stride of them in ascending
// order, then the fixed block reduction. n = 0 writes zeros.
__global__ void __launch_bounds__(kSumThreads)
    sum_kernel(const SsimAccum *partial, int n, SsimAccum *out)
{
    const int tid = static_cast<int>(threadIdx.x);
    double a_ssim = 0.0, a_l = 0.0, a_c = 0.0, a_s = 0.0;
    for (int i = tid; i < n; i += kSumThreads) {
        a_ssim += partial[i].ssim;
        a_l += partial[i].l;
        a_c += partial[i].c;
        a_s += partial[i].s;
    }
    a_ssim = gpu_block_sum(a_ssim);
    a_l = gpu_block_sum(a_l);
    a_c = gpu_block_sum(a_c);
    a_s = gpu_block_sum(a_s);
    if (tid == 0)
        *out = SsimAccum{a_ssim, a_l, a_c, a_s};
}

// The map sums of a w x h pair (§5, §6): map_kernel's block partials at
// the start of ws, then sum_kernel into *d_out, which is written even when the
// map is empty.
struct MapGrid {
    int gx, gy; // map_kernel grid (0 when the map is empty)
};

MapGrid map_grid(int w, int h)
{
    const int mw = w - kHalo, mh = h - kHalo;
    if (mw <= 0 || mh <= 0)
        return MapGrid{0, 0};
    return MapGrid{(mw + kTileW - 1) / kTileW, (mh + kTileH - 1) / kTileH};
}

size_t map_bytes(int w, int h)
{
    const MapGrid g = map_grid(w, h);
    // at least one slot, so the pointer is always valid
    return workspace_align(sizeof(SsimAccum) * (static_cast<size_t>(g.gx) * g.gy + 1));
}

template <typename T, int BPC>
void map_sums(hipStream_t stream, const T *ref, const T *dis, int w, int h, void *ws, SsimAccum *d_out)
{
    const MapGrid g = map_grid(w, h);
    SsimAccum *partial = static_cast<SsimAccum *>(ws);
    if (g.gx > 0)
        map_kernel<T, BPC><<<dim3(static_cast<unsigned>(g.gx), static_cast<unsigned>(g.gy)),
                             dim3(kThreadsX, kThreadsY), 0, stream>>>(ref, dis, w, h, partial);
    sum_kernel<<<1, kSumThreads, 0, stream>>>(partial, g.gx * g.gy, d_out);
}

// The workspace of ssim_enqueue(): the map's partials, then (scale > 1) the
// decimated ref/dis planes.
struct Layout {
    size_t plane_off[2];
    size_t bytes;
};

Layout layout_of(const SsimParams &m)
{
    Layout L = {};
    size_t off = map_bytes(m.dec_w, m.dec_h);
    if (m.scale > 1) {
        const size_t plane =
            workspace_align(sizeof(float) * static_cast<size_t>(m.dec_w) * m.dec_h);
        L.plane_off[0] = off;
        L.plane_off[1] = off + plane;
        off += 2 * plane;
    }
    L.bytes = off;
    return L;
}

template <typename T, int BPC>
void enqueue_t(hipStream_t stream, const SsimParams &m, const GpuFrame &f, uint8_t *ws, SsimAccum *d_out)
{
    const T *ref = reinterpret_cast<const T *>(f.ref[0].data);
    const T *dis = reinterpret_cast<const T *>(f.dis[0].data);
    if (m.scale == 1) {
        map_sums<T, BPC>(stream, ref, dis, f.ref[0].w, f.ref[0].h, ws, d_out);
        return;
    }
    const Layout L = layout_of(m);
    const int dw = m.dec_w, dh = m.dec_h;
    float *r = reinterpret_cast<float *>(ws + L.plane_off[0]);
    float *d = reinterpret_cast<float *>(ws + L.plane_off[1]);
    if (map_grid(dw, dh).gx > 0) {
        const dim3 dgrid = grid_covering(dw, dh, kThreadsX, kThreadsY);
        decimate_kernel<T, BPC><<<dgrid, dim3(kThreadsX, kThreadsY), 0, stream>>>(
            ref, dis, f.ref[0].w, f.ref[0].h, m.scale, dw, dh, r, d);
    }
    map_sums<float, 8>(stream, r, d, dw, dh, ws, d_out);
}

} // namespace

size_t ssim_workspace_bytes(const SsimParams &p) { return layout_of(p).bytes; }

void ssim_enqueue(hipStream_t stream, const SsimParams &m, const GpuFrame &f, void *workspace,
                  SsimAccum *d_out)
{
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    switch (f.bpc) {
    case 8: enqueue_t<uint8_t, 8>(stream, m, f, ws, d_out); break;
    case 10: enqueue_t<uint16_t, 10>(stream, m, f, ws, d_out); break;
    case 12: enqueue_t<uint16_t, 12>(stream, m, f, ws, d_out); break;
    default: enqueue_t<uint16_t, 16>(stream, m, f, ws, d_out); break;
    }
}

size_t ssim_map_workspace_bytes(int w, int h) { return map_bytes(w, h); }

void ssim_map_sums_enqueue(hipStream_t stream, const GpuPlane &ref, const GpuPlane &dis, int bpc,
                           void *workspace, SsimAccum *d_out)
{
    const int w = ref.w, h = ref.h;
    switch (bpc) {
    case 8: map_sums<uint8_t, 8>(stream, ref.data, dis.data, w, h, workspace, d_out); break;
    case 10:
        map_sums<uint16_t, 10>(stream, reinterpret_cast<const uint16_t *>(ref.data),
                               reinterpret_cast<const uint16_t *>(dis.data), w, h, workspace, d_out);
        break;
    case 12:
        map_sums<uint16_t, 12>(stream, reinterpret_cast<const uint16_t *>(ref.data),
                               reinterpret_cast<const uint16_t *>(dis.data), w, h, workspace, d_out);
        break;
    default:
        map_sums<uint16_t, 16>(stream, reinterpret_cast<const uint16_t *>(ref.data),
                               reinterpret_cast<const uint16_t *>(dis.data), w, h, workspace, d_out);
        break;
    }
}

void ssim_map_sums_float_enqueue(hipStream_t stream, const float *ref, const float *dis, int w,
                                 int h, void *workspace, SsimAccum *d_out)
{
    map_sums<float, 8>(stream, ref, dis, w, h, workspace, d_out);
}

} // namespace vmafhip
