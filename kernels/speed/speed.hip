// SpEED kernels (docs/speed.md §11): the pixel pass of each plane side, in
// three launches per frame, every value through kernels/speed/speed_ops.h,
// the arithmetic of the CPU code, in the same order of operations:
//   1. decimate: one thread per operating sample and side computes the
//      anti-alias filter at (16 i, 16 j) of the converted (or differenced)
//      plane, resampling each sample it reads on the fly (§5.1, §5.2);
//   2. band_pass: one thread per truncated sample and side subtracts the
//      low-pass filter (§5.3) and stores E in the side's accumulator block;
//   3. covariance: one block per side; 25 threads sum the means, then 325
//      threads each sum one entry of K, every sum one sequential loop in the
//      page's order (§5.4), and store K beside E.
// Nothing here sums across threads, so no order depends on the launch shape
// or the warp size. The host reads K and E back with the accumulators and
// runs §5.5 to §8 (extractors/speed/).
#include "kernels/speed/speed.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;
constexpr int kCovThreads = 384; // >= 325 entries, whole warps on 32- and 64-lane hardware
constexpr int kEntries = SPEED_NE * (SPEED_NE + 1) / 2;

static_assert(kThreads % 64 == 0 && kCovThreads % 64 == 0 && kCovThreads >= kEntries,
              "whole warps, one thread per covariance entry");

struct Sides {
    SpeedSideInput s[SPEED_MAX_SIDES];
};

/// The samples of one side as the filters read them (§2.1, §8 step 3).
template <typename T> struct PlaneSamples {
    const T *a, *b;
    int w, bpc;
    VMAFHIP_HD float operator()(int y, int x) const
    {
        const size_t o = static_cast<size_t>(y) * w + x;
        const float v = speed_sample(a[o], bpc);
        return b ? v - speed_sample(b[o], bpc) : v;
    }
};

/// The scaled plane (§5.1), one sample at a time.
template <typename Src> struct ScaledSamples {
    Src src;
    SpeedTables t;
    int tx, ty, normalise;
    VMAFHIP_HD float operator()(int y, int x) const
    {
        return speed_resample_at(src, t.xi + static_cast<size_t>(x) * tx,
                                 t.xw + static_cast<size_t>(x) * tx, tx,
                                 t.yi + static_cast<size_t>(y) * ty,
                                 t.yw + static_cast<size_t>(y) * ty, ty, normalise != 0);
    }
};

template <typename T, bool kResample>
__global__ void __launch_bounds__(kThreads)
    decimate_kernel(SpeedDims d, SpeedTables t, Sides sides, int bpc, float *dec)
{
    const int n = d.opw * d.oph;
    const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= n)
        return;
    const int side = static_cast<int>(blockIdx.y);
    const int i = k / d.opw, j = k - i * d.opw;
    const SpeedSideInput in = sides.s[side];
    const PlaneSamples<T> plane{reinterpret_cast<const T *>(in.a),
                                reinterpret_cast<const T *>(in.b), d.ow, bpc};
    float v;
    if (kResample)
        v = speed_filter_at(ScaledSamples<PlaneSamples<T>>{plane, t, d.tx, d.ty, d.normalise},
                            t.taps_a, d.wa, d.sw, d.sh, 16 * i, 16 * j);
    else
        v = speed_filter_at(plane, t.taps_a, d.wa, d.sw, d.sh, 16 * i, 16 * j);
    dec[static_cast<size_t>(side) * n + k] = v;
}

__global__ void __launch_bounds__(kThreads)
    band_pass_kernel(SpeedDims d, SpeedTables t, const float *dec, float *accum)
{
    const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.tw * d.th)
        return;
    const int side = static_cast<int>(blockIdx.y);
    const int i = k / d.tw, j = k - i * d.tw;
    const SpeedImage dv{dec + static_cast<size_t>(side) * d.opw * d.oph, d.opw};
    float *e = accum + side * speed_side_floats(d) + SPEED_NE * SPEED_NE;
    e[k] = dv(i, j) - speed_filter_at(dv, t.taps_l, d.wl, d.opw, d.oph, i, j);
}

__global__ void __launch_bounds__(kCovThreads) covariance_kernel(SpeedDims d, float *accum)
{
    __shared__ float mean[SPEED_NE];
    float *k = accum + static_cast<int>(blockIdx.x) * speed_side_floats(d);
    const float *e = k + SPEED_NE * SPEED_NE;
    const int tid = static_cast<int>(threadIdx.x);
    if (tid < SPEED_NE)
        mean[tid] = speed_mean(e, d.tw, tid, d.subw, d.subh);
    __syncthreads();
    if (tid >= kEntries)
        return;
    // Entry tid of the lower triangle, row by row: (a, b) with b <= a.
    int a = 0;
    while ((a + 1) * (a + 2) / 2 <= tid)
        a++;
    const int b = tid - a * (a + 1) / 2;
    const float c = speed_covariance(e, d.tw, a, b, mean[a], mean[b], d.subw, d.subh);
    k[a * SPEED_NE + b] = c;
    k[b * SPEED_NE + a] = c;
}

unsigned blocks(int n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

template <typename T>
void launch_decimate(hipStream_t stream, const SpeedDims &d, const SpeedTables &t,
                     const Sides &s, int n, int bpc, float *dec)
{
    const dim3 grid(blocks(d.opw * d.oph), static_cast<unsigned>(n));
    if (d.resample)
        decimate_kernel<T, true><<<grid, kThreads, 0, stream>>>(d, t, s, bpc, dec);
    else
        decimate_kernel<T, false><<<grid, kThreads, 0, stream>>>(d, t, s, bpc, dec);
}

} // namespace

size_t speed_workspace_bytes(const SpeedDims &d, int sides)
{
    return static_cast<size_t>(sides) * d.opw * d.oph * sizeof(float);
}

void speed_enqueue(hipStream_t stream, const SpeedDims &d, const SpeedTables &t,
                   const SpeedSideInput *sides, int n, int bpc, void *workspace, float *d_accum)
{
    Sides s{};
    for (int i = 0; i < n; i++)
        s.s[i] = sides[i];
    float *dec = static_cast<float *>(workspace);
    if (bpc > 8)
        launch_decimate<uint16_t>(stream, d, t, s, n, bpc, dec);
    else
        launch_decimate<uint8_t>(stream, d, t, s, n, bpc, dec);
    band_pass_kernel<<<dim3(blocks(d.tw * d.th), static_cast<unsigned>(n)), kThreads, 0, stream>>>(
        d, t, dec, d_accum);
    covariance_kernel<<<static_cast<unsigned>(n), kCovThreads, 0, stream>>>(d, d_accum);
}

} // namespace vmafhip
