// integer ADM kernels (docs/adm.md §4, §6-§9, §15; every § below is a
// section of docs/adm.md). Every coefficient goes through kernels/adm/adm_ops.h,
// the arithmetic the CPU reference (extractors/adm/adm_stages.cpp) uses, and
// every accumulator is a sum of the CPU's per-row values: each row sum is
// formed exactly by ONE block, the row's rounding shift is applied to the
// complete sum, and the rounded row value is added to *d_out with a 64-bit
// atomic (integer sums in any order are exact, §12.1). No shift is ever
// applied to a partial sum.
//
// Per frame, on one stream, always the same 6 launches for a context:
//   1-4. dwt_kernel<scale>: the fused DWT of one scale (vertical pass into
//        shared memory, then horizontal pass), ref and dis in one launch
//        (blockIdx.z = picture). One block per 64x8 tile of output
//        coefficients, 256 threads. Scale 0 reads the uint8/uint16 luma
//        plane and writes int16 bands, scales 1-3 read the previous int32
//        (int16 at scale 1) A band and write int32 bands (adm_dwt_s0 /
//        adm_dwt_s123).
//   5.   decouple_kernel: all scored scales in one launch, one block of 256
//        threads per row of the decouple rectangle [ct, cb) x [cl, cr):
//        decoupling (r, a), the DLM masker sums from CSF(a) and the AIM
//        masker sums from CSF(r) (adm_decouple), and, for rows of the
//        scored region, the den row sums of the reference bands over
//        [left, right) (adm_den_row).
//   6.   cm_kernel: all scored scales in one launch, one block of 256
//        threads per row of the scored region: the DLM and AIM contrast
//        masking row sums (adm_cm_row).
// Rows of several scales share launches 5 and 6: blockIdx.x is a global row
// number, split per scale by RowSplit (block-uniform, so every thread of a
// block takes the same branch and reaches the same barriers).
//
// Workspace (one allocation, every section 256-byte aligned), per scale s:
// ref bands H, V, D, A, dis bands H, V, D, A (w_s x h_s, int16 at s = 0,
// int32 after), then unless scale 0 is skipped: r[H, V, D], a[H, V, D]
// (same type), the DLM masker planes f, c (int32) and, unless AIM is skipped,
// the AIM masker planes f, c (int32). All planes use the band's row stride
// w_s, as the CPU; only the decouple rectangle of r, a, f, c is written and
// read.
#include "kernels/adm/adm.h"

#include <cstdint>

#include "kernels/adm/adm_ops.h"
#include "kernels/device/atomic.h"
#include "kernels/device/block.h"
#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kDwtTileW = 64;                // output coefficients per block, x
constexpr int kDwtTileH = 8;                 // output rows per block
constexpr int kDwtCols = 2 * kDwtTileW + 2;  // vertical-pass columns 2j0-1 .. 2(j0+63)+2
constexpr int kDwtThreads = 256;
constexpr int kRowThreads = 256;             // decouple_kernel, cm_kernel: one block per row

static_assert(kDwtThreads % 64 == 0 && kRowThreads % 64 == 0,
              "whole warps on 32- and 64-lane hardware");

/// Band type of a scale: int16 at scale 0, int32 at scales 1-3 (libvmaf's).
template <int SC> struct BandOf {
    typedef int32_t T;
};
template <> struct BandOf<0> {
    typedef int16_t T;
};

/// Device pointers of one scale; see the workspace layout above. Bands are
/// indexed by AdmBand (H, V, D, A).
struct ScaleBufs {
    void *ref[4];
    void *dis[4];
    void *r[3];
    void *a[3];
    int32_t *dlm_f, *dlm_c; ///< DLM masker: Σθ |CSF(a)|/30 and Σθ |CSF(a)|/15
    int32_t *aim_f, *aim_c; ///< AIM masker from CSF(r); nullptr when AIM is skipped
};

struct AdmBufs {
    ScaleBufs s[ADM_SCALES];
};

/// Rows of the scales in one row launch: scale sc owns the blocks
/// [start[sc], start[sc + 1]); a skipped scale owns none.
struct RowSplit {
    int start[ADM_SCALES + 1];
};

// ---------------------------------------------------------------------------
// Reductions.

/// Block sums of N int64 values at once (one barrier pair for all of them);
/// the results are valid in thread 0. Every thread of the block must call it.
/// Same scheme as gpu_block_sum (any warp size, blocks of at most 1024).
template <int N> __device__ void block_sum_n(long long (&v)[N])
{
    __shared__ long long partial[N][1024 / 32];
    const int tid = gpu_block_tid();
    const int nwarps = (gpu_block_threads() + gpu_warp_size() - 1) / gpu_warp_size();
#pragma unroll
    for (int k = 0; k < N; k++)
        v[k] = gpu_warp_sum(v[k]);
    if (gpu_lane_id(tid) == 0) {
#pragma unroll
        for (int k = 0; k < N; k++)
            partial[k][gpu_warp_id(tid)] = v[k];
    }
    __syncthreads();
    if (gpu_warp_id(tid) == 0) {
#pragma unroll
        for (int k = 0; k < N; k++)
            v[k] = gpu_warp_sum(tid < nwarps ? partial[k][tid] : 0LL);
    }
    __syncthreads(); // partial[] may be reused by a later call
}

// ---------------------------------------------------------------------------
// Scale-0 vs scale 1-3 arithmetic (the S0 / S123 structs of adm_stages.cpp).

template <int SC> __device__ __forceinline__ int32_t ratio_k(int32_t o, int32_t t)
{
    if constexpr (SC == 0)
        return adm_k_s0(o, t);
    else
        return adm_k_s123(o, t);
}

/// §8 + §9.1: add |CSF(x)|/30 to f and |CSF(x)|/15 to c (masker_row()).
template <int SC>
__device__ __forceinline__ void masker_add(uint32_t irf, typename BandOf<SC>::T x, int theta,
                                           int32_t &f, int32_t &c)
{
    if constexpr (SC == 0) {
        const int16_t v = adm_csf_s0(irf, x, theta);
        f += static_cast<int32_t>(adm_f_s0(v));
        c += static_cast<int32_t>(adm_centre_s0(v));
    } else {
        const int32_t v = adm_csf_s123(irf, x);
        f += adm_f_s123(v);
        c += adm_centre_s123(v);
    }
}

/// §7: den term of one reference coefficient.
template <int SC> __device__ __forceinline__ uint64_t den_term(typename BandOf<SC>::T o, int cub)
{
    if constexpr (SC == 0)
        return adm_den_s0(o);
    else
        return adm_den_s123(o, SC, cub);
}

/// §9.2: masked energy of one coefficient.
template <int SC>
__device__ __forceinline__ int64_t cm_term(typename BandOf<SC>::T y, uint32_t irf, int32_t thr,
                                           int theta, int cub)
{
    if constexpr (SC == 0)
        return adm_cm_s0(y, irf, thr, theta, cub);
    else
        return adm_cm_s123(y, irf, thr, cub);
}

// ---------------------------------------------------------------------------
// 1-4. DWT of one scale (§4).

struct DwtIO {
    const void *in[2]; ///< ref, dis: the luma plane (scale 0) or the previous A band
    int pitch[2];      ///< elements per input row
    void *out[2][4];   ///< ref, dis bands H, V, D, A (w x h, stride w)
};

/**
 * One 64x8 tile of output coefficients (i, j) per block, blockIdx.z = picture.
 * Vertical pass: for each tile row i and each input column x = 2*j0 - 1 + c,
 * c in [0, kDwtCols), the lo/hi values of input rows M(2i-1) .. M(2i+2) at
 * column M(x), into shared memory (adm_dwt_s0's tl/th, padded as pad_row()
 * pads them: entry c holds column M(2*j0 - 1 + c)). Horizontal pass: output j
 * reads entries 2(j - j0) .. 2(j - j0) + 3, i.e. columns M(2j-1) .. M(2j+2).
 * Entries with x > in_w + 1 or i >= h are only read by outputs outside the
 * band (2j + 2 <= 2w <= in_w + 1 for j < w) and are set to 0.
 */
template <int SC, typename In>
__global__ void __launch_bounds__(kDwtThreads) dwt_kernel(AdmParams p, DwtIO io)
{
    typedef typename BandOf<SC>::T T;
    __shared__ T s_lo[kDwtTileH][kDwtCols];
    __shared__ T s_hi[kDwtTileH][kDwtCols];

    const AdmScaleParams &q = p.s[SC];
    // Select by condition, not by index: a dynamic index into the kernel
    // parameters would copy them to local memory.
    const bool dis = blockIdx.z != 0;
    const In *in = static_cast<const In *>(dis ? io.in[1] : io.in[0]);
    const ptrdiff_t pitch = dis ? io.pitch[1] : io.pitch[0];
    const int i0 = static_cast<int>(blockIdx.y) * kDwtTileH;
    const int j0 = static_cast<int>(blockIdx.x) * kDwtTileW;
    const int tid = static_cast<int>(threadIdx.x);

    for (int e = tid; e < kDwtTileH * kDwtCols; e += kDwtThreads) {
        const int r = e / kDwtCols, c = e - r * kDwtCols;
        const int i = i0 + r, x = 2 * j0 - 1 + c;
        T lo = 0, hi = 0;
        if (i < q.h && x <= q.in_w + 1) {
            const int xm = adm_mirror(x, q.in_w);
            const In v0 = in[adm_mirror(2 * i - 1, q.in_h) * pitch + xm];
            const In v1 = in[adm_mirror(2 * i, q.in_h) * pitch + xm];
            const In v2 = in[adm_mirror(2 * i + 1, q.in_h) * pitch + xm];
            const In v3 = in[adm_mirror(2 * i + 2, q.in_h) * pitch + xm];
            if constexpr (SC == 0) {
                lo = adm_s0_vert_lo(v0, v1, v2, v3, p.bpc);
                hi = adm_s0_vert_hi(v0, v1, v2, v3, p.bpc);
            } else {
                lo = adm_s123_round(adm_dwt_lo<int64_t>(v0, v1, v2, v3), adm_s123_vert_shift(SC));
                hi = adm_s123_round(adm_dwt_hi<int64_t>(v0, v1, v2, v3), adm_s123_vert_shift(SC));
            }
        }
        s_lo[r][c] = lo;
        s_hi[r][c] = hi;
    }
    __syncthreads();

    T *const oa = static_cast<T *>(dis ? io.out[1][ADM_A] : io.out[0][ADM_A]);
    T *const ov = static_cast<T *>(dis ? io.out[1][ADM_V] : io.out[0][ADM_V]);
    T *const oh = static_cast<T *>(dis ? io.out[1][ADM_H] : io.out[0][ADM_H]);
    T *const od = static_cast<T *>(dis ? io.out[1][ADM_D] : io.out[0][ADM_D]);
    for (int e = tid; e < kDwtTileH * kDwtTileW; e += kDwtThreads) {
        const int r = e / kDwtTileW, jj = e - r * kDwtTileW;
        const int i = i0 + r, j = j0 + jj;
        if (i >= q.h || j >= q.w)
            continue;
        const T *l = &s_lo[r][2 * jj];
        const T *h = &s_hi[r][2 * jj];
        const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w + j;
        if constexpr (SC == 0) {
            oa[o] = adm_s0_hori_round(adm_dwt_lo<int32_t>(l[0], l[1], l[2], l[3]));
            ov[o] = adm_s0_hori_round(adm_dwt_hi<int32_t>(l[0], l[1], l[2], l[3]));
            oh[o] = adm_s0_hori_round(adm_dwt_lo<int32_t>(h[0], h[1], h[2], h[3]));
            od[o] = adm_s0_hori_round(adm_dwt_hi<int32_t>(h[0], h[1], h[2], h[3]));
        } else {
            const int sh = adm_s123_hori_shift(SC);
            oa[o] = adm_s123_round(adm_dwt_lo<int64_t>(l[0], l[1], l[2], l[3]), sh);
            ov[o] = adm_s123_round(adm_dwt_hi<int64_t>(l[0], l[1], l[2], l[3]), sh);
            oh[o] = adm_s123_round(adm_dwt_lo<int64_t>(h[0], h[1], h[2], h[3]), sh);
            od[o] = adm_s123_round(adm_dwt_hi<int64_t>(h[0], h[1], h[2], h[3]), sh);
        }
    }
}

// ---------------------------------------------------------------------------
// 5. Decoupling + CSF maskers (§6, §8; adm_decouple) and den (§7; adm_den_row).

/**
 * Row i of the decouple rectangle of scale SC, columns [cl, cr) strided over
 * the block. When i is a row of the scored region, the den terms of the
 * reference bands over [left, right) are summed too; the block then holds
 * the whole row, so the shift is applied to the complete row sum.
 */
template <int SC>
__device__ __forceinline__ void decouple_row(const AdmParams &p, const ScaleBufs &s, int i,
                                             AdmAccum *out)
{
    typedef typename BandOf<SC>::T T;
    const AdmScaleParams &q = p.s[SC];
    const bool aim = !p.skip_aim;
    const T *ref[3], *dis[3];
    T *rr[3], *aa[3];
#pragma unroll
    for (int t = 0; t < 3; t++) {
        ref[t] = static_cast<const T *>(s.ref[t]);
        dis[t] = static_cast<const T *>(s.dis[t]);
        rr[t] = static_cast<T *>(s.r[t]);
        aa[t] = static_cast<T *>(s.a[t]);
    }
    const bool den_row = i >= q.top && i < q.bottom;
    const ptrdiff_t row = static_cast<ptrdiff_t>(i) * q.w;
    uint64_t den[3] = {0, 0, 0};
    for (int j = q.cl + static_cast<int>(threadIdx.x); j < q.cr; j += kRowThreads) {
        const ptrdiff_t x = row + j;
        T o[3], d[3];
#pragma unroll
        for (int t = 0; t < 3; t++) {
            o[t] = ref[t][x];
            d[t] = dis[t][x];
        }
        // §6.1: one angle test per position, from H and V only.
        const bool flag = adm_angle_flag(o[ADM_H], o[ADM_V], d[ADM_H], d[ADM_V]);
        const bool den_col = den_row && j >= q.left && j < q.right;
        int32_t df = 0, dc = 0, af = 0, ac = 0;
#pragma unroll
        for (int t = 0; t < 3; t++) {
            const T r = adm_restore<T>(ratio_k<SC>(o[t], d[t]), o[t], d[t], flag, p.egl);
            const T a = static_cast<T>(d[t] - r);
            rr[t][x] = r;
            aa[t][x] = a;
            masker_add<SC>(q.irf[t], a, t, df, dc); // DLM masker from CSF(a)
            if (aim)
                masker_add<SC>(q.irf[t], r, t, af, ac); // AIM masker from CSF(r) (§10)
            if (den_col)
                den[t] += den_term<SC>(o[t], q.den_cub);
        }
        s.dlm_f[x] = df;
        s.dlm_c[x] = dc;
        if (aim) {
            s.aim_f[x] = af;
            s.aim_c[x] = ac;
        }
    }
    // uint64 sums through int64 two's complement: the same bits.
    long long v[3] = {static_cast<long long>(den[0]), static_cast<long long>(den[1]),
                      static_cast<long long>(den[2])};
    block_sum_n<3>(v);
    if (threadIdx.x == 0 && den_row) {
#pragma unroll
        for (int t = 0; t < 3; t++) {
            // §7.1 / §7.2: the rounding shift of the complete row sum.
            const uint64_t rv = adm_row_round_u(static_cast<uint64_t>(v[t]), q.den_shift);
            if (rv)
                gpu_atomic_add_u64(reinterpret_cast<unsigned long long *>(&out->den[SC][t]), rv);
        }
    }
}

/// Block g of rows → (scale, row); scales own contiguous block ranges.
__global__ void __launch_bounds__(kRowThreads)
    decouple_kernel(AdmParams p, AdmBufs b, RowSplit rs, AdmAccum *out)
{
    const int g = static_cast<int>(blockIdx.x);
    if (g >= rs.start[3])
        decouple_row<3>(p, b.s[3], p.s[3].ct + (g - rs.start[3]), out);
    else if (g >= rs.start[2])
        decouple_row<2>(p, b.s[2], p.s[2].ct + (g - rs.start[2]), out);
    else if (g >= rs.start[1])
        decouple_row<1>(p, b.s[1], p.s[1].ct + (g - rs.start[1]), out);
    else
        decouple_row<0>(p, b.s[0], p.s[0].ct + (g - rs.start[0]), out);
}

// ---------------------------------------------------------------------------
// 6. Contrast masking (§9, §10; adm_cm_row).

/**
 * Row i of the scored region of scale SC, columns [left, right) strided over
 * the block: DLM (test signal r, masker from a) and AIM (test signal a,
 * masker from r). thr reads the 3x3 mirrored neighbourhood of the masker
 * planes (adm_thr, band-size mirror), all inside the decouple rectangle.
 */
template <int SC>
__device__ __forceinline__ void cm_row(const AdmParams &p, const ScaleBufs &s, int i, AdmAccum *out)
{
    typedef typename BandOf<SC>::T T;
    const AdmScaleParams &q = p.s[SC];
    const bool aim = !p.skip_aim;
    const T *rr[3], *aa[3];
#pragma unroll
    for (int t = 0; t < 3; t++) {
        rr[t] = static_cast<const T *>(s.r[t]);
        aa[t] = static_cast<const T *>(s.a[t]);
    }
    const ptrdiff_t row = static_cast<ptrdiff_t>(i) * q.w;
    long long acc[6] = {0, 0, 0, 0, 0, 0}; // DLM H, V, D; AIM H, V, D
    for (int j = q.left + static_cast<int>(threadIdx.x); j < q.right; j += kRowThreads) {
        const ptrdiff_t x = row + j;
        const int32_t thr = adm_thr(s.dlm_f, s.dlm_c, q.w, q.w, q.h, i, j); // shared by H, V, D
#pragma unroll
        for (int t = 0; t < 3; t++)
            acc[t] += cm_term<SC>(rr[t][x], q.irf[t], thr, t, q.cm_cub[t]);
        if (aim) {
            const int32_t thr_a = adm_thr(s.aim_f, s.aim_c, q.w, q.w, q.h, i, j);
#pragma unroll
            for (int t = 0; t < 3; t++)
                acc[3 + t] += cm_term<SC>(aa[t][x], q.irf[t], thr_a, t, q.cm_cub[t]);
        }
    }
    block_sum_n<6>(acc);
    if (threadIdx.x == 0) {
#pragma unroll
        for (int t = 0; t < 3; t++) {
            // §9.3: the rounding shift of the complete row sum.
            const int64_t n = adm_row_round(acc[t], q.cm_inner);
            if (n)
                gpu_atomic_add_i64(reinterpret_cast<long long *>(&out->num[SC][t]), n);
            const int64_t a = adm_row_round(acc[3 + t], q.cm_inner);
            if (aim && a)
                gpu_atomic_add_i64(reinterpret_cast<long long *>(&out->aim[SC][t]), a);
        }
    }
}

__global__ void __launch_bounds__(kRowThreads)
    cm_kernel(AdmParams p, AdmBufs b, RowSplit rs, AdmAccum *out)
{
    const int g = static_cast<int>(blockIdx.x);
    if (g >= rs.start[3])
        cm_row<3>(p, b.s[3], p.s[3].top + (g - rs.start[3]), out);
    else if (g >= rs.start[2])
        cm_row<2>(p, b.s[2], p.s[2].top + (g - rs.start[2]), out);
    else if (g >= rs.start[1])
        cm_row<1>(p, b.s[1], p.s[1].top + (g - rs.start[1]), out);
    else
        cm_row<0>(p, b.s[0], p.s[0].top + (g - rs.start[0]), out);
}

// ---------------------------------------------------------------------------
// Host side.

/// Workspace sections from the parameters only, so adm_workspace_bytes()
/// and adm_enqueue() agree. base == nullptr: sizes only.
struct Layout {
    AdmBufs b;
    size_t bytes;
};

Layout layout_of(const AdmParams &p, uint8_t *base)
{
    Layout L = {};
    WorkspaceSections sections;
    auto take = [&](size_t bytes) -> void * {
        const size_t at = sections.take(bytes);
        return base ? static_cast<void *>(base + at) : nullptr;
    };
    for (int sc = 0; sc < ADM_SCALES; sc++) {
        const AdmScaleParams &q = p.s[sc];
        const size_t n = static_cast<size_t>(q.w) * static_cast<size_t>(q.h);
        const size_t band = n * (sc == 0 ? sizeof(int16_t) : sizeof(int32_t));
        ScaleBufs &s = L.b.s[sc];
        for (int k = 0; k < 4; k++)
            s.ref[k] = take(band);
        for (int k = 0; k < 4; k++)
            s.dis[k] = take(band);
        if (sc == 0 && p.skip_scale0)
            continue; // §4.4: only the A band is used
        for (int t = 0; t < 3; t++)
            s.r[t] = take(band);
        for (int t = 0; t < 3; t++)
            s.a[t] = take(band);
        s.dlm_f = static_cast<int32_t *>(take(n * sizeof(int32_t)));
        s.dlm_c = static_cast<int32_t *>(take(n * sizeof(int32_t)));
        if (!p.skip_aim) {
            s.aim_f = static_cast<int32_t *>(take(n * sizeof(int32_t)));
            s.aim_c = static_cast<int32_t *>(take(n * sizeof(int32_t)));
        }
    }
    L.bytes = sections.bytes;
    return L;
}

/// Blocks of a row launch: decouple rectangle rows (cm = false) or scored
/// region rows (cm = true) of every scored scale, scale 0 first.
RowSplit split_rows(const AdmParams &p, bool cm)
{
    RowSplit rs;
    int n = 0;
    for (int sc = 0; sc < ADM_SCALES; sc++) {
        rs.start[sc] = n;
        if (sc == 0 && p.skip_scale0)
            continue;
        const AdmScaleParams &q = p.s[sc];
        n += cm ? q.bottom - q.top : q.cb - q.ct;
    }
    rs.start[ADM_SCALES] = n;
    return rs;
}

dim3 dwt_grid(const AdmScaleParams &q)
{
    return grid_covering(q.w, q.h, kDwtTileW, kDwtTileH, 2u);
}

} // namespace

size_t adm_workspace_bytes(const AdmParams &p) { return layout_of(p, nullptr).bytes; }

void adm_enqueue(hipStream_t stream, const AdmParams &p, const GpuFrame &f, void *workspace,
                 AdmAccum *d_out)
{
    const AdmBufs b = layout_of(p, static_cast<uint8_t *>(workspace)).b;

    // 1. Scale 0 from the luma planes (both stored with pitch = width).
    DwtIO io = {};
    io.in[0] = f.ref[0].data;
    io.in[1] = f.dis[0].data;
    io.pitch[0] = f.ref[0].w;
    io.pitch[1] = f.dis[0].w;
    for (int k = 0; k < 4; k++) {
        io.out[0][k] = b.s[0].ref[k];
        io.out[1][k] = b.s[0].dis[k];
    }
    if (p.bpc > 8)
        dwt_kernel<0, uint16_t><<<dwt_grid(p.s[0]), kDwtThreads, 0, stream>>>(p, io);
    else
        dwt_kernel<0, uint8_t><<<dwt_grid(p.s[0]), kDwtThreads, 0, stream>>>(p, io);

    // 2-4. Scales 1-3 from the previous A band (w x h of the previous scale).
    for (int sc = 1; sc < ADM_SCALES; sc++) {
        io.in[0] = b.s[sc - 1].ref[ADM_A];
        io.in[1] = b.s[sc - 1].dis[ADM_A];
        io.pitch[0] = io.pitch[1] = p.s[sc - 1].w;
        for (int k = 0; k < 4; k++) {
            io.out[0][k] = b.s[sc].ref[k];
            io.out[1][k] = b.s[sc].dis[k];
        }
        const dim3 grid = dwt_grid(p.s[sc]);
        if (sc == 1)
            dwt_kernel<1, int16_t><<<grid, kDwtThreads, 0, stream>>>(p, io);
        else if (sc == 2)
            dwt_kernel<2, int32_t><<<grid, kDwtThreads, 0, stream>>>(p, io);
        else
            dwt_kernel<3, int32_t><<<grid, kDwtThreads, 0, stream>>>(p, io);
    }

    // 5, 6. Every scored scale in one launch each (not scale 0 with adm_skip_scale0).
    const RowSplit dec = split_rows(p, false);
    decouple_kernel<<<static_cast<unsigned>(dec.start[ADM_SCALES]), kRowThreads, 0, stream>>>(
        p, b, dec, d_out);
    const RowSplit cm = split_rows(p, true);
    cm_kernel<<<static_cast<unsigned>(cm.start[ADM_SCALES]), kRowThreads, 0, stream>>>(p, b, cm,
                                                                                       d_out);
}

} // namespace vmafhip
