// float_motion kernels (docs/float_motion.md §2, §3; § numbers are its
// sections). Per frame, on one stream, every value through
// kernels/float_motion/float_motion_ops.h and speed_ops.h, the CPU code's
// functions, in the same order of operations:
//   convert     one thread per sample: the luma as floats (§2, speed_sample)
//   vertical    one thread per sample: the blur's vertical pass (§2)
//   horizontal  one thread per sample: its horizontal pass (§2)
//               (the three for the previous picture, then for the current one)
//   resample    motion_add_scale1: one thread per half-size sample of each
//               blurred picture (§3.2, speed_resample_at)
//   row_sad     one thread per row: Σ |a - b| in float, left to right (§3.1),
//               at full size and, with motion_add_scale1, at half size
//   score       one thread: the rows' sums in float, top to bottom, divided
//               by (float)(w * h), plus the half-size mean (§3.1, §3.2)
// Nothing sums across threads, so no value depends on the launch shape or
// the warp size.
#include "kernels/float_motion/float_motion.h"

#include <cstdint>

#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;
constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;

template <typename T>
__global__ void __launch_bounds__(kThreads) convert_kernel(const T *in, size_t n, int bpc, float *out)
{
    const size_t k = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (k < n)
        out[k] = speed_sample(in[k], bpc);
}

__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    vertical_kernel(const float *in, const float *taps, int fw, int w, int h, float *out)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x < w && y < h)
        out[static_cast<size_t>(y) * w + x] = fmotion_vertical(in, taps, fw, w, h, y, x);
}

__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    horizontal_kernel(const float *in, const float *taps, int fw, int w, int h, float *out)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x < w && y < h)
        out[static_cast<size_t>(y) * w + x] =
            fmotion_horizontal(in + static_cast<size_t>(y) * w, taps, fw, w, x);
}

__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    resample_kernel(const float *in, FmotionDims d, FmotionTables t, float *out)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= d.sw || y >= d.sh)
        return;
    const size_t cx = static_cast<size_t>(x) * d.tx, cy = static_cast<size_t>(y) * d.ty;
    out[static_cast<size_t>(y) * d.sw + x] =
        speed_resample_at(FmotionScale1Reads{in, d.w, d.own_pitch, d.buffer_pitch}, t.xi + cx, t.xw + cx, d.tx, t.yi + cy, t.yw + cy,
                          d.ty, d.normalise != 0);
}

__global__ void __launch_bounds__(kThreads)
    row_sad_kernel(const float *a, const float *b, int w, int h, float *rows)
{
    const int y = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (y < h)
        rows[y] = fmotion_row_sad(a + static_cast<size_t>(y) * w, b + static_cast<size_t>(y) * w, w);
}

__global__ void score_kernel(const float *rows, const float *half_rows, FmotionDims d, double *out)
{
    if (blockIdx.x == 0 && threadIdx.x == 0)
        *out = static_cast<double>(fmotion_score(rows, d.w, d.h, half_rows, d.sw, d.sh));
}

// The workspace: the two pictures (converted, then blurred in place of the
// conversion), the vertical pass, the row sums; with motion_add_scale1 the
// two half-size pictures and their row sums.
struct Layout {
    size_t a, b, t, rows, ha, hb, hrows, bytes;
};

Layout layout_of(const FmotionDims &d)
{
    const size_t n = static_cast<size_t>(d.w) * d.h;
    const size_t hn = d.add_scale1 ? static_cast<size_t>(d.sw) * d.sh : 0;
    Layout L{};
    WorkspaceSections sections;
    const auto take = [&sections](size_t floats) { return sections.take(sizeof(float) * floats); };
    L.a = take(n);
    L.b = take(n);
    L.t = take(n);
    L.rows = take(static_cast<size_t>(d.h));
    L.ha = take(hn);
    L.hb = take(hn);
    L.hrows = take(d.add_scale1 ? static_cast<size_t>(d.sh) : 0);
    L.bytes = sections.bytes;
    return L;
}

/// §2: plane (d.w x d.h samples of T) converted into pic, then blurred in
/// place, through t (the vertical pass).
template <typename T>
void blur(hipStream_t stream, const FmotionDims &d, const float *taps, const GpuPlane &plane,
          int bpc, float *pic, float *t)
{
    const size_t n = static_cast<size_t>(d.w) * d.h;
    convert_kernel<T><<<blocks_covering(n, kThreads), kThreads, 0, stream>>>(
        reinterpret_cast<const T *>(plane.data), n, bpc, pic);
    const dim3 block(kThreadsX, kThreadsY);
    const dim3 grid = grid_covering(d.w, d.h, kThreadsX, kThreadsY);
    vertical_kernel<<<grid, block, 0, stream>>>(pic, taps, d.fw, d.w, d.h, t);
    horizontal_kernel<<<grid, block, 0, stream>>>(t, taps, d.fw, d.w, d.h, pic);
}

} // namespace

size_t fmotion_workspace_bytes(const FmotionDims &d) { return layout_of(d).bytes; }

void fmotion_enqueue(hipStream_t stream, const FmotionDims &d, const FmotionTables &t,
                     const GpuPlane &prev, const GpuPlane &cur, int bpc, void *workspace,
                     double *d_score)
{
    const Layout L = layout_of(d);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    const auto at = [ws](size_t off) { return reinterpret_cast<float *>(ws + off); };
    float *a = at(L.a), *b = at(L.b), *tmp = at(L.t), *rows = at(L.rows);
    if (bpc > 8) {
        blur<uint16_t>(stream, d, t.taps, prev, bpc, a, tmp);
        blur<uint16_t>(stream, d, t.taps, cur, bpc, b, tmp);
    } else {
        blur<uint8_t>(stream, d, t.taps, prev, bpc, a, tmp);
        blur<uint8_t>(stream, d, t.taps, cur, bpc, b, tmp);
    }
    row_sad_kernel<<<blocks_covering(static_cast<size_t>(d.h), kThreads), kThreads, 0, stream>>>(
        a, b, d.w, d.h, rows);
    float *hrows = nullptr;
    if (d.add_scale1) {
        float *ha = at(L.ha), *hb = at(L.hb);
        hrows = at(L.hrows);
        const dim3 block(kThreadsX, kThreadsY);
        const dim3 half = grid_covering(d.sw, d.sh, kThreadsX, kThreadsY);
        resample_kernel<<<half, block, 0, stream>>>(a, d, t, ha);
        resample_kernel<<<half, block, 0, stream>>>(b, d, t, hb);
        row_sad_kernel<<<blocks_covering(static_cast<size_t>(d.sh), kThreads), kThreads, 0,
                         stream>>>(ha, hb, d.sw, d.sh, hrows);
    }
    score_kernel<<<1, 1, 0, stream>>>(rows, hrows, d, d_score);
}

} // namespace vmafhip
