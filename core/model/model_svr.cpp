#include "core/model/model_svr.h"

#include <cmath>
#include <cstddef>
#include <vector>

namespace vmafhip {

namespace {

using Knot = std::pair<double, double>;

// libvmaf predict.c find_linear_function_parameters() for two knots with
// a.x < b.x and a.y < b.y (the loader guarantees the order; horizontal
// segments never come here).
void line_through(const Knot &a, const Knot &b, double *slope, double *offset)
{
    if (a.first == 0) {
        *offset = a.second;
        *slope = (b.second - *offset) / b.first;
    } else {
        *slope = (b.second - a.second) / (b.first - a.first);
        *offset = a.second - a.first * *slope;
    }
}

// libvmaf predict.c piecewise_linear_mapping(): every segment whose closed
// range holds x writes y (the last one wins), the first and the last
// segments extend beyond the knots, and an x in no segment (NaN) maps to 0.
double piecewise_linear(double x, const std::vector<Knot> &k)
{
    const size_t n_seg = k.size() - 1;
    double y = 0.0;
    for (size_t i = 0; i < n_seg; i++) {
        const Knot &a = k[i], &b = k[i + 1];
        const bool inside = a.first <= x && x <= b.first;
        const bool below = i == 0 && x < a.first;
        const bool above = i == n_seg - 1 && x > b.first;
        if (!inside && !below && !above)
            continue;
        if (a.second == b.second) {
            y = a.second;
        } else {
            double slope, offset;
            line_through(a, b, &slope, &offset);
            y = slope * x + offset;
        }
    }
    return y;
}

int compare(double x, double y) { return x > y ? 1 : x < y ? -1 : 0; }

// The merge sort of glibc 2.36's qsort (msort_with_tmp), which libvmaf's
// qsort(scores, ..., score_compare) runs: split at n/2, merge taking the
// left element while it compares <= 0. Any sort gives these bits for
// ordinary scores; this one also orders NaNs and signed zeros as libvmaf does.
void merge_sort(double *v, size_t n, double *tmp)
{
    if (n <= 1)
        return;
    const size_t n1 = n / 2;
    merge_sort(v, n1, tmp);
    merge_sort(v + n1, n - n1, tmp);
    size_t i = 0, j = n1, o = 0;
    while (i < n1 && j < n)
        tmp[o++] = compare(v[i], v[j]) <= 0 ? v[i++] : v[j++];
    while (i < n1)
        tmp[o++] = v[i++];
    for (size_t m = 0; m < o; m++) // v[j..n) is already in place
        v[m] = tmp[m];
}

// libvmaf predict.c percentile() over sorted scores.
double percentile(const double *s, unsigned n, double perc)
{
    const double p = perc * (n - 1) / 100.;
    const int l = static_cast<int>(std::floor(p));
    const int r = static_cast<int>(std::ceil(p));
    return l == r ? s[l] : s[l] * (r - p) + s[r] * (p - l);
}

} // namespace

double SvrModel::raw(const double *features, const int *input) const
{
    // libvmaf predict.c: normalize() each feature into the SVM node
    // (multiply, then add: no contraction), svm_predict(), denormalize().
    double x[MODEL_MAX_FEATURES];
    const size_t n = feature_names.size();
    for (size_t i = 0; i < n; i++) {
        const double f = features[input[i]];
        x[i] = linear_rescale ? slopes[i] * f + intercepts[i] : f;
    }
    if (chroma_correction != 0)
        correct_chroma(x);
    const double y = svm.predict(x);
    return linear_rescale ? (y - intercept) / slope : y;
}

void SvrModel::correct_chroma(double *x) const
{
    // libvmaf 3.2 predict.c, read off its object code: both inputs are taken
    // back from the normalised nodes, (x - intercept) / slope, so a SpEED
    // value too small to survive the round trip counts as 0 too.
    auto raw_of = [&](int i) {
        return linear_rescale ? (x[i] - intercepts[i]) / slopes[i] : x[i];
    };
    const int s = correction_speed;
    if (raw_of(s) != 0) // NaN too
        return;
    const double p = chroma_correction;
    const double v = p - raw_of(correction_adm3) * p;
    x[s] = linear_rescale ? v * slopes[s] + intercepts[s] : v;
}

double SvrModel::transformed(double y_in) const
{
    // libvmaf predict.c transform(): polynomial on the input, then the
    // knots on the polynomial's output, then the rectifications against
    // the input (docs/model.md §4).
    const ScoreTransform &t = transform;
    if (!t.enabled)
        return y_in;
    double y = y_in;
    if (t.has_p[0] || t.has_p[1] || t.has_p[2]) {
        y = 0.;
        if (t.has_p[0])
            y += t.p[0];
        if (t.has_p[1])
            y += t.p[1] * y_in;
        if (t.has_p[2])
            y += t.p[2] * y_in * y_in;
    }
    if (!t.knots.empty())
        y = piecewise_linear(y, t.knots);
    if (t.out_lte_in)
        y = y > y_in ? y_in : y;
    if (t.out_gte_in)
        y = y < y_in ? y_in : y;
    return y;
}

double SvrModel::clipped(double y) const
{
    if (!clip)
        return y;
    y = y < clip_min ? clip_min : y;
    return y > clip_max ? clip_max : y;
}

BootstrapStats bootstrap_stats(double *raw, unsigned n, const SvrModel &first)
{
    // libvmaf predict.c vmaf_bootstrap_predict_score_at_index(): statistics
    // of the untransformed, unclipped sub-model scores, then mapped through
    // the first sub-model's transform and clip; the spread is scaled by the
    // slope of that mapping at the mean (docs/model.md §5).
    double sum = 0.;
    for (unsigned i = 0; i < n; i++)
        sum += raw[i];
    const double mean = sum / n;
    const double delta = 0.01;
    double ssd = 0.;
    for (unsigned i = 0; i < n; i++) {
        const double d = raw[i] - mean; // pow(d, 2) in the source; GCC emits d * d
        ssd += d * d;
    }
    std::vector<double> tmp(n);
    merge_sort(raw, n, tmp.data());

    BootstrapStats s;
    s.bagging = first.score(mean);
    s.ci_p95_lo = first.score(percentile(raw, n, 2.5));
    s.ci_p95_hi = first.score(percentile(raw, n, 97.5));
    const double slope = (first.score(mean + delta) - first.score(mean - delta)) / (2.0 * delta);
    s.stddev = std::sqrt(ssd / n) * slope;
    return s;
}

} // namespace vmafhip
