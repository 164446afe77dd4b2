// float_adm kernels (docs/float_adm.md §2-§7, §12; § numbers are its
// sections). Per frame, on one stream, per scale:
//   dwt_kernel          one thread per band position of each picture: the
//                       vertical pass of its four columns, the horizontal
//                       pass (§4); scale 0 reads the samples (§2)
//   decouple_kernel     one thread per band position: r and a (§6), the
//                       division through the host's reciprocal table
//   den_rows_kernel     one thread per region row: the row's denominator
//                       sums, left to right (§7.2)
//   csf_kernel          one thread per band position: c and f (§7.1)
//   masked_rows_kernel  one thread per region row: the row's masked sums,
//                       left to right (§7.4), after csf_kernel of the masker
// then add_rows_kernel: one thread per scale and kind adds its rows' sums top
// to bottom into a float (§7.4) and writes FloatAdmAccum. Every value comes
// from float_adm_ops.h, the CPU's functions; every float sum runs in the
// CPU's order, so the accumulators are the CPU's bytes.
#include "kernels/float_adm/float_adm.h"

#include "kernels/device/launch.h"

namespace vmafhip {

namespace {

constexpr int kThreads = 256;   // 1D kernels
constexpr int kRowThreads = 64; // per-row kernels
constexpr int kThreadsX = 32;
constexpr int kThreadsY = 8;

/// Three writable planes (H, V, D).
struct Planes3 {
    float *p[FADM_ORIENTATIONS];
};

/// The four bands of one picture's DWT.
struct DwtOut {
    float *a, *h, *v, *d;
};

__device__ __forceinline__ float input_at(const float *p, size_t k, int) { return p[k]; }
__device__ __forceinline__ float input_at(const uint8_t *p, size_t k, int bpc)
{
    return fadm_sample(p[k], bpc);
}
__device__ __forceinline__ float input_at(const uint16_t *p, size_t k, int bpc)
{
    return fadm_sample(p[k], bpc);
}

// §4: z = 0 the reference, z = 1 the distorted picture.
template <typename T>
__global__ void __launch_bounds__(kThreadsX * kThreadsY)
    dwt_kernel(const T *ref, const T *dis, int w, int h, int bpc, DwtOut ref_out, DwtOut dis_out,
               int bw, int bh)
{
    const int j = static_cast<int>(blockIdx.x) * kThreadsX + static_cast<int>(threadIdx.x);
    const int i = static_cast<int>(blockIdx.y) * kThreadsY + static_cast<int>(threadIdx.y);
    if (j >= bw || i >= bh)
        return;
    const T *in = blockIdx.z == 0 ? ref : dis;
    const DwtOut &out = blockIdx.z == 0 ? ref_out : dis_out;
    size_t row[4];
    for (int t = 0; t < 4; t++)
        row[t] = static_cast<size_t>(fadm_dwt_index(2 * i - 1 + t, h)) * w;
    float lo[4], hi[4];
    for (int k = 0; k < 4; k++) {
        const size_t x = static_cast<size_t>(fadm_dwt_index(2 * j - 1 + k, w));
        const float s0 = input_at(in, row[0] + x, bpc), s1 = input_at(in, row[1] + x, bpc),
                    s2 = input_at(in, row[2] + x, bpc), s3 = input_at(in, row[3] + x, bpc);
        lo[k] = fadm_dwt_lo(s0, s1, s2, s3);
        hi[k] = fadm_dwt_hi(s0, s1, s2, s3);
    }
    const size_t o = static_cast<size_t>(i) * bw + j;
    fadm_dwt_horizontal(lo, hi, &out.a[o], &out.h[o], &out.v[o], &out.d[o]);
}

// §6: the reference's details o, the distorted picture's t, n positions.
__global__ void __launch_bounds__(kThreads)
    decouple_kernel(FadmBands o, FadmBands t, float cos_1deg_sq, double egl,
                    const uint32_t *rcp_table, Planes3 r, Planes3 a)
{
    const size_t n = static_cast<size_t>(o.w) * o.h;
    const size_t k = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
    if (k >= n)
        return;
    float ok[3], tk[3], rk[3], ak[3];
    for (int q = 0; q < FADM_ORIENTATIONS; q++) {
        ok[q] = o.p[q][k];
        tk[q] = t.p[q][k];
    }
    fadm_decouple_at(ok, tk, cos_1deg_sq, egl, FadmTableDiv{rcp_table}, rk, ak);
    for (int q = 0; q < FADM_ORIENTATIONS; q++) {
        r.p[q][k] = rk[q];
        a.p[q][k] = ak[q];
    }
}

// §7.1: c and f of x.
__global__ void __launch_bounds__(kThreads)
    csf_kernel(FadmBands x, FadmScale sc, Planes3 c, Planes3 f)
{
    const size_t n = static_cast<size_t>(x.w) * x.h;
    const size_t k = static_cast<size_t>(blockIdx.x) * kThreads + threadIdx.x;
    if (k >= n)
        return;
    for (int q = 0; q < FADM_ORIENTATIONS; q++)
        fadm_csf_at(x.p[q][k], sc.rf[q], &c.p[q][k], &f.p[q][k]);
}

// §7.2: row top + r of the region into per_row[r * 3 ..].
__global__ void __launch_bounds__(kRowThreads)
    den_rows_kernel(FadmBands o, FadmScale sc, FadmPower p, float *per_row)
{
    const int r = static_cast<int>(blockIdx.x) * kRowThreads + static_cast<int>(threadIdx.x);
    if (r >= sc.g.bottom - sc.g.top)
        return;
    fadm_den_row(o, sc.rf, p, sc.g.top + r, sc.g.left, sc.g.right,
                 per_row + static_cast<size_t>(r) * FADM_ORIENTATIONS);
}

// §7.4: row top + r of x masked by (c, f).
__global__ void __launch_bounds__(kRowThreads)
    masked_rows_kernel(FadmBands x, FadmBands c, FadmBands f, FadmScale sc, int bypass_cm,
                       FadmPower p, float *per_row)
{
    const int r = static_cast<int>(blockIdx.x) * kRowThreads + static_cast<int>(threadIdx.x);
    if (r >= sc.g.bottom - sc.g.top)
        return;
    fadm_masked_row(x, c, f, sc.rf, bypass_cm, p, sc.g.top + r, sc.g.left, sc.g.right,
                    per_row + static_cast<size_t>(r) * FADM_ORIENTATIONS);
}

// §7.4: thread s * 3 + kind adds the rows of its sums, in order.
__global__ void __launch_bounds__(kRowThreads)
    add_rows_kernel(FadmParams p, const float *per_row, size_t per_sum, FloatAdmAccum *out)
{
    const int q = static_cast<int>(threadIdx.x);
    if (q >= FLOAT_ADM_SCALES * FADM_KINDS)
        return;
    const int s = q / FADM_KINDS, kind = q % FADM_KINDS;
    if (s == 0 && p.skip_scale0)
        return;
    const FadmRegion &g = p.sc[s].g;
    float sums[3];
    fadm_add_rows(per_row + static_cast<size_t>(q) * per_sum, g.bottom - g.top, sums);
    for (int t = 0; t < FADM_ORIENTATIONS; t++)
        out->sum[s][kind][t] = sums[t];
}

// The workspace: 22 planes of scale 0's band size (each picture's two
// approximations, used in turn by the scales, and its H, V, D details; r,
// a, c, f), then the rows' sums of every scale and kind.
enum {
    REF_A0, REF_A1, DIS_A0, DIS_A1,
    REF_H, REF_V, REF_D, DIS_H, DIS_V, DIS_D,
    R_H, R_V, R_D, A_H, A_V, A_D,
    C_H, C_V, C_D, F_H, F_V, F_D,
    N_PLANES
};

struct Layout {
    size_t plane;   ///< bytes of one plane, aligned
    size_t per_sum; ///< floats of one sum's rows (bh of scale 0 x 3)
    size_t bytes;
};

Layout layout_of(int w, int h)
{
    const size_t bw = static_cast<size_t>(w + 1) / 2, bh = static_cast<size_t>(h + 1) / 2;
    Layout L;
    L.plane = workspace_align(sizeof(float) * bw * bh);
    L.per_sum = bh * FADM_ORIENTATIONS;
    L.bytes = L.plane * N_PLANES +
              workspace_align(sizeof(float) * L.per_sum * FLOAT_ADM_SCALES * FADM_KINDS);
    return L;
}

} // namespace

FadmParams float_adm_params(int w, int h, int bpc, int skip_scale0, int bypass_cm, double egl,
                            FadmPower power, float cos_1deg_sq,
                            const float rf3[FLOAT_ADM_SCALES][FADM_ORIENTATIONS])
{
    FadmParams P;
    P.bpc = bpc;
    P.skip_scale0 = skip_scale0;
    P.bypass_cm = bypass_cm;
    P.egl = egl;
    P.power = power;
    P.cos_1deg_sq = cos_1deg_sq;
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        FadmScale &sc = P.sc[s];
        sc.w = w;
        sc.h = h;
        sc.bw = (w + 1) / 2;
        sc.bh = (h + 1) / 2;
        sc.g = fadm_region(sc.bw, sc.bh);
        for (int t = 0; t < FADM_ORIENTATIONS; t++)
            sc.rf[t] = rf3[s][t];
        w = sc.bw;
        h = sc.bh;
    }
    return P;
}

size_t float_adm_workspace_bytes(int w, int h) { return layout_of(w, h).bytes; }

void float_adm_enqueue(hipStream_t stream, const GpuFrame &f, const FadmParams &p,
                       const uint32_t *rcp_table, void *workspace, FloatAdmAccum *d_out)
{
    const Layout L = layout_of(f.ref[0].w, f.ref[0].h);
    uint8_t *ws = static_cast<uint8_t *>(workspace);
    const auto plane = [&](int k) { return reinterpret_cast<float *>(ws + L.plane * k); };
    float *per_row = reinterpret_cast<float *>(ws + L.plane * N_PLANES);
    const auto rows_of = [&](int s, int kind) {
        return per_row + static_cast<size_t>(s * FADM_KINDS + kind) * L.per_sum;
    };
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        const FadmScale &sc = p.sc[s];
        const int cur = s & 1, prev = cur ^ 1;
        const DwtOut ro{plane(REF_A0 + cur), plane(REF_H), plane(REF_V), plane(REF_D)};
        const DwtOut dout{plane(DIS_A0 + cur), plane(DIS_H), plane(DIS_V), plane(DIS_D)};
        const dim3 grid(blocks_covering(sc.bw, kThreadsX), blocks_covering(sc.bh, kThreadsY), 2);
        const dim3 block(kThreadsX, kThreadsY);
        if (s > 0)
            dwt_kernel<float><<<grid, block, 0, stream>>>(plane(REF_A0 + prev), plane(DIS_A0 + prev),
                                                          sc.w, sc.h, p.bpc, ro, dout, sc.bw, sc.bh);
        else if (p.bpc > 8)
            dwt_kernel<uint16_t><<<grid, block, 0, stream>>>(
                reinterpret_cast<const uint16_t *>(f.ref[0].data),
                reinterpret_cast<const uint16_t *>(f.dis[0].data), sc.w, sc.h, p.bpc, ro, dout,
                sc.bw, sc.bh);
        else
            dwt_kernel<uint8_t><<<grid, block, 0, stream>>>(f.ref[0].data, f.dis[0].data, sc.w,
                                                            sc.h, p.bpc, ro, dout, sc.bw, sc.bh);
        if (s == 0 && p.skip_scale0)
            continue; // §8: the approximation only
        const FadmBands ref_o{{plane(REF_H), plane(REF_V), plane(REF_D)}, sc.bw, sc.bh};
        const FadmBands dis_o{{plane(DIS_H), plane(DIS_V), plane(DIS_D)}, sc.bw, sc.bh};
        const Planes3 r{{plane(R_H), plane(R_V), plane(R_D)}};
        const Planes3 a{{plane(A_H), plane(A_V), plane(A_D)}};
        const Planes3 c{{plane(C_H), plane(C_V), plane(C_D)}};
        const Planes3 fl{{plane(F_H), plane(F_V), plane(F_D)}};
        const FadmBands rb{{r.p[0], r.p[1], r.p[2]}, sc.bw, sc.bh};
        const FadmBands ab{{a.p[0], a.p[1], a.p[2]}, sc.bw, sc.bh};
        const FadmBands cb{{c.p[0], c.p[1], c.p[2]}, sc.bw, sc.bh};
        const FadmBands fb{{fl.p[0], fl.p[1], fl.p[2]}, sc.bw, sc.bh};
        const size_t n = static_cast<size_t>(sc.bw) * sc.bh;
        const unsigned rows =
            blocks_covering(static_cast<size_t>(sc.g.bottom - sc.g.top), kRowThreads);
        decouple_kernel<<<blocks_covering(n, kThreads), kThreads, 0, stream>>>(
            ref_o, dis_o, p.cos_1deg_sq, p.egl, rcp_table, r, a);
        den_rows_kernel<<<rows, kRowThreads, 0, stream>>>(ref_o, sc, p.power, rows_of(s, FADM_DEN));
        // §7.4 detail loss: r masked by a; additive impairment: a masked by r.
        csf_kernel<<<blocks_covering(n, kThreads), kThreads, 0, stream>>>(ab, sc, c, fl);
        masked_rows_kernel<<<rows, kRowThreads, 0, stream>>>(rb, cb, fb, sc, p.bypass_cm, p.power,
                                                             rows_of(s, FADM_NUM));
        csf_kernel<<<blocks_covering(n, kThreads), kThreads, 0, stream>>>(rb, sc, c, fl);
        masked_rows_kernel<<<rows, kRowThreads, 0, stream>>>(ab, cb, fb, sc, p.bypass_cm, p.power,
                                                             rows_of(s, FADM_AIM));
    }
    add_rows_kernel<<<1, kRowThreads, 0, stream>>>(p, per_row, L.per_sum, d_out);
}

} // namespace vmafhip
