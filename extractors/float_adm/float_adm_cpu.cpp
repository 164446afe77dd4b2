// float_adm CPU reference (docs/float_adm.md §2-§8): luma to float, then per
// scale the DWT, the decoupling, the denominator, and the two contrast-masked
// sums (detail loss and additive impairment). Rows run in parallel where
// libvmaf's rows are independent; every float sum keeps libvmaf's order: each
// row's sum left to right, the rows' sums added top to bottom (§7).
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/float_adm/float_adm.h"
#include "extractors/powf_kind.h"
#include "kernels/float_adm/float_adm_ops.h"

namespace vmafhip {

namespace {

/// A w x h float plane, rows packed.
struct Plane {
    int w = 0, h = 0;
    std::vector<float> px;

    void resize(int nw, int nh)
    {
        w = nw;
        h = nh;
        px.resize(static_cast<size_t>(nw) * nh);
    }
    float *row(int y) { return px.data() + static_cast<size_t>(y) * w; }
    const float *row(int y) const { return px.data() + static_cast<size_t>(y) * w; }
};

/// Three planes (H, V, D) as the shared row functions read them.
FadmBands bands(const Plane p[3])
{
    return FadmBands{{p[0].px.data(), p[1].px.data(), p[2].px.data()}, p[0].w, p[0].h};
}

/// The four DWT bands of one picture at one scale.
struct Dwt {
    Plane a, o[FADM_ORIENTATIONS]; ///< approximation; H, V, D details
};

/// §4 one DWT level of `in` into out (bands of ceil(w / 2) x ceil(h / 2)):
/// per output row the vertical pass of every column, then the horizontal
/// pass of each output.
void dwt(const Plane &in, Dwt *out, ThreadPool &pool)
{
    const int w = in.w, h = in.h, bw = (w + 1) / 2, bh = (h + 1) / 2;
    out->a.resize(bw, bh);
    for (Plane &p : out->o)
        p.resize(bw, bh);
    pool.parallel_for(bh, 8, [&](int i0, int i1) {
        std::vector<float> lo(static_cast<size_t>(w)), hi(static_cast<size_t>(w));
        for (int i = i0; i < i1; i++) {
            const float *r[4];
            for (int t = 0; t < 4; t++)
                r[t] = in.row(fadm_dwt_index(2 * i - 1 + t, h));
            for (int j = 0; j < w; j++) {
                lo[j] = fadm_dwt_lo(r[0][j], r[1][j], r[2][j], r[3][j]);
                hi[j] = fadm_dwt_hi(r[0][j], r[1][j], r[2][j], r[3][j]);
            }
            for (int j = 0; j < bw; j++) {
                float l4[4], h4[4];
                for (int t = 0; t < 4; t++) {
                    const int x = fadm_dwt_index(2 * j - 1 + t, w);
                    l4[t] = lo[x];
                    h4[t] = hi[x];
                }
                fadm_dwt_horizontal(l4, h4, &out->a.row(i)[j], &out->o[0].row(i)[j],
                                    &out->o[1].row(i)[j], &out->o[2].row(i)[j]);
            }
        }
    });
}

/// §6.1 libvmaf's division n / d on this processor: where SSE2 exists, the
/// reciprocal estimate refined by one Newton step (ADM_OPT_RECIP_DIVISION),
/// not an IEEE quotient.
struct HostDiv {
    float operator()(float n, float d) const
    {
#if defined(__SSE2__)
        return fadm_newton_div(n, d, _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d))));
#else
        return n / d;
#endif
    }
};

/// §6 decouple the distorted details t into r (restored) and a (additive).
void decouple(const Dwt &ref, const Dwt &dis, double egl, Plane r[3], Plane a[3], ThreadPool &pool)
{
    const int w = ref.a.w, h = ref.a.h;
    for (int t = 0; t < FADM_ORIENTATIONS; t++) {
        r[t].resize(w, h);
        a[t].resize(w, h);
    }
    const float cos_1deg_sq = float_adm_cos_1deg_sq();
    pool.parallel_for(h, 8, [&](int i0, int i1) {
        for (size_t k = static_cast<size_t>(i0) * w; k < static_cast<size_t>(i1) * w; k++) {
            float o[3], d[3], rk[3], ak[3];
            for (int t = 0; t < FADM_ORIENTATIONS; t++) {
                o[t] = ref.o[t].px[k];
                d[t] = dis.o[t].px[k];
            }
            fadm_decouple_at(o, d, cos_1deg_sq, egl, HostDiv(), rk, ak);
            for (int t = 0; t < FADM_ORIENTATIONS; t++) {
                r[t].px[k] = rk[t];
                a[t].px[k] = ak[t];
            }
        }
    });
}

/// §7.1 CSF of x: c = rf x, and the masking input f.
void csf(const Plane x[3], const float rf[3], Plane c[3], Plane f[3], ThreadPool &pool)
{
    const int w = x[0].w, h = x[0].h;
    for (int t = 0; t < FADM_ORIENTATIONS; t++) {
        c[t].resize(w, h);
        f[t].resize(w, h);
    }
    pool.parallel_for(h, 16, [&](int i0, int i1) {
        for (int t = 0; t < FADM_ORIENTATIONS; t++)
            for (size_t k = static_cast<size_t>(i0) * w; k < static_cast<size_t>(i1) * w; k++)
                fadm_csf_at(x[t].px[k], rf[t], &c[t].px[k], &f[t].px[k]);
    });
}

/// §7.4 a float sum per orientation over the region: each row left to right
/// from 0 (row(i, sums) adds row i), the rows' sums added top to bottom.
template <typename RowFn>
void region_sums(const FadmRegion &g, ThreadPool &pool, double out[3], const RowFn &row)
{
    const int rows = g.bottom - g.top;
    std::vector<float> per_row(static_cast<size_t>(rows) * FADM_ORIENTATIONS);
    pool.parallel_for(rows, 8, [&](int r0, int r1) {
        for (int r = r0; r < r1; r++)
            row(g.top + r, &per_row[static_cast<size_t>(r) * FADM_ORIENTATIONS]);
    });
    float sums[3];
    fadm_add_rows(per_row.data(), rows, sums);
    for (int t = 0; t < FADM_ORIENTATIONS; t++)
        out[t] = sums[t];
}

/// §7.2 the denominator sums of a scale: the reference's CSF-weighted details.
void denominator(const Dwt &ref, const float rf[3], const FloatAdmOptions &o, double out[3],
                 ThreadPool &pool)
{
    const FadmRegion g = fadm_region(ref.a.w, ref.a.h);
    const FadmBands x = bands(ref.o);
    region_sums(g, pool, out, [&](int i, float *acc) {
        fadm_den_row(x, rf, {o.p_norm, host_powf_kind()}, i, g.left, g.right, acc);
    });
}

/// §7.4 contrast masking: x's CSF-weighted details less the threshold of
/// (c, f), over the region.
void masked(const Plane x[3], const Plane c[3], const Plane f[3], const float rf[3],
            const FloatAdmOptions &o, double out[3], ThreadPool &pool)
{
    const FadmRegion g = fadm_region(x[0].w, x[0].h);
    const FadmBands xb = bands(x), cb = bands(c), fb = bands(f);
    region_sums(g, pool, out, [&](int i, float *acc) {
        fadm_masked_row(xb, cb, fb, rf, o.bypass_cm, {o.p_norm, host_powf_kind()}, i, g.left, g.right, acc);
    });
}

/// §2 luma to float on the 8-bit scale, less 128.
template <typename T>
void load(const PlaneView &p, int bpc, Plane *out, ThreadPool &pool)
{
    out->resize(p.w, p.h);
    pool.parallel_for(p.h, 16, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const T *in = p.row<T>(y);
            float *o = out->row(y);
            for (int x = 0; x < p.w; x++)
                o[x] = fadm_sample(in[x], bpc);
        }
    });
}

} // namespace

float float_adm_cos_1deg_sq()
{
    // §6.2 cos²(1°), the double product rounded to float once.
    return static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0));
}

void FloatAdm::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    FloatAdmAccum &out = *static_cast<FloatAdmAccum *>(accum);
    out = FloatAdmAccum{};
    Plane ref, dis;
    if (g_.bpc == 8) {
        load<uint8_t>(f.ref[0], 8, &ref, pool);
        load<uint8_t>(f.dis[0], 8, &dis, pool);
    } else {
        load<uint16_t>(f.ref[0], g_.bpc, &ref, pool);
        load<uint16_t>(f.dis[0], g_.bpc, &dis, pool);
    }
    Dwt rd, dd;
    Plane r[3], a[3], c[3], fl[3];
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        dwt(ref, &rd, pool);
        dwt(dis, &dd, pool);
        // §8: with adm_skip_scale0 scale 0 runs only the DWT's approximation.
        if (s > 0 || !o_.skip_scale0) {
            const float *rf = rf3_[s];
            decouple(rd, dd, o_.enhn_gain_limit, r, a, pool);
            denominator(rd, rf, o_, out.sum[s][FADM_DEN], pool);
            // §7.4 detail loss: r masked by a; additive impairment: a masked by r.
            csf(a, rf, c, fl, pool);
            masked(r, c, fl, rf, o_, out.sum[s][FADM_NUM], pool);
            csf(r, rf, c, fl, pool);
            masked(a, c, fl, rf, o_, out.sum[s][FADM_AIM], pool);
        }
        std::swap(ref, rd.a);
        std::swap(dis, dd.a);
    }
}

} // namespace vmafhip
