// integer ADM CPU stages (docs/adm.md §4, §6-§9); see adm_stages.h. All
// arithmetic is in adm_ops.h, shared with the GPU kernels; this file only
// walks rows and columns. Every § below is a section of docs/adm.md.
#include "extractors/adm_stages.h"

#include <vector>

namespace vmafhip {

namespace {

// Row of a band / plane.
template <typename T> const T *band_row(const T *b, int w, int i)
{
    return b + static_cast<ptrdiff_t>(i) * w;
}

/**
 * The horizontal pass reads columns M(2j-1) .. M(2j+2) of a row of n values
 * (§3.3). Padding the row once, p[x + 1] = row[M(x)] for x in [-1, n + 1],
 * turns every output into taps p[2j] .. p[2j + 3] with no branch.
 */
template <typename T> void pad_row(T *p, int n)
{
    p[0] = p[2];         // M(-1) = 1
    p[n + 1] = p[n];     // M(n) = n - 1
    p[n + 2] = p[n - 1]; // M(n + 1) = n - 2
}

/// §4.2 horizontal pass of one row: the padded vertical outputs l (lo) and
/// h (hi) into the four bands. A function of its own: GCC takes __restrict
/// from parameters, and without it gives up on the aliasing of six arrays.
void dwt_s0_hori(const int16_t *__restrict l, const int16_t *__restrict h, int w,
                 int16_t *__restrict oa, int16_t *__restrict ov, int16_t *__restrict oh,
                 int16_t *__restrict od)
{
    for (int j = 0; j < w; j++) {
        const int k = 2 * j;
        oa[j] = adm_s0_hori_round(adm_dwt_lo<int32_t>(l[k], l[k + 1], l[k + 2], l[k + 3]));
        ov[j] = adm_s0_hori_round(adm_dwt_hi<int32_t>(l[k], l[k + 1], l[k + 2], l[k + 3]));
        oh[j] = adm_s0_hori_round(adm_dwt_lo<int32_t>(h[k], h[k + 1], h[k + 2], h[k + 3]));
        od[j] = adm_s0_hori_round(adm_dwt_hi<int32_t>(h[k], h[k + 1], h[k + 2], h[k + 3]));
    }
}

/// §4.2 vertical pass then horizontal pass of one output row i.
template <typename Pix>
void dwt_s0_row(const PlaneView &pic, int bpc, const AdmScaleParams &q, int i, int16_t *tl,
                int16_t *th, int16_t *const out[4])
{
    const int n = q.in_w;
    const Pix *s0 = pic.row<Pix>(adm_mirror(2 * i - 1, q.in_h));
    const Pix *s1 = pic.row<Pix>(adm_mirror(2 * i, q.in_h));
    const Pix *s2 = pic.row<Pix>(adm_mirror(2 * i + 1, q.in_h));
    const Pix *s3 = pic.row<Pix>(adm_mirror(2 * i + 2, q.in_h));
    for (int x = 0; x < n; x++) {
        tl[x + 1] = adm_s0_vert_lo(s0[x], s1[x], s2[x], s3[x], bpc);
        th[x + 1] = adm_s0_vert_hi(s0[x], s1[x], s2[x], s3[x], bpc);
    }
    pad_row(tl, n);
    pad_row(th, n);
    const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w;
    dwt_s0_hori(tl, th, q.w, out[ADM_A] + o, out[ADM_V] + o, out[ADM_H] + o, out[ADM_D] + o);
}

/// §4.3, int64 sums narrowed to int32 after each pass.
template <typename T>
void dwt_s123_rows(const T *in, const AdmScaleParams &q, int scale, int i0, int i1,
                   int32_t *const out[4])
{
    const int n = q.in_w;
    const int sv = adm_s123_vert_shift(scale), sh = adm_s123_hori_shift(scale);
    std::vector<int32_t> tl(static_cast<size_t>(n) + 3), th(static_cast<size_t>(n) + 3);
    for (int i = i0; i < i1; i++) {
        const T *s0 = band_row(in, n, adm_mirror(2 * i - 1, q.in_h));
        const T *s1 = band_row(in, n, adm_mirror(2 * i, q.in_h));
        const T *s2 = band_row(in, n, adm_mirror(2 * i + 1, q.in_h));
        const T *s3 = band_row(in, n, adm_mirror(2 * i + 2, q.in_h));
        for (int x = 0; x < n; x++) {
            tl[x + 1] = adm_s123_round(adm_dwt_lo<int64_t>(s0[x], s1[x], s2[x], s3[x]), sv);
            th[x + 1] = adm_s123_round(adm_dwt_hi<int64_t>(s0[x], s1[x], s2[x], s3[x]), sv);
        }
        pad_row(tl.data(), n);
        pad_row(th.data(), n);
        const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w;
        int32_t *__restrict oa = out[ADM_A] + o, *__restrict ov = out[ADM_V] + o;
        int32_t *__restrict oh = out[ADM_H] + o, *__restrict od = out[ADM_D] + o;
        const int32_t *__restrict l = tl.data(), *__restrict h = th.data();
        for (int j = 0; j < q.w; j++) {
            const int k = 2 * j;
            oa[j] = adm_s123_round(adm_dwt_lo<int64_t>(l[k], l[k + 1], l[k + 2], l[k + 3]), sh);
            ov[j] = adm_s123_round(adm_dwt_hi<int64_t>(l[k], l[k + 1], l[k + 2], l[k + 3]), sh);
            oh[j] = adm_s123_round(adm_dwt_lo<int64_t>(h[k], h[k + 1], h[k + 2], h[k + 3]), sh);
            od[j] = adm_s123_round(adm_dwt_hi<int64_t>(h[k], h[k + 1], h[k + 2], h[k + 3]), sh);
        }
    }
}

// Scale-0 vs scale 1-3 arithmetic, selected by the band type.
struct S0 {
    static int32_t k(int32_t o, int32_t t) { return adm_k_s0(o, t); }
    static int16_t csf(uint32_t irf, int16_t x, int theta) { return adm_csf_s0(irf, x, theta); }
    static int32_t f(int16_t c) { return adm_f_s0(c); }
    static int32_t centre(int16_t c) { return adm_centre_s0(c); }
    static int64_t cm(int16_t y, uint32_t irf, int32_t thr, int theta, int cub)
    {
        return adm_cm_s0(y, irf, thr, theta, cub);
    }
};
struct S123 {
    static int32_t k(int32_t o, int32_t t) { return adm_k_s123(o, t); }
    static int32_t csf(uint32_t irf, int32_t x, int) { return adm_csf_s123(irf, x); }
    static int32_t f(int32_t c) { return adm_f_s123(c); }
    static int32_t centre(int32_t c) { return adm_centre_s123(c); }
    static int64_t cm(int32_t y, uint32_t irf, int32_t thr, int, int cub)
    {
        return adm_cm_s123(y, irf, thr, cub);
    }
};

/// §8 + §9.1 maskers of one row segment: f = Σθ |csf(x)|/30 and
/// c = Σθ |csf(x)|/15 at every position. Kept apart from the decoupling so
/// this plain loop over contiguous values vectorises.
template <typename T, typename Ops>
void masker_row(const T *const x[3], const uint32_t irf[3], ptrdiff_t p0, ptrdiff_t p1,
                int32_t *__restrict f, int32_t *__restrict c)
{
    for (ptrdiff_t p = p0; p < p1; p++) {
        f[p] = 0;
        c[p] = 0;
    }
    for (int t = 0; t < 3; t++) {
        const T *__restrict xt = x[t];
        const uint32_t w = irf[t];
        for (ptrdiff_t p = p0; p < p1; p++) {
            const auto v = Ops::csf(w, xt[p], t);
            f[p] += Ops::f(v);
            c[p] += Ops::centre(v);
        }
    }
}

template <typename T, typename Ops>
void decouple_rows(const T *const ref[3], const T *const dis[3], const AdmScaleParams &q,
                   double egl, int i0, int i1, const AdmDecoupleOut<T> &out)
{
    const int r0 = i0 > q.ct ? i0 : q.ct, r1 = i1 < q.cb ? i1 : q.cb;
    for (int i = r0; i < r1; i++) {
        const ptrdiff_t p0 = static_cast<ptrdiff_t>(i) * q.w + q.cl;
        const ptrdiff_t p1 = static_cast<ptrdiff_t>(i) * q.w + q.cr;
        for (ptrdiff_t p = p0; p < p1; p++) {
            // §6.1: one angle test per position, from H and V only.
            const bool flag = adm_angle_flag(ref[ADM_H][p], ref[ADM_V][p], dis[ADM_H][p], dis[ADM_V][p]);
            for (int t = 0; t < 3; t++) {
                const T o = ref[t][p], d = dis[t][p];
                const T r = adm_restore<T>(Ops::k(o, d), o, d, flag, egl);
                out.r[t][p] = r;
                out.a[t][p] = static_cast<T>(d - r);
            }
        }
        // DLM masker from CSF(a); AIM masker from CSF(r) (§10).
        masker_row<T, Ops>(out.a, q.irf, p0, p1, out.dlm_f, out.dlm_c);
        if (out.aim_f)
            masker_row<T, Ops>(out.r, q.irf, p0, p1, out.aim_f, out.aim_c);
    }
}

template <typename T, typename Ops>
void cm_row(const T *const y[3], const int32_t *f, const int32_t *c, const AdmScaleParams &q,
            int i, int64_t out[3])
{
    int64_t sum[3] = {0, 0, 0};
    const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w;
    for (int j = q.left; j < q.right; j++) {
        const int32_t thr = adm_thr(f, c, q.w, q.w, q.h, i, j); // shared by H, V, D (§9.1)
        for (int t = 0; t < 3; t++)
            sum[t] += Ops::cm(y[t][o + j], q.irf[t], thr, t, q.cm_cub[t]);
    }
    // §9.3: the rounding shift applies to each complete row sum.
    for (int t = 0; t < 3; t++)
        out[t] = adm_row_round(sum[t], q.cm_inner);
}

} // namespace

void adm_dwt_s0(const PlaneView &pic, int bpc, const AdmScaleParams &q, int i0, int i1,
                int16_t *const out[4])
{
    std::vector<int16_t> tl(static_cast<size_t>(q.in_w) + 3), th(static_cast<size_t>(q.in_w) + 3);
    for (int i = i0; i < i1; i++) {
        if (bpc > 8)
            dwt_s0_row<uint16_t>(pic, bpc, q, i, tl.data(), th.data(), out);
        else
            dwt_s0_row<uint8_t>(pic, bpc, q, i, tl.data(), th.data(), out);
    }
}

void adm_dwt_s123(const int16_t *in, const AdmScaleParams &q, int scale, int i0, int i1,
                  int32_t *const out[4])
{
    dwt_s123_rows(in, q, scale, i0, i1, out);
}

void adm_dwt_s123(const int32_t *in, const AdmScaleParams &q, int scale, int i0, int i1,
                  int32_t *const out[4])
{
    dwt_s123_rows(in, q, scale, i0, i1, out);
}

void adm_decouple(const int16_t *const ref[3], const int16_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int16_t> &out)
{
    decouple_rows<int16_t, S0>(ref, dis, q, egl, i0, i1, out);
}

void adm_decouple(const int32_t *const ref[3], const int32_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int32_t> &out)
{
    decouple_rows<int32_t, S123>(ref, dis, q, egl, i0, i1, out);
}

void adm_den_row(const int16_t *const ref[3], const AdmScaleParams &q, int i, uint64_t out[3])
{
    for (int t = 0; t < 3; t++) {
        const int16_t *row = band_row(ref[t], q.w, i);
        uint64_t sum = 0;
        for (int j = q.left; j < q.right; j++)
            sum += adm_den_s0(row[j]);
        out[t] = adm_row_round_u(sum, q.den_shift); // §7.1: per row, area-based shift
    }
}

void adm_den_row(const int32_t *const ref[3], const AdmScaleParams &q, int scale, int i,
                 uint64_t out[3])
{
    for (int t = 0; t < 3; t++) {
        const int32_t *row = band_row(ref[t], q.w, i);
        uint64_t sum = 0;
        for (int j = q.left; j < q.right; j++)
            sum += adm_den_s123(row[j], scale, q.den_cub);
        out[t] = adm_row_round_u(sum, q.den_shift); // §7.2: region height
    }
}

void adm_cm_row(const int16_t *const y[3], const int32_t *f, const int32_t *c,
                const AdmScaleParams &q, int i, int64_t out[3])
{
    cm_row<int16_t, S0>(y, f, c, q, i, out);
}

void adm_cm_row(const int32_t *const y[3], const int32_t *f, const int32_t *c,
                const AdmScaleParams &q, int i, int64_t out[3])
{
    cm_row<int32_t, S123>(y, f, c, q, i, out);
}

} // namespace vmafhip
