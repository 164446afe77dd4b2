// SpEED kernels (docs/speed.md §11): the pass of each plane side, in four
// launches per frame, every value through kernels/speed/speed_ops.h and
// speed_solve.h, the arithmetic of the CPU code, in the same order of
// operations:
//   1. decimate: one thread per operating sample and side computes the
//      anti-alias filter at (16 i, 16 j) of the converted (or differenced)
//      plane, resampling each sample it reads on the fly (§5.1, §5.2);
//   2. band_pass: one thread per truncated sample and side subtracts the
//      low-pass filter (§5.3): E;
//   3. covariance: one block per side; 25 threads sum the means, then 325
//      threads each sum one entry of K, every sum one sequential loop in the
//      page's order (§5.4);
//   4. estimate: one block per side runs speed_estimate() (§5.5 to §5.7):
//      the sequential steps (Householder vectors, the QR iteration of the
//      eigenvalues) on one thread, each matrix entry of the others on a
//      thread of its own, and writes the eigenvalues, the singular flag and
//      the block variances into the side's accumulator block.
// Nothing here sums across threads, so no value depends on the launch shape
// or the warp size. The host takes the logarithms (§5.8 to §8).
#include "kernels/speed/speed.h"

#include "kernels/device/launch.h"

#include "kernels/speed/speed_solve.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;
constexpr int kCovThreads = 384; // >= 325 entries, whole warps on 32- and 64-lane hardware
constexpr int kEntries = SPEED_NE * (SPEED_NE + 1) / 2;
constexpr int kSolveThreads = 640; // >= 625 entries of a 25x25 product

static_assert(kThreads % 64 == 0 && kCovThreads % 64 == 0 && kCovThreads >= kEntries &&
                  kSolveThreads % 64 == 0 && kSolveThreads >= SPEED_NE * SPEED_NE,
              "whole warps, one thread per covariance or matrix entry");

struct Sides {
    SpeedSideInput s[SPEED_MAX_SIDES];
};

/// One side's share of the workspace, all floats.
struct SideWork {
    float *dec; ///< D, opw x oph (§5.2)
    float *e;   ///< E, tw x th (§5.3)
    float *k;   ///< K, 25x25 (§5.4)
    float *y, *qy, *x; ///< 25 x nb each (§5.6)
};

VMAFHIP_HD size_t side_work_floats(const SpeedDims &d)
{
    return static_cast<size_t>(d.opw) * d.oph + static_cast<size_t>(d.tw) * d.th +
           SPEED_NE * SPEED_NE + 3 * static_cast<size_t>(SPEED_NE) * speed_blocks(d);
}

__device__ SideWork side_work(const SpeedDims &d, float *work, int side)
{
    const size_t nb = static_cast<size_t>(SPEED_NE) * speed_blocks(d);
    SideWork w;
    w.dec = work + side * side_work_floats(d);
    w.e = w.dec + static_cast<size_t>(d.opw) * d.oph;
    w.k = w.e + static_cast<size_t>(d.tw) * d.th;
    w.y = w.k + SPEED_NE * SPEED_NE;
    w.qy = w.y + nb;
    w.x = w.qy + nb;
    return w;
}

/// speed_estimate()'s team: the threads of one block.
struct BlockTeam {
    __device__ bool leader() const { return threadIdx.x == 0; }
    __device__ void sync() const { __syncthreads(); }
    template <typename F> __device__ void each(int n, F f) const
    {
        for (int i = static_cast<int>(threadIdx.x); i < n; i += static_cast<int>(blockDim.x))
            f(i);
    }
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
    decimate_kernel(SpeedDims d, SpeedTables t, Sides sides, int bpc, float *work)
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
    side_work(d, work, side).dec[k] = v;
}

__global__ void __launch_bounds__(kThreads)
    band_pass_kernel(SpeedDims d, SpeedTables t, float *work)
{
    const int k = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (k >= d.tw * d.th)
        return;
    const SideWork w = side_work(d, work, static_cast<int>(blockIdx.y));
    const int i = k / d.tw, j = k - i * d.tw;
    const SpeedImage dv{w.dec, d.opw};
    w.e[k] = dv(i, j) - speed_filter_at(dv, t.taps_l, d.wl, d.opw, d.oph, i, j);
}

__global__ void __launch_bounds__(kCovThreads) covariance_kernel(SpeedDims d, float *work)
{
    __shared__ float mean[SPEED_NE];
    const SideWork w = side_work(d, work, static_cast<int>(blockIdx.x));
    float *k = w.k;
    const float *e = w.e;
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

__global__ void __launch_bounds__(kSolveThreads) estimate_kernel(SpeedDims d, float *work, float *accum)
{
    __shared__ SpeedSolveScratch scratch;
    const int side = static_cast<int>(blockIdx.x);
    const SideWork w = side_work(d, work, side);
    float *block = accum + side * speed_side_floats(d);
    speed_estimate(BlockTeam{}, scratch, w.k, w.e, d.tw, d.tw / 5, speed_blocks(d), w.y, w.qy, w.x,
                   reinterpret_cast<SpeedSideHead *>(block),
                   block + sizeof(SpeedSideHead) / sizeof(float));
}

template <typename T>
void launch_decimate(hipStream_t stream, const SpeedDims &d, const SpeedTables &t,
                     const Sides &s, int n, int bpc, float *work)
{
    const dim3 grid(blocks_covering(static_cast<size_t>(d.opw) * d.oph, kThreads),
                    static_cast<unsigned>(n));
    if (d.resample)
        decimate_kernel<T, true><<<grid, kThreads, 0, stream>>>(d, t, s, bpc, work);
    else
        decimate_kernel<T, false><<<grid, kThreads, 0, stream>>>(d, t, s, bpc, work);
}

} // namespace

size_t speed_workspace_bytes(const SpeedDims &d, int sides)
{
    return static_cast<size_t>(sides) * side_work_floats(d) * sizeof(float);
}

void speed_enqueue(hipStream_t stream, const SpeedDims &d, const SpeedTables &t,
                   const SpeedSideInput *sides, int n, int bpc, void *workspace, float *d_accum)
{
    Sides s{};
    for (int i = 0; i < n; i++)
        s.s[i] = sides[i];
    float *work = static_cast<float *>(workspace);
    if (bpc > 8)
        launch_decimate<uint16_t>(stream, d, t, s, n, bpc, work);
    else
        launch_decimate<uint8_t>(stream, d, t, s, n, bpc, work);
    const dim3 band_grid(blocks_covering(static_cast<size_t>(d.tw) * d.th, kThreads),
                         static_cast<unsigned>(n));
    band_pass_kernel<<<band_grid, kThreads, 0, stream>>>(d, t, work);
    covariance_kernel<<<static_cast<unsigned>(n), kCovThreads, 0, stream>>>(d, work);
    estimate_kernel<<<static_cast<unsigned>(n), kSolveThreads, 0, stream>>>(d, work, d_accum);
}

} // namespace vmafhip
