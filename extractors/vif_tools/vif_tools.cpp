// libvmaf's vif_tools.c and picture_copy(), as float_vif and SpEED use them
// (docs/speed.md §1.3, §2.1, §5.1, §5.2).
#include "extractors/vif_tools/vif_tools.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

#include "base/thread_pool.h"
#include "extractors/float_picture.h"
#include "kernels/speed/speed_ops.h"

namespace vmafhip {

namespace {

// docs/speed.md §1.3: libvmaf 3.2.0's valid kernelscales, as float bit patterns.
constexpr uint32_t valid_kernelscales[] = {
    0x3F800000, 0x3F000000, 0x3FC00000, 0x40000000, 0x3F2AAAAB, 0x4019999A, 0x406D8699,
    0x3FAAAAAB, 0x3F955555, 0x3FA00000, 0x3FB55555, 0x3FD55555, 0x40400000, 0x3EE38E39,
    0x3FBCBFB1, 0x3FC51EB8, 0x3FCCCCCD, 0x3F8888A4, 0x3F360B5F, 0x3F3DA123, 0x3F8E38E3,
};

// §5.1: the float mirror of a position into 0..hi.
float mirror_pos(float t, float hi) { return t < 0.0f ? -t : (t > hi ? 2.0f * hi - t : t); }

// §5.1: the bicubic kernel (a = -0.75).
float cubic(float t)
{
    constexpr float a = -0.75f;
    t = std::fabs(t);
    if (t < 1.0f)
        return ((((a + 2.0f) * t - (a + 3.0f)) * t) * t) + 1.0f;
    if (t < 2.0f)
        return (((t - 5.0f) * t + 8.0f) * t - 4.0f) * a;
    return 0.0f;
}

// §5.1: the lanczos4 kernel.
float lanczos4(float t)
{
    constexpr double pi = 3.14159265358979323846, pi2 = pi * pi;
    if (t == 0.0f)
        return 1.0f;
    if (!(t > -4.0f && t < 4.0f))
        return 0.0f;
    const double x = t;
    return static_cast<float>(((4.0 * std::sin(pi * x)) * std::sin((pi * x) / 4.0)) /
                              ((pi2 * x) * x));
}

} // namespace

const char *const KERNELSCALES_ACCEPTED =
    "1, 0.5, 1.5, 2, 2/3, 2.4, 360/97, 4/3, 3.5/3, 1.25, 4.25/3, 5/3, 3, 4/9, 1.4746, 1.54, "
    "1.6, 1.06667, 0.711111, 0.74074 and 1.111111, within 0.001";

const char *const SCALER_NAMES[] = {"nearest", "bilinear", "bicubic", "lanczos4", nullptr};

void float_plane(const PlaneView &pv, int bpc, std::vector<float> *out)
{
    out->resize(static_cast<size_t>(pv.w) * pv.h);
    float_plane(pv, bpc, -128, out->data(), nullptr);
}

bool kernelscale_valid(double ks)
{
    for (uint32_t bits : valid_kernelscales)
        if (std::fabs(static_cast<float>(ks) - std::bit_cast<float>(bits)) < 1e-3)
            return true;
    return false;
}

int gaussian_width(int s, float k)
{
    const int n = (1 << (4 - s)) + 1;
    int c = static_cast<int>(std::ceil(static_cast<float>(n) * k));
    if (c % 2 == 0)
        c++;
    return std::max(c, 3);
}

std::vector<float> gaussian_taps(int w, float s)
{
    std::vector<float> g(static_cast<size_t>(w));
    const double sd = s;
    const float den = static_cast<float>(1.0 / (sd * 2.5066282746310002));
    float sum = 0.0f;
    for (int i = 0; i < w; i++) {
        const double t = static_cast<float>(i - (w - 1) / 2);
        const float num = static_cast<float>(std::exp((((-0.5 * t) / sd) * t) / sd));
        g[static_cast<size_t>(i)] = num / den;
        sum = sum + g[static_cast<size_t>(i)];
    }
    for (float &v : g)
        v = v / sum;
    return g;
}

int scaler_taps(Scaler method)
{
    switch (method) {
    case Scaler::Nearest: return 1;
    case Scaler::Bilinear: return 2;
    case Scaler::Bicubic: return 4;
    default: return 9;
    }
}

ScaleAxis scale_axis(Scaler method, int n, int m)
{
    const float r = static_cast<float>(n) / static_cast<float>(m);
    const float hi = static_cast<float>(n - 1);
    const auto mirrored = [hi](int i) {
        return static_cast<int>(mirror_pos(static_cast<float>(i), hi));
    };
    ScaleAxis a;
    const int taps = scaler_taps(method);
    for (int x = 0; x < m; x++) {
        if (method == Scaler::Nearest) {
            a.idx.push_back(static_cast<int>(static_cast<float>(x) * r));
            a.w.push_back(1.0f);
            continue;
        }
        const float xs = static_cast<float>((static_cast<double>(x) + 0.5) * static_cast<double>(r) - 0.5);
        if (method == Scaler::Bilinear) {
            const int x1 = static_cast<int>(mirror_pos(std::floor(xs), hi));
            const int x2 = static_cast<int>(mirror_pos(std::ceil(xs), hi));
            const float dx = xs - static_cast<float>(x1);
            a.idx.insert(a.idx.end(), {x1, x2});
            a.w.insert(a.w.end(), {1.0f - dx, dx});
            continue;
        }
        const int x0 = static_cast<int>(std::floor(xs));
        const float dx = xs - static_cast<float>(x0);
        const int half = method == Scaler::Bicubic ? 1 : 4;
        for (int i = -half; i < taps - half; i++) {
            a.idx.push_back(mirrored(x0 + i));
            const float t = static_cast<float>(i) - dx;
            a.w.push_back(method == Scaler::Bicubic ? cubic(t) : lanczos4(t));
        }
    }
    return a;
}

int scaled_size(int n, double ps) { return static_cast<int>(n * ps + 0.5); }

Resampling resampling(Scaler m, int w, int h, int sw, int sh)
{
    Resampling r;
    r.w = w, r.h = h, r.sw = sw, r.sh = sh;
    r.taps = scaler_taps(m);
    r.normalise = m == Scaler::Lanczos4;
    r.ax = scale_axis(m, w, sw);
    r.ay = scale_axis(m, h, sh);
    return r;
}

void resample(const Resampling &r, const float *src, float *out, ThreadPool &pool)
{
    constexpr int MIN_ROWS = 8; // rows per chunk of the thread pool
    const SpeedImage in{src, r.w};
    const size_t t = static_cast<size_t>(r.taps);
    pool.parallel_for(r.sh, MIN_ROWS, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < r.sw; x++)
                out[static_cast<size_t>(y) * r.sw + x] =
                    speed_resample_at(in, &r.ax.idx[x * t], &r.ax.w[x * t], r.taps,
                                      &r.ay.idx[y * t], &r.ay.w[y * t], r.taps, r.normalise);
    });
}

} // namespace vmafhip
