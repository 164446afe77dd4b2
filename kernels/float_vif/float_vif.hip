// float_vif kernels (docs/float_vif.md §7; § numbers are its sections). Per
// frame, on one stream, every value through kernels/speed/speed_ops.h (the
// conversion, the prescale, the filter's tap loops) and
// kernels/float_vif/float_vif_ops.h (the five operands, the statistic and
// its logarithm), the functions the CPU code runs, in its order:
//   convert      one thread per scale-0 sample and picture: the luma as a
//                float minus 128, resampled where the size changes (§2)
//   per scale s > 0, the decimation of both pictures (§3.3):
//     dec_vertical    one thread per column of each kept row (2y): the
//                     vertical pass of scale s's filter over scale s-1
//     dec_horizontal  one thread per kept sample (2x): the horizontal pass
//   per scale computed (not scale 0 with vif_skip_scale0):
//     vertical     one thread per sample: the vertical passes of the five
//                  operands (§3.2)
//     statistic    one thread per sample: the five horizontal passes and the
//                  statistic (§4) into a num and a den plane
//     row_sums     one thread per row: its num and den, each in float from 0,
//                  left to right
//     total        one thread: the rows' sums in float, top to bottom, into
//                  the accumulator as doubles
// Nothing here sums across threads, so no value depends on the launch shape
// or the warp size.
#include "kernels/float_vif/float_vif.h"

#include "kernels/device/launch.h"
#include "kernels/speed/speed_ops.h"

namespace vmafhip {

namespace {

constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;
constexpr int kThreads = 256; // row sums

/// The size of each scale: scale 0 the prescaled size, then halved (§3.3).
struct ScaleSizes {
    int w[FLOAT_VIF_SCALES], h[FLOAT_VIF_SCALES];
};

ScaleSizes scale_sizes(const FvifDims &d)
{
    ScaleSizes z;
    z.w[0] = d.sw;
    z.h[0] = d.sh;
    for (int s = 1; s < FLOAT_VIF_SCALES; s++) {
        z.w[s] = z.w[s - 1] / 2;
        z.h[s] = z.h[s - 1] / 2;
    }
    return z;
}

/// The workspace, all floats: both pictures at each scale, the vertical
/// passes (five scale-0 planes, reused by every scale and decimation), the
/// num and den planes, and the rows' sums.
struct Layout {
    size_t ref[FLOAT_VIF_SCALES], dis[FLOAT_VIF_SCALES];
    size_t vert, num, den, row_num, row_den, bytes;
};

Layout layout_of(const FvifDims &d)
{
    const ScaleSizes z = scale_sizes(d);
    Layout L{};
    WorkspaceSections sections;
    const auto take = [&sections](size_t floats) { return sections.take(sizeof(float) * floats); };
    for (int s = 0; s < FLOAT_VIF_SCALES; s++) {
        const size_t n = static_cast<size_t>(z.w[s]) * z.h[s];
        L.ref[s] = take(n);
        L.dis[s] = take(n);
    }
    const size_t n0 = static_cast<size_t>(d.sw) * d.sh;
    L.vert = take(FVIF_IMAGES * n0);
    L.num = take(n0);
    L.den = take(n0);
    L.row_num = take(static_cast<size_t>(d.sh));
    L.row_den = take(static_cast<size_t>(d.sh));
    L.bytes = sections.bytes;
    return L;
}

/// The luma of a staged plane as floats (§2), one sample at a time.
template <typename T> struct PlaneSamples {
    const T *p;
    int w, bpc;
    VMAFHIP_HD float operator()(int y, int x) const
    {
        return speed_sample(p[static_cast<size_t>(y) * w + x], bpc);
    }
};

/// Operand k of the five images (§3.2) at (y, x) of two w-wide planes.
struct Operand {
    const float *ref, *dis;
    int w, k;
    VMAFHIP_HD float operator()(int y, int x) const
    {
        const size_t o = static_cast<size_t>(y) * w + x;
        return fvif_operand(k, ref[o], dis[o]);
    }
};

/// blockIdx.z: 0 the reference picture, 1 the distorted one.
template <typename T, bool kResample>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    convert_kernel(FvifDims d, FvifTables t, const uint8_t *ref, const uint8_t *dis, int bpc,
                   float *out_ref, float *out_dis)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= d.sw || y >= d.sh)
        return;
    const bool is_ref = blockIdx.z == 0;
    const PlaneSamples<T> src{reinterpret_cast<const T *>(is_ref ? ref : dis), d.w, bpc};
    float v;
    if (kResample)
        v = speed_resample_at(src, t.xi + static_cast<size_t>(x) * d.tx,
                              t.xw + static_cast<size_t>(x) * d.tx, d.tx,
                              t.yi + static_cast<size_t>(y) * d.ty,
                              t.yw + static_cast<size_t>(y) * d.ty, d.ty, d.normalise != 0);
    else
        v = src(y, x);
    (is_ref ? out_ref : out_dis)[static_cast<size_t>(y) * d.sw + x] = v;
}

/// §3.3, vertical: row 2y of the sw x sh images src (z: ref, dis) filtered
/// down each column, into vert (z planes of dh rows of sw).
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    dec_vertical_kernel(const float *src_ref, const float *src_dis, int sw, int sh, int dh,
                        const float *taps, int fw, float *vert)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= sw || y >= dh)
        return;
    const bool is_ref = blockIdx.z == 0;
    const SpeedImage src{is_ref ? src_ref : src_dis, sw};
    float *out = vert + (is_ref ? 0 : static_cast<size_t>(sw) * dh);
    out[static_cast<size_t>(y) * sw + x] = speed_filter_col(src, taps, fw, sh, 2 * y, x);
}

/// §3.3, horizontal: sample 2x of each row of vert, into the dw x dh images.
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    dec_horizontal_kernel(const float *vert, int sw, int dw, int dh, const float *taps, int fw,
                          float *dst_ref, float *dst_dis)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= dw || y >= dh)
        return;
    const bool is_ref = blockIdx.z == 0;
    const float *row = vert + (is_ref ? 0 : static_cast<size_t>(sw) * dh) + static_cast<size_t>(y) * sw;
    (is_ref ? dst_ref : dst_dis)[static_cast<size_t>(y) * dw + x] =
        speed_filter_1d(SpeedRow{row}, taps, fw, sw, 2 * x);
}

/// §3.2: the vertical passes of the five operands at (y, x) of a w x h scale.
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    vertical_kernel(const float *ref, const float *dis, int w, int h, const float *taps, int fw,
                    float *vert)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= w || y >= h)
        return;
    const size_t n = static_cast<size_t>(w) * h, o = static_cast<size_t>(y) * w + x;
    for (int k = 0; k < FVIF_IMAGES; k++)
        vert[k * n + o] = speed_filter_col(Operand{ref, dis, w, k}, taps, fw, h, y, x);
}

/// §3.2, §4: the horizontal passes at (y, x) and the sample's statistic.
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    statistic_kernel(const float *vert, int w, int h, const float *taps, int fw, FvifStat stat,
                     float *num, float *den)
{
    const int x = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int y = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (x >= w || y >= h)
        return;
    const size_t n = static_cast<size_t>(w) * h, row = static_cast<size_t>(y) * w;
    float v[FVIF_IMAGES];
    for (int k = 0; k < FVIF_IMAGES; k++)
        v[k] = speed_filter_1d(SpeedRow{vert + k * n + row}, taps, fw, w, x);
    stat(v[FVIF_MU1], v[FVIF_MU2], v[FVIF_XX], v[FVIF_YY], v[FVIF_XY], &num[row + x], &den[row + x]);
}

/// §4: each row's num and den, float from 0, left to right.
__global__ void __launch_bounds__(kThreads)
    row_sums_kernel(const float *num, const float *den, int w, int h, float *row_num, float *row_den)
{
    const int y = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (y >= h)
        return;
    const size_t row = static_cast<size_t>(y) * w;
    float rn = 0.0f, rd = 0.0f;
    for (int x = 0; x < w; x++) {
        rn = rn + num[row + x];
        rd = rd + den[row + x];
    }
    row_num[y] = rn;
    row_den[y] = rd;
}

/// §4: the rows' sums, float from 0, top to bottom, into scale s's accumulators.
__global__ void total_kernel(const float *row_num, const float *row_den, int h, int s,
                             FloatVifAccum *accum)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    float an = 0.0f, ad = 0.0f;
    for (int y = 0; y < h; y++) {
        an = an + row_num[y];
        ad = ad + row_den[y];
    }
    accum->num[s] = an;
    accum->den[s] = ad;
}

dim3 grid_of(int w, int h, unsigned z)
{
    return grid_covering(w, h, kThreadsX, kThreadsY, z);
}

template <typename T>
void launch_convert(hipStream_t stream, const FvifDims &d, const FvifTables &t, const uint8_t *ref,
                    const uint8_t *dis, int bpc, float *out_ref, float *out_dis)
{
    const dim3 grid = grid_of(d.sw, d.sh, 2), block(kThreadsX, kThreadsY);
    if (d.resample)
        convert_kernel<T, true><<<grid, block, 0, stream>>>(d, t, ref, dis, bpc, out_ref, out_dis);
    else
        convert_kernel<T, false><<<grid, block, 0, stream>>>(d, t, ref, dis, bpc, out_ref, out_dis);
}

} // namespace

size_t float_vif_workspace_bytes(const FvifDims &d) { return layout_of(d).bytes; }

void float_vif_enqueue(hipStream_t stream, const FvifDims &d, const FvifTables &t,
                       const FvifStat &stat, const uint8_t *ref, const uint8_t *dis, int bpc,
                       void *workspace, FloatVifAccum *d_accum)
{
    const Layout L = layout_of(d);
    const ScaleSizes z = scale_sizes(d);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    const auto at = [ws](size_t off) { return reinterpret_cast<float *>(ws + off); };
    float *vert = at(L.vert), *num = at(L.num), *den = at(L.den);
    float *row_num = at(L.row_num), *row_den = at(L.row_den);
    const dim3 block(kThreadsX, kThreadsY);
    if (d.sw <= 0 || d.sh <= 0)
        return; // refused by the extractor's check(); nothing to launch
    if (bpc > 8)
        launch_convert<uint16_t>(stream, d, t, ref, dis, bpc, at(L.ref[0]), at(L.dis[0]));
    else
        launch_convert<uint8_t>(stream, d, t, ref, dis, bpc, at(L.ref[0]), at(L.dis[0]));
    for (int s = 0; s < FLOAT_VIF_SCALES; s++) {
        const int w = z.w[s], h = z.h[s], fw = d.fw[s];
        const float *taps = t.taps[s];
        if (w <= 0 || h <= 0)
            return; // refused by check(): every scale computed is at least 2x2
        float *ref_s = at(L.ref[s]), *dis_s = at(L.dis[s]);
        if (s > 0) {
            const int pw = z.w[s - 1], ph = z.h[s - 1];
            dec_vertical_kernel<<<grid_of(pw, h, 2), block, 0, stream>>>(
                at(L.ref[s - 1]), at(L.dis[s - 1]), pw, ph, h, taps, fw, vert);
            dec_horizontal_kernel<<<grid_of(w, h, 2), block, 0, stream>>>(vert, pw, w, h, taps, fw,
                                                                        ref_s, dis_s);
        }
        if (s == 0 && d.skip_scale0)
            continue; // §5: num 0, den 0 (the accumulator is zeroed)
        vertical_kernel<<<grid_of(w, h, 1), block, 0, stream>>>(ref_s, dis_s, w, h, taps, fw, vert);
        statistic_kernel<<<grid_of(w, h, 1), block, 0, stream>>>(vert, w, h, taps, fw, stat, num,
                                                                 den);
        row_sums_kernel<<<blocks_covering(h, kThreads), kThreads, 0,
                          stream>>>(num, den, w, h, row_num, row_den);
        total_kernel<<<1, 1, 0, stream>>>(row_num, row_den, h, s, d_accum);
    }
}

} // namespace vmafhip
