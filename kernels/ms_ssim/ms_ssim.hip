// float_ms_ssim kernels (docs/ms_ssim.md §2-§3, §9). The decimated samples go
// through kernels/ms_ssim/ms_ssim_ops.h, the arithmetic of the CPU reference,
// so every scale's planes are the CPU's to the bit; each scale's map sums are
// float_ssim's kernels (kernels/ssim), whose double sums differ from the
// CPU's only in order. Every § below is a section of docs/ms_ssim.md.
//
// Per frame, on one stream: the map sums of scale 0 straight from the staged
// luma planes; scale 1 decimated from them (normalised on read, §2); then
// for scales 1 to 4 their map sums and, but for the last, the next scale
// decimated from them. Scales 1 and 3 share one pair of float planes, 2 and
// 4 another; the map partials are one area, reused scale after scale.
#include "kernels/ms_ssim/ms_ssim.h"

#include <cstdint>

#include "kernels/device/launch.h"
#include "kernels/ssim/ssim.h"

namespace vmafhip {

namespace {

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;

// §3.2: one thread per output sample, reference and distorted together. No
// barrier, so threads outside the plane may leave.
template <typename T, int BPC>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    decimate_kernel(const T *ref, const T *dis, int w, int h, int ow, int oh, float *out_r,
                    float *out_d)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= ow || y >= oh)
        return;
    const size_t o = static_cast<size_t>(y) * ow + x;
    out_r[o] = ms_ssim_decimate_sample(ref, w, h, BPC, x, y);
    out_d[o] = ms_ssim_decimate_sample(dis, w, h, BPC, x, y);
}

template <typename T, int BPC>
void decimate(hipStream_t stream, const T *ref, const T *dis, int w, int h, float *out_r,
              float *out_d)
{
    const int ow = ms_ssim_half(w), oh = ms_ssim_half(h);
    const dim3 grid = grid_covering(ow, oh, kThreadsX, kThreadsY);
    decimate_kernel<T, BPC><<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(ref, dis, w, h, ow, oh,
                                                                             out_r, out_d);
}

// The workspace: the map partials (sized for scale 0, the largest), then the
// float planes of scales 1 and 2 (ref, dis each), which scales 3 and 4 reuse.
struct Layout {
    size_t plane_off[2][2]; // [scale 1 or 2][ref, dis]
    size_t bytes;
};

Layout layout_of(const MsSsimSizes &sz)
{
    Layout L = {};
    size_t off = workspace_align(ssim_map_workspace_bytes(sz.w[0], sz.h[0]));
    for (int s = 0; s < 2; s++) {
        const size_t plane =
            workspace_align(sizeof(float) * static_cast<size_t>(sz.w[s + 1]) * sz.h[s + 1]);
        L.plane_off[s][0] = off;
        L.plane_off[s][1] = off + plane;
        off += 2 * plane;
    }
    L.bytes = off;
    return L;
}

template <typename T, int BPC>
void enqueue_t(hipStream_t stream, const MsSsimSizes &sz, const GpuFrame &f, uint8_t *ws,
               MsSsimAccum *d_out)
{
    const Layout L = layout_of(sz);
    float *plane[2][2];
    for (int s = 0; s < 2; s++)
        for (int p = 0; p < 2; p++)
            plane[s][p] = reinterpret_cast<float *>(ws + L.plane_off[s][p]);
    ssim_map_sums_enqueue(stream, f.ref[0], f.dis[0], BPC, ws, &d_out->scale[0]);
    decimate<T, BPC>(stream, reinterpret_cast<const T *>(f.ref[0].data),
                     reinterpret_cast<const T *>(f.dis[0].data), sz.w[0], sz.h[0], plane[0][0],
                     plane[0][1]);
    for (int i = 1; i < MS_SSIM_SCALES; i++) {
        float *const *cur = plane[(i - 1) & 1];
        ssim_map_sums_float_enqueue(stream, cur[0], cur[1], sz.w[i], sz.h[i], ws,
                                    &d_out->scale[i]);
        if (i + 1 < MS_SSIM_SCALES) {
            float *const *next = plane[i & 1];
            decimate<float, 8>(stream, cur[0], cur[1], sz.w[i], sz.h[i], next[0], next[1]);
        }
    }
}

} // namespace

size_t ms_ssim_workspace_bytes(const MsSsimSizes &sz) { return layout_of(sz).bytes; }

void ms_ssim_enqueue(hipStream_t stream, const MsSsimSizes &sz, const GpuFrame &f, void *workspace,
                     MsSsimAccum *d_out)
{
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    switch (f.bpc) {
    case 8: enqueue_t<uint8_t, 8>(stream, sz, f, ws, d_out); break;
    case 10: enqueue_t<uint16_t, 10>(stream, sz, f, ws, d_out); break;
    case 12: enqueue_t<uint16_t, 12>(stream, sz, f, ws, d_out); break;
    default: enqueue_t<uint16_t, 16>(stream, sz, f, ws, d_out); break;
    }
}

} // namespace vmafhip
