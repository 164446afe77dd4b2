// float_vif CPU reference (docs/float_vif.md §2 to §4): the luma of both
// pictures as floats, prescaled where the size changes, then per scale the
// decimation (§3.3) and, row by row, the five filtered values (§3.2) and the
// statistic of each sample (§4), through kernels/float_vif/float_vif_ops.h
// and the filter loops of kernels/speed/speed_ops.h, which the kernels run.
// Rows run in parallel: a row's float sums depend on that row only, and the
// rows' sums are then added top to bottom as libvmaf adds them, so any
// thread count gives libvmaf's bits.
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
void scale_sums(const Image &ref, const Image &dis, const std::vector<float> &f, const FvifStat &stat,
                float *num, float *den, ThreadPool &pool)
{
    const int w = ref.w, h = ref.h;
    std::vector<float> row_num(static_cast<size_t>(h)), row_den(static_cast<size_t>(h));
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        std::vector<float> t(static_cast<size_t>(FVIF_IMAGES) * w);
        for (int i = y0; i < y1; i++) {
            for (int k = 0; k < FVIF_IMAGES; k++)
                filter_vertical(f, w, h, i,
                                [&](int ii, int j) {
                                    return fvif_operand(k, ref.row(ii)[j], dis.row(ii)[j]);
                                },
                                t.data() + static_cast<size_t>(k) * w);
            const float *t1 = t.data(), *t2 = t1 + w, *txx = t2 + w, *tyy = txx + w,
                        *txy = tyy + w;
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
    const FvifStat stat = this->stat();
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
