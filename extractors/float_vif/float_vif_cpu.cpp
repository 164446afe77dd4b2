// float_vif CPU reference (docs/float_vif.md §2 to §4): the luma of both
// pictures as floats, prescaled where the size changes, then per scale the
// decimation (§3.3) and, row by row, the five filtered values (§3.2) and the
// statistic of each sample (§4). Rows run in parallel: a row's float sums
// depend on that row only, and the rows' sums are then added top to bottom
// as libvmaf adds them, so any thread count gives libvmaf's bits.
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/float_vif/float_vif.h"
#include "extractors/vif_tools/separable_filter.h"

namespace vmafhip {

namespace {

constexpr int MIN_ROWS = 8; // rows per chunk of the thread pool

/// A w x h float image, row-major.
struct Image {
    std::vector<float> px;
    int w = 0, h = 0;
    const float *row(int y) const { return px.data() + static_cast<size_t>(y) * w; }
};

/// §4.1: libvmaf's log2f_approx (VIF_OPT_FAST_LOG2 is on): the exponent,
/// plus a degree-8 polynomial of the mantissa in [0, 1), Horner's scheme in
/// float from 0 (0 * x + p0 included: it can be -0 or NaN).
float log2_approx(float x)
{
    static constexpr float poly[] = {-0.012671635276421f, 0.064841182402670f,
                                     -0.157048836463065f, 0.257167726303123f,
                                     -0.353800560300520f, 0.480131410397451f,
                                     -0.721314327952201f, 1.442694803896991f, 0.0f};
    if (x == 0.0f)
        return -INFINITY;
    if (x < 0.0f)
        return NAN;
    const uint32_t u = std::bit_cast<uint32_t>(x);
    const int exponent = static_cast<int>((u & 0x7F800000u) >> 23);
    const float remain = std::bit_cast<float>((u & 0x007FFFFFu) | 0x3F800000u) - 1.0f;
    float v = 0.0f;
    for (float p : poly)
        v = v * remain + p;
    return static_cast<float>(exponent - 127) + v;
}

/// §4: the statistic of one sample from its filtered values.
struct VifStat {
    float egl;           ///< (float)vif_enhn_gain_limit
    double nsq;          ///< vif_sigma_nsq, a double in every use
    float sigma_max_inv; ///< (float)(powf((float)nsq, 2) / 65025.0)

    void operator()(float mu1, float mu2, float xx, float yy, float xy, float *num,
                    float *den) const
    {
        constexpr float eps = 1.0e-10f;
        float s1 = xx - mu1 * mu1;
        float s2 = yy - mu2 * mu2;
        const float s12 = xy - mu1 * mu2;
        s1 = s1 > 0.0f ? s1 : 0.0f;
        s2 = s2 > 0.0f ? s2 : 0.0f;
        float g = s12 / (s1 + eps);
        float sv = s2 - g * s12;
        if (s1 < eps) {
            g = 0.0f;
            sv = s2;
            s1 = 0.0f;
        }
        if (s2 < eps) {
            g = 0.0f;
            sv = 0.0f;
        }
        if (g < 0.0f) {
            sv = s2;
            g = 0.0f;
        }
        sv = sv > eps ? sv : eps;
        g = g < egl ? g : egl;
        // Double sums (nsq is a double), each rounded to float by log2f's argument.
        float n = log2_approx(static_cast<float>(
            1.0 + static_cast<double>(g * g * s1) / (static_cast<double>(sv) + nsq)));
        float d = log2_approx(static_cast<float>(1.0 + static_cast<double>(s1) / nsq));
        if (s12 < 0.0f)
            n = 0.0f;
        if (static_cast<double>(s1) < nsq) {
            n = 1.0f - s2 * sigma_max_inv;
            d = 1.0f;
        }
        *num = n;
        *den = d;
    }
};

/// §3.3: src filtered with f, then every second sample of every second row.
void decimate(const Image &src, const std::vector<float> &f, Image *dst, ThreadPool &pool)
{
    dst->w = src.w / 2;
    dst->h = src.h / 2;
    dst->px.resize(static_cast<size_t>(dst->w) * dst->h);
    pool.parallel_for(dst->h, MIN_ROWS, [&](int y0, int y1) {
        std::vector<float> t(static_cast<size_t>(src.w));
        for (int y = y0; y < y1; y++) {
            filter_vertical(f, src.w, src.h, 2 * y, [&](int ii, int j) { return src.row(ii)[j]; }, t.data());
            float *out = dst->px.data() + static_cast<size_t>(y) * dst->w;
            for (int x = 0; x < dst->w; x++)
                out[x] = filter_horizontal(f, src.w, t.data(), 2 * x);
        }
    });
}

/// §4: the float num and den sums of one scale: each row's from 0, left to
/// right, then the rows' top to bottom.
void scale_sums(const Image &ref, const Image &dis, const std::vector<float> &f, const VifStat &stat,
                float *num, float *den, ThreadPool &pool)
{
    const int w = ref.w, h = ref.h;
    std::vector<float> row_num(static_cast<size_t>(h)), row_den(static_cast<size_t>(h));
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        std::vector<float> t(static_cast<size_t>(5) * w);
        float *t1 = t.data(), *t2 = t1 + w, *txx = t2 + w, *tyy = txx + w, *txy = tyy + w;
        for (int i = y0; i < y1; i++) {
            filter_vertical(f, w, h, i, [&](int ii, int j) { return ref.row(ii)[j]; }, t1);
            filter_vertical(f, w, h, i, [&](int ii, int j) { return dis.row(ii)[j]; }, t2);
            filter_vertical(f, w, h, i, [&](int ii, int j) { const float a = ref.row(ii)[j]; return a * a; }, txx);
            filter_vertical(f, w, h, i, [&](int ii, int j) { const float b = dis.row(ii)[j]; return b * b; }, tyy);
            filter_vertical(f, w, h, i, [&](int ii, int j) { return ref.row(ii)[j] * dis.row(ii)[j]; }, txy);
            float rn = 0.0f, rd = 0.0f;
            for (int j = 0; j < w; j++) {
                float n, d;
                stat(filter_horizontal(f, w, t1, j), filter_horizontal(f, w, t2, j),
                     filter_horizontal(f, w, txx, j), filter_horizontal(f, w, tyy, j),
                     filter_horizontal(f, w, txy, j), &n, &d);
                rn = rn + n;
                rd = rd + d;
            }
            row_num[static_cast<size_t>(i)] = rn;
            row_den[static_cast<size_t>(i)] = rd;
        }
    });
    float an = 0.0f, ad = 0.0f;
    for (int i = 0; i < h; i++) {
        an = an + row_num[static_cast<size_t>(i)];
        ad = ad + row_den[static_cast<size_t>(i)];
    }
    *num = an;
    *den = ad;
}

/// §2: the picture's luma as floats, prescaled where the plan says so.
void frame_image(const PlaneView &pv, int bpc, const FloatVifPlan &p, Image *out, ThreadPool &pool)
{
    std::vector<float> plane;
    float_plane(pv, bpc, &plane);
    out->w = p.sw;
    out->h = p.sh;
    if (p.sw == p.w && p.sh == p.h) {
        out->px = std::move(plane);
        return;
    }
    out->px.resize(static_cast<size_t>(p.sw) * p.sh);
    resample(p.rs, plane.data(), out->px.data(), pool);
}

} // namespace

void FloatVif::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const VifStat stat{static_cast<float>(o_.egl), o_.sigma_nsq,
                       static_cast<float>(powf(static_cast<float>(o_.sigma_nsq), 2.0f) /
                                          (255.0 * 255.0))};
    Image ref, dis;
    frame_image(f.ref[0], bpc_, plan_, &ref, pool);
    frame_image(f.dis[0], bpc_, plan_, &dis, pool);
    FloatVifAccum a{};
    for (int s = 0; s < FLOAT_VIF_SCALES; s++) {
        const std::vector<float> &filter = plan_.filter[s];
        if (s > 0) {
            Image r, d;
            decimate(ref, filter, &r, pool);
            decimate(dis, filter, &d, pool);
            ref = std::move(r);
            dis = std::move(d);
        }
        if (s == 0 && o_.skip_scale0)
            continue; // §5: num 0, den 0
        float num, den;
        scale_sums(ref, dis, filter, stat, &num, &den, pool);
        a.num[s] = num;
        a.den[s] = den;
    }
    *static_cast<FloatVifAccum *>(accum) = a;
}

} // namespace vmafhip
