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

namespace vmafhip {

namespace {

/// One orientation-indexed set of planes: H, V, D (libvmaf's theta order).
constexpr int ORIENTATIONS = 3;

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

/// The four DWT bands of one picture at one scale.
struct Dwt {
    Plane a, o[ORIENTATIONS]; ///< approximation; H, V, D details
};

/// §3 the region a scale's sums cover: border_factor 0.1 of each edge left out.
struct Region {
    int left, top, right, bottom;

    Region(int w, int h)
        : left(static_cast<int>(w * 0.1 - 0.5)), top(static_cast<int>(h * 0.1 - 0.5)),
          right(w - left), bottom(h - top)
    {
    }
    int area() const { return (bottom - top) * (right - left); }
};

// §4.1 Daubechies-2 taps, float.
constexpr float DWT_LO[4] = {0.482962913144690f, 0.836516303737469f, 0.224143868041857f,
                             -0.129409522550921f};
constexpr float DWT_HI[4] = {-0.129409522550921f, -0.224143868041857f, 0.836516303737469f,
                             -0.482962913144690f};

/// §4.2 sample 2i - 1 + t of n, mirrored: -1 reads 1, n reads n - 1.
int dwt_index(int k, int n)
{
    return k < 0 ? -k : k >= n ? 2 * n - k - 1 : k;
}

/// §4.1 one four-tap filter, a float sum from 0 in tap order.
float taps(const float c[4], float s0, float s1, float s2, float s3)
{
    float acc = 0.0f;
    acc += c[0] * s0;
    acc += c[1] * s1;
    acc += c[2] * s2;
    acc += c[3] * s3;
    return acc;
}

/// §4 one DWT level of `in` into out (bands of ceil(w / 2) x ceil(h / 2)).
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
                r[t] = in.row(dwt_index(2 * i - 1 + t, h));
            for (int j = 0; j < w; j++) {
                lo[j] = taps(DWT_LO, r[0][j], r[1][j], r[2][j], r[3][j]);
                hi[j] = taps(DWT_HI, r[0][j], r[1][j], r[2][j], r[3][j]);
            }
            float *a = out->a.row(i), *bh_ = out->o[0].row(i), *bv = out->o[1].row(i),
                  *bd = out->o[2].row(i);
            for (int j = 0; j < bw; j++) {
                const int x0 = dwt_index(2 * j - 1, w), x1 = dwt_index(2 * j, w),
                          x2 = dwt_index(2 * j + 1, w), x3 = dwt_index(2 * j + 2, w);
                a[j] = taps(DWT_LO, lo[x0], lo[x1], lo[x2], lo[x3]);
                bv[j] = taps(DWT_HI, lo[x0], lo[x1], lo[x2], lo[x3]);
                bh_[j] = taps(DWT_LO, hi[x0], hi[x1], hi[x2], hi[x3]);
                bd[j] = taps(DWT_HI, hi[x0], hi[x1], hi[x2], hi[x3]);
            }
        }
    });
}

/// §6.1 libvmaf's division n / d: where SSE2 exists, the reciprocal estimate
/// refined by one Newton step (ADM_OPT_RECIP_DIVISION), not an IEEE quotient.
float recip_div(float n, float d)
{
#if defined(__SSE2__)
    const float xi = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
    return n * (xi + xi * (1.0f - d * xi));
#else
    return n / d;
#endif
}

/// §6.3 the restored part of one band: the clipped gain k = t / o times o,
/// then, where the angles agree, the gain up to egl but not past t.
float restore(float o, float t, bool same_angle, double egl)
{
    const float eps = 1e-30f;
    float k = recip_div(t, o + eps);
    k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
    float rst = k * o;
    if (same_angle && rst > 0.0) {
        const double g = rst * egl;
        rst = static_cast<float>(g < t ? g : t);
    }
    if (same_angle && rst < 0.0) {
        const double g = rst * egl;
        rst = static_cast<float>(g > t ? g : t);
    }
    return rst;
}

/// §6 decouple the distorted details t into r (restored) and a (additive).
void decouple(const Dwt &ref, const Dwt &dis, double egl, Plane r[3], Plane a[3], ThreadPool &pool)
{
    const int w = ref.a.w, h = ref.a.h;
    for (int t = 0; t < ORIENTATIONS; t++) {
        r[t].resize(w, h);
        a[t].resize(w, h);
    }
    // §6.2 cos²(1°), rounded to float once.
    const float cos_1deg_sq = static_cast<float>(std::cos(1.0 * M_PI / 180.0) * std::cos(1.0 * M_PI / 180.0));
    pool.parallel_for(h, 8, [&](int i0, int i1) {
        for (int i = i0; i < i1; i++)
            for (int j = 0; j < w; j++) {
                const size_t k = static_cast<size_t>(i) * w + j;
                const float oh = ref.o[0].px[k], ov = ref.o[1].px[k];
                const float th = dis.o[0].px[k], tv = dis.o[1].px[k];
                const float ot_dp = oh * th + ov * tv;
                const float o_mag_sq = oh * oh + ov * ov;
                const float t_mag_sq = th * th + tv * tv;
                const bool same_angle =
                    ot_dp >= 0.0f && ot_dp * ot_dp >= cos_1deg_sq * o_mag_sq * t_mag_sq;
                for (int t = 0; t < ORIENTATIONS; t++) {
                    const float o = ref.o[t].px[k], d = dis.o[t].px[k];
                    const float rst = restore(o, d, same_angle, egl);
                    r[t].px[k] = rst;
                    a[t].px[k] = d - rst;
                }
            }
    });
}

/// §7.1 CSF of x: c = rf x, and the masking input f = |c| / 30 (a double
/// product rounded to float).
void csf(const Plane x[3], const float rf[3], Plane c[3], Plane f[3], ThreadPool &pool)
{
    const int w = x[0].w, h = x[0].h;
    for (int t = 0; t < ORIENTATIONS; t++) {
        c[t].resize(w, h);
        f[t].resize(w, h);
    }
    pool.parallel_for(h, 16, [&](int i0, int i1) {
        for (int t = 0; t < ORIENTATIONS; t++)
            for (size_t k = static_cast<size_t>(i0) * w; k < static_cast<size_t>(i1) * w; k++) {
                const float v = rf[t] * x[t].px[k];
                c[t].px[k] = v;
                f[t].px[k] = static_cast<float>(0.0333333351 * std::fabs(v));
            }
    });
}

/// §7.4 |x|^p of a non-negative float: x x x when p is 3, else powf.
float power(float x, double p)
{
    return p == 3.0 ? x * x * x : powf(x, static_cast<float>(p));
}

/// §7.4 a float sum per orientation over the region: each row left to right
/// from 0, the rows' sums added top to bottom. row(i, sums) adds row i.
template <typename RowFn>
void region_sums(const Region &g, ThreadPool &pool, float out[3], const RowFn &row)
{
    const int rows = g.bottom - g.top;
    std::vector<float> per_row(static_cast<size_t>(rows) * ORIENTATIONS);
    pool.parallel_for(rows, 8, [&](int r0, int r1) {
        for (int r = r0; r < r1; r++)
            row(g.top + r, &per_row[static_cast<size_t>(r) * ORIENTATIONS]);
    });
    for (int t = 0; t < ORIENTATIONS; t++) {
        out[t] = 0.0f;
        for (int r = 0; r < rows; r++)
            out[t] += per_row[static_cast<size_t>(r) * ORIENTATIONS + t];
    }
}

/// §7.5 the three orientations' p-norms plus the noise floor, summed H + V + D.
float combine(const float sums[3], const Region &g, double noise_weight, double p)
{
    const float e = static_cast<float>(1.0f / p);
    const float noise = powf(static_cast<float>(g.area() * noise_weight), e);
    float n[3];
    for (int t = 0; t < ORIENTATIONS; t++)
        n[t] = powf(sums[t], e) + noise;
    return n[0] + n[1] + n[2];
}

/// §7.2 the denominator of a scale: the p-norm of the reference's CSF-weighted
/// details over the region.
float denominator(const Dwt &ref, const float rf[3], const FloatAdmOptions &o, ThreadPool &pool)
{
    const Region g(ref.a.w, ref.a.h);
    float sums[3];
    region_sums(g, pool, sums, [&](int i, float *acc) {
        for (int t = 0; t < ORIENTATIONS; t++) {
            const float *x = ref.o[t].row(i);
            float s = 0.0f;
            for (int j = g.left; j < g.right; j++)
                s += power(std::fabs(rf[t] * x[j]), o.p_norm);
            acc[t] = s;
        }
    });
    return combine(sums, g, o.noise_weight, o.p_norm);
}

/// §7.3 the masking threshold at (i, j): per orientation the 3 x 3 window of
/// f with the centre replaced by |c| / 15 (a double sum step), orientations
/// added H, V, D. Neighbours past an edge mirror: -1 reads 1, n reads n - 1.
float mask_threshold(const Plane c[3], const Plane f[3], int i, int j)
{
    const int w = c[0].w, h = c[0].h;
    const int im = i == 0 ? 1 : i - 1, ip = i + 1 >= h ? h - 1 : i + 1;
    const int jm = j == 0 ? 1 : j - 1, jp = j + 1 >= w ? w - 1 : j + 1;
    float thr = 0.0f;
    for (int t = 0; t < ORIENTATIONS; t++) {
        const float *up = f[t].row(im), *mid = f[t].row(i), *dn = f[t].row(ip);
        float sum = 0.0f;
        sum += up[jm];
        sum += up[j];
        sum += up[jp];
        sum += mid[jm];
        sum = static_cast<float>(sum + 0.0666666701 * std::fabs(c[t].row(i)[j]));
        sum += mid[jp];
        sum += dn[jm];
        sum += dn[j];
        sum += dn[jp];
        thr += sum;
    }
    return thr;
}

/// §7.4 contrast masking: the p-norm of x's CSF-weighted details less the
/// threshold of (c, f), over the region, with the noise floor of weight nw.
float masked(const Plane x[3], const Plane c[3], const Plane f[3], const float rf[3], double nw,
             const FloatAdmOptions &o, ThreadPool &pool)
{
    const Region g(x[0].w, x[0].h);
    float sums[3];
    region_sums(g, pool, sums, [&](int i, float *acc) {
        float s[3] = {0.0f, 0.0f, 0.0f};
        for (int j = g.left; j < g.right; j++) {
            const float thr = o.bypass_cm ? 0.0f : mask_threshold(c, f, i, j);
            for (int t = 0; t < ORIENTATIONS; t++) {
                float v = std::fabs(x[t].row(i)[j] * rf[t]) - thr;
                v = v < 0.0f ? 0.0f : v;
                s[t] += power(v, o.p_norm);
            }
        }
        for (int t = 0; t < ORIENTATIONS; t++)
            acc[t] = s[t];
    });
    return combine(sums, g, nw, o.p_norm);
}

/// §2 luma to float on the 8-bit scale, less 128.
template <typename T>
void load(const PlaneView &p, int bpc, Plane *out, ThreadPool &pool)
{
    out->resize(p.w, p.h);
    const float scaler = static_cast<float>(1 << (bpc - 8));
    pool.parallel_for(p.h, 16, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const T *in = p.row<T>(y);
            float *o = out->row(y);
            for (int x = 0; x < p.w; x++)
                o[x] = (bpc == 8 ? static_cast<float>(in[x]) : static_cast<float>(in[x]) / scaler) - 128;
        }
    });
}

} // namespace

void FloatAdm::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    FloatAdmAccum &out = *static_cast<FloatAdmAccum *>(accum);
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
        if (s == 0 && o_.skip_scale0) {
            // §8: only the approximation of scale 0 is computed.
            out.num[s] = 0.0f;
            out.den[s] = 1e-10f;
            out.aim[s] = 0.0f;
        } else {
            const float rf[3] = {rf_[s][0], rf_[s][0], rf_[s][1]};
            decouple(rd, dd, o_.enhn_gain_limit, r, a, pool);
            out.den[s] = denominator(rd, rf, o_, pool);
            // §7.4 detail loss: r masked by a; additive impairment: a masked by
            // r, without a noise floor.
            csf(a, rf, c, fl, pool);
            out.num[s] = masked(r, c, fl, rf, o_.noise_weight, o_, pool);
            csf(r, rf, c, fl, pool);
            out.aim[s] = masked(a, c, fl, rf, 0.0, o_, pool);
        }
        std::swap(ref, rd.a);
        std::swap(dis, dd.a);
    }
}

} // namespace vmafhip
