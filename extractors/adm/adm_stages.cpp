// integer ADM CPU stages (docs/adm.md §4, §6-§9); see adm_stages.h. All
// arithmetic is in adm_ops.h, shared with the GPU kernels; this file only
// walks rows and columns. Every § below is a section of docs/adm.md.
#include "extractors/adm/adm_stages.h"

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

/// The four mirrored input rows 2i - 1 .. 2i + 2 of output row i.
template <typename T, typename RowOf> void input_rows(RowOf row, int in_h, int i, const T *s[4])
{
    for (int k = 0; k < 4; k++)
        s[k] = row(adm_mirror(2 * i - 1 + k, in_h));
}

// ---------------------------------------------------------------------------
// The plain kernels (AdmKernels). Pointers as parameters: GCC takes
// __restrict from them, and vectorises some of these loops for the baseline.

template <typename Pix>
void s0_vert(const Pix *const s[4], int bpc, int b, int e, int16_t *__restrict lo,
             int16_t *__restrict hi)
{
    for (int x = b; x < e; x++) {
        lo[x] = adm_s0_vert_lo(s[0][x], s[1][x], s[2][x], s[3][x], bpc);
        hi[x] = adm_s0_vert_hi(s[0][x], s[1][x], s[2][x], s[3][x], bpc);
    }
}

void s0_hori_bands(const int16_t *__restrict l, const int16_t *__restrict h, int b, int e,
                   int16_t *__restrict oa, int16_t *__restrict ov, int16_t *__restrict oh,
                   int16_t *__restrict od)
{
    for (int j = b; j < e; j++) {
        const int k = 2 * j;
        oa[j] = adm_s0_hori_round(adm_dwt_lo<int32_t>(l[k], l[k + 1], l[k + 2], l[k + 3]));
        ov[j] = adm_s0_hori_round(adm_dwt_hi<int32_t>(l[k], l[k + 1], l[k + 2], l[k + 3]));
        oh[j] = adm_s0_hori_round(adm_dwt_lo<int32_t>(h[k], h[k + 1], h[k + 2], h[k + 3]));
        od[j] = adm_s0_hori_round(adm_dwt_hi<int32_t>(h[k], h[k + 1], h[k + 2], h[k + 3]));
    }
}

void s0_hori(const int16_t *l, const int16_t *h, int b, int e, int16_t *const out[4])
{
    s0_hori_bands(l, h, b, e, out[ADM_A], out[ADM_V], out[ADM_H], out[ADM_D]);
}

template <typename T>
void s123_vert(const T *const s[4], int shift, int b, int e, int32_t *__restrict lo,
               int32_t *__restrict hi)
{
    for (int x = b; x < e; x++) {
        lo[x] = adm_s123_round(adm_dwt_lo<int64_t>(s[0][x], s[1][x], s[2][x], s[3][x]), shift);
        hi[x] = adm_s123_round(adm_dwt_hi<int64_t>(s[0][x], s[1][x], s[2][x], s[3][x]), shift);
    }
}

void s123_hori_bands(const int32_t *__restrict l, const int32_t *__restrict h, int shift, int b,
                     int e, int32_t *__restrict oa, int32_t *__restrict ov,
                     int32_t *__restrict oh, int32_t *__restrict od)
{
    for (int j = b; j < e; j++) {
        const int k = 2 * j;
        oa[j] = adm_s123_round(adm_dwt_lo<int64_t>(l[k], l[k + 1], l[k + 2], l[k + 3]), shift);
        ov[j] = adm_s123_round(adm_dwt_hi<int64_t>(l[k], l[k + 1], l[k + 2], l[k + 3]), shift);
        oh[j] = adm_s123_round(adm_dwt_lo<int64_t>(h[k], h[k + 1], h[k + 2], h[k + 3]), shift);
        od[j] = adm_s123_round(adm_dwt_hi<int64_t>(h[k], h[k + 1], h[k + 2], h[k + 3]), shift);
    }
}

void s123_hori(const int32_t *l, const int32_t *h, int shift, int b, int e, int32_t *const out[4])
{
    s123_hori_bands(l, h, shift, b, e, out[ADM_A], out[ADM_V], out[ADM_H], out[ADM_D]);
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

template <typename T, typename Ops>
void decouple(const T *const ref[3], const T *const dis[3], double egl, ptrdiff_t b, ptrdiff_t e,
              T *const r[3], T *const a[3])
{
    for (ptrdiff_t p = b; p < e; p++) {
        // §6.1: one angle test per position, from H and V only.
        const bool flag =
            adm_angle_flag(ref[ADM_H][p], ref[ADM_V][p], dis[ADM_H][p], dis[ADM_V][p]);
        for (int t = 0; t < 3; t++) {
            const T o = ref[t][p], d = dis[t][p];
            const T rt = adm_restore<T>(Ops::k(o, d), o, d, flag, egl);
            r[t][p] = rt;
            a[t][p] = static_cast<T>(d - rt);
        }
    }
}

/// Kept apart from the decoupling so this plain loop over contiguous values
/// vectorises.
template <typename T, typename Ops>
void masker(const T *const x[3], const uint32_t irf[3], ptrdiff_t b, ptrdiff_t e,
            int32_t *__restrict f, int32_t *__restrict c)
{
    for (ptrdiff_t p = b; p < e; p++) {
        f[p] = 0;
        c[p] = 0;
    }
    for (int t = 0; t < 3; t++) {
        const T *__restrict xt = x[t];
        const uint32_t w = irf[t];
        for (ptrdiff_t p = b; p < e; p++) {
            const auto v = Ops::csf(w, xt[p], t);
            f[p] += Ops::f(v);
            c[p] += Ops::centre(v);
        }
    }
}

void den_s0(const int16_t *const o[3], int b, int e, uint64_t sum[3])
{
    for (int t = 0; t < 3; t++)
        for (int j = b; j < e; j++)
            sum[t] += adm_den_s0(o[t][j]);
}

void den_s123(const int32_t *const o[3], int scale, int cub, int b, int e, uint64_t sum[3])
{
    for (int t = 0; t < 3; t++)
        for (int j = b; j < e; j++)
            sum[t] += adm_den_s123(o[t][j], scale, cub);
}

template <typename T, typename Ops>
void cm(const T *const y[3], const int32_t *f, const int32_t *c, const AdmScaleParams &q, int i,
        int b, int e, int64_t sum[3])
{
    const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w;
    for (int j = b; j < e; j++) {
        const int32_t thr = adm_thr(f, c, q.w, q.w, q.h, i, j); // shared by H, V, D (§9.1)
        for (int t = 0; t < 3; t++)
            sum[t] += Ops::cm(y[t][o + j], q.irf[t], thr, t, q.cm_cub[t]);
    }
}

// ---------------------------------------------------------------------------
// Row walks.

/// §4.2 vertical pass then horizontal pass of one output row i.
template <typename Pix>
void dwt_s0_row(const AdmKernels &k, const PlaneView &pic, int bpc, const AdmScaleParams &q,
                int i, int16_t *tl, int16_t *th, int16_t *const out[4])
{
    const int n = q.in_w;
    const Pix *s[4];
    input_rows<Pix>([&](int y) { return pic.row<Pix>(y); }, q.in_h, i, s);
    // The picture is usually not in the cache, and its rows are too short
    // for the hardware prefetcher: ask for the next output row's new rows.
    for (int y = 2 * i + 3; y <= 2 * i + 4 && y < q.in_h; y++) {
        const char *row = reinterpret_cast<const char *>(pic.row<Pix>(y));
        for (size_t x = 0; x < n * sizeof(Pix); x += 64)
            __builtin_prefetch(row + x);
    }
    if constexpr (sizeof(Pix) == 1)
        k.s0_vert8(s, bpc, 0, n, tl + 1, th + 1);
    else
        k.s0_vert16(s, bpc, 0, n, tl + 1, th + 1);
    pad_row(tl, n);
    pad_row(th, n);
    const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w;
    int16_t *const rows[4] = {out[0] + o, out[1] + o, out[2] + o, out[3] + o};
    k.s0_hori(tl, th, 0, q.w, rows);
}

/// §4.3, int64 sums narrowed to int32 after each pass.
template <typename T>
void dwt_s123_rows(const AdmKernels &k, const T *in, const AdmScaleParams &q, int scale, int i0,
                   int i1, int32_t *const out[4])
{
    const int n = q.in_w;
    const int sv = adm_s123_vert_shift(scale), sh = adm_s123_hori_shift(scale);
    std::vector<int32_t> tl(static_cast<size_t>(n) + 3), th(static_cast<size_t>(n) + 3);
    for (int i = i0; i < i1; i++) {
        const T *s[4];
        input_rows<T>([&](int y) { return band_row(in, n, y); }, q.in_h, i, s);
        if constexpr (sizeof(T) == 2)
            k.s123_vert16(s, sv, 0, n, tl.data() + 1, th.data() + 1);
        else
            k.s123_vert32(s, sv, 0, n, tl.data() + 1, th.data() + 1);
        pad_row(tl.data(), n);
        pad_row(th.data(), n);
        const ptrdiff_t o = static_cast<ptrdiff_t>(i) * q.w;
        int32_t *const rows[4] = {out[0] + o, out[1] + o, out[2] + o, out[3] + o};
        k.s123_hori(tl.data(), th.data(), sh, 0, q.w, rows);
    }
}

template <typename T, typename Decouple, typename Masker>
void decouple_rows(const T *const ref[3], const T *const dis[3], const AdmScaleParams &q,
                   double egl, int i0, int i1, const AdmDecoupleOut<T> &out, Decouple dec,
                   Masker mask)
{
    const int r0 = i0 > q.ct ? i0 : q.ct, r1 = i1 < q.cb ? i1 : q.cb;
    for (int i = r0; i < r1; i++) {
        const ptrdiff_t p0 = static_cast<ptrdiff_t>(i) * q.w + q.cl;
        const ptrdiff_t p1 = static_cast<ptrdiff_t>(i) * q.w + q.cr;
        dec(ref, dis, egl, p0, p1, out.r, out.a);
        // DLM masker from CSF(a); AIM masker from CSF(r) (§10).
        mask(out.a, q.irf, p0, p1, out.dlm_f, out.dlm_c);
        if (out.aim_f)
            mask(out.r, q.irf, p0, p1, out.aim_f, out.aim_c);
    }
}

/// §7: the den sums of region row i (the kernel called as den(rows, sum)),
/// each rounded whole.
template <typename T, typename Den>
void den_row(const T *const ref[3], const AdmScaleParams &q, int i, uint64_t out[3], Den den)
{
    const T *rows[3];
    for (int t = 0; t < 3; t++)
        rows[t] = band_row(ref[t], q.w, i);
    uint64_t sum[3] = {0, 0, 0};
    den(rows, sum);
    for (int t = 0; t < 3; t++)
        out[t] = adm_row_round_u(sum[t], q.den_shift);
}

/// §9: the CM sums of region row i, each rounded whole (§9.3: the rounding
/// shift applies to each complete row sum).
template <typename T, typename Cm>
void cm_row(Cm cm, const T *const y[3], const int32_t *f, const int32_t *c,
            const AdmScaleParams &q, int i, int64_t out[3])
{
    int64_t sum[3] = {0, 0, 0};
    cm(y, f, c, q, i, q.left, q.right, sum);
    for (int t = 0; t < 3; t++)
        out[t] = adm_row_round(sum[t], q.cm_inner);
}

} // namespace

const AdmKernels &adm_kernels_scalar()
{
    static const AdmKernels k = {
        s0_vert<uint8_t>,
        s0_vert<uint16_t>,
        s0_hori,
        s123_vert<int16_t>,
        s123_vert<int32_t>,
        s123_hori,
        decouple<int16_t, S0>,
        decouple<int32_t, S123>,
        masker<int16_t, S0>,
        masker<int32_t, S123>,
        den_s0,
        den_s123,
        cm<int16_t, S0>,
        cm<int32_t, S123>,
    };
    return k;
}

void adm_dwt_s0(const AdmKernels &k, const PlaneView &pic, int bpc, const AdmScaleParams &q,
                int i0, int i1, int16_t *const out[4])
{
    std::vector<int16_t> tl(static_cast<size_t>(q.in_w) + 3), th(static_cast<size_t>(q.in_w) + 3);
    for (int i = i0; i < i1; i++) {
        if (bpc > 8)
            dwt_s0_row<uint16_t>(k, pic, bpc, q, i, tl.data(), th.data(), out);
        else
            dwt_s0_row<uint8_t>(k, pic, bpc, q, i, tl.data(), th.data(), out);
    }
}

void adm_dwt_s123(const AdmKernels &k, const int16_t *in, const AdmScaleParams &q, int scale,
                  int i0, int i1, int32_t *const out[4])
{
    dwt_s123_rows(k, in, q, scale, i0, i1, out);
}

void adm_dwt_s123(const AdmKernels &k, const int32_t *in, const AdmScaleParams &q, int scale,
                  int i0, int i1, int32_t *const out[4])
{
    dwt_s123_rows(k, in, q, scale, i0, i1, out);
}

void adm_decouple(const AdmKernels &k, const int16_t *const ref[3], const int16_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int16_t> &out)
{
    decouple_rows(ref, dis, q, egl, i0, i1, out, k.decouple_s0, k.masker_s0);
}

void adm_decouple(const AdmKernels &k, const int32_t *const ref[3], const int32_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int32_t> &out)
{
    decouple_rows(ref, dis, q, egl, i0, i1, out, k.decouple_s123, k.masker_s123);
}

void adm_den_row(const AdmKernels &k, const int16_t *const ref[3], const AdmScaleParams &q, int i,
                 uint64_t out[3])
{
    // §7.1: the row shift comes from the area.
    den_row(ref, q, i, out, [&](const int16_t *const *rows, uint64_t *sum) {
        k.den_s0(rows, q.left, q.right, sum);
    });
}

void adm_den_row(const AdmKernels &k, const int32_t *const ref[3], const AdmScaleParams &q,
                 int scale, int i, uint64_t out[3])
{
    // §7.2: the row shift comes from the region's height.
    den_row(ref, q, i, out, [&](const int32_t *const *rows, uint64_t *sum) {
        k.den_s123(rows, scale, q.den_cub, q.left, q.right, sum);
    });
}

void adm_cm_row(const AdmKernels &k, const int16_t *const y[3], const int32_t *f,
                const int32_t *c, const AdmScaleParams &q, int i, int64_t out[3])
{
    cm_row(k.cm_s0, y, f, c, q, i, out);
}

void adm_cm_row(const AdmKernels &k, const int32_t *const y[3], const int32_t *f,
                const int32_t *c, const AdmScaleParams &q, int i, int64_t out[3])
{
    cm_row(k.cm_s123, y, f, c, q, i, out);
}

} // namespace vmafhip
