// ciede kernels (docs/ciede.md §2-§5, §7; § numbers are its sections).
// Per frame, on one stream:
//   pixel_kernel   one thread per pixel: its two colours (§2) and their
//                  difference through kernels/ciede/ciede_ops.h, the CPU's
//                  arithmetic with the device's libm (§7), into a float plane
//   ordered sum    kernels/device/ordered_sum.h: the plane's values added
//                  into one double in raster order, as libvmaf adds them, to
//                  the bit; chunks whose sums are exact are added at once
#include "kernels/ciede/ciede.h"

#include <cstdint>

#include "kernels/device/launch.h"
#include "kernels/device/ordered_sum.h"

namespace vmafhip {

namespace {

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;

template <typename T>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    pixel_kernel(GpuFrame f, int ss, int powf_kind, float *out)
{
    const int w = f.ref[0].w, h = f.ref[0].h;
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= w || y >= h)
        return;
    const size_t luma = static_cast<size_t>(y) * w + x;
    const size_t chroma = static_cast<size_t>(y >> ss) * f.ref[1].w + (x >> ss);
    const T *r[3], *d[3];
    for (int p = 0; p < 3; p++) {
        r[p] = reinterpret_cast<const T *>(f.ref[p].data);
        d[p] = reinterpret_cast<const T *>(f.dis[p].data);
    }
    out[luma] = ciede_pixel(r[0][luma], r[1][chroma], r[2][chroma], d[0][luma], d[1][chroma],
                            d[2][chroma], f.bpc, powf_kind);
}

// The workspace: the differences (w x h floats), then the sum's chunk records.
struct Layout {
    size_t chunks_off, bytes;
};

Layout layout_of(int w, int h)
{
    const size_t n = static_cast<size_t>(w) * h;
    Layout L;
    L.chunks_off = workspace_align(sizeof(float) * n);
    L.bytes = L.chunks_off +
              workspace_align(sizeof(OrderedChunk<double>) * (ordered_chunks(n) + 1));
    return L;
}

} // namespace

size_t ciede_workspace_bytes(int w, int h) { return layout_of(w, h).bytes; }

void ciede_enqueue(hipStream_t stream, const GpuFrame &f, int ss, int powf_kind, void *workspace,
                   CiedeAccum *d_out)
{
    const int w = f.ref[0].w, h = f.ref[0].h;
    const Layout L = layout_of(w, h);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    float *de = reinterpret_cast<float *>(ws);
    const dim3 grid = grid_covering(w, h, kThreadsX, kThreadsY);
    if (f.bpc > 8)
        pixel_kernel<uint16_t><<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(f, ss, powf_kind, de);
    else
        pixel_kernel<uint8_t><<<grid, dim3(kThreadsX, kThreadsY), 0, stream>>>(f, ss, powf_kind, de);
    // CiedeAccum is one double: the ordered sum writes it.
    ordered_sum_enqueue(stream, de, static_cast<size_t>(w) * h,
                        reinterpret_cast<OrderedChunk<double> *>(ws + L.chunks_off), &d_out->sum);
}

} // namespace vmafhip
