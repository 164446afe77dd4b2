// The AVX2 kernels of the ADM CPU stages against the plain ones
// (extractors/adm/adm_stages.h): every kernel on random spans at odd offsets and
// lengths, with extreme values, and whole frames (the accumulators) at odd
// sizes, every bit depth and the options that change the arithmetic. The
// goldens cover few sizes; these tests would catch a lane or tail mistake
// anywhere. Skipped where the CPU has no AVX2.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/adm/adm.h"
#include "extractors/adm/adm_cpu_avx2.h"
#include "extractors/adm/adm_cpu_avx2_ops.h"
#include "extractors/adm/adm_stages.h"
#include "tests/common/extractors.h"

using namespace vmafhip;

namespace {

const AdmKernels &plain() { return adm_kernels_scalar(); }

/// The AVX2 table, or skip the test.
#define AVX2_OR_SKIP(k)                                                                            \
    const AdmKernels *k##_p = adm_kernels_avx2();                                                  \
    if (!k##_p)                                                                                    \
        GTEST_SKIP() << "no AVX2 on this CPU or build";                                            \
    const AdmKernels &k = *k##_p

std::mt19937_64 &rng()
{
    static std::mt19937_64 g(20240531);
    return g;
}

int64_t uniform(int64_t lo, int64_t hi)
{
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng());
}

/// n values in [lo, hi], a tenth of them the ends themselves.
template <typename T> std::vector<T> values(size_t n, int64_t lo, int64_t hi)
{
    std::vector<T> v(n);
    for (auto &x : v) {
        const int64_t r = uniform(0, 19);
        x = static_cast<T>(r == 0 ? lo : r == 1 ? hi : uniform(lo, hi));
    }
    return v;
}

/// Three bands of n values of the whole range of T, and pointers to them.
template <typename T> void any_bands(size_t n, std::vector<T> v[3], const T *p[3])
{
    for (int t = 0; t < 3; t++) {
        v[t] = values<T>(n, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
        p[t] = v[t].data();
    }
}

/// A span [b, e) within [0, n): odd starts and lengths, short ones too.
void span(int n, int *b, int *e)
{
    *b = static_cast<int>(uniform(0, 9));
    *e = static_cast<int>(uniform(*b, n));
}

constexpr int ROUNDS = 300;

} // namespace

namespace {

/// A vertical DWT kernel of both tables (param: bpc or shift) on 4 rows of
/// n values in [lo, hi], columns [b, e) at random: the same lo and hi rows.
template <typename In, typename Out>
void compare_vert(const AdmKernels &k,
                  void (*AdmKernels::*vert)(const In *const *, int, int, int, Out *, Out *),
                  int param, int64_t lo, int64_t hi)
{
    const int n = 200;
    std::vector<In> rows[4];
    const In *s[4];
    for (int r = 0; r < 4; r++) {
        rows[r] = values<In>(n, lo, hi);
        s[r] = rows[r].data();
    }
    std::vector<Out> out[2][2]; // [table][lo, hi]
    for (auto &v : out)
        for (auto &row : v)
            row.assign(n, 7);
    int b, e;
    span(n, &b, &e);
    (plain().*vert)(s, param, b, e, out[0][0].data(), out[0][1].data());
    (k.*vert)(s, param, b, e, out[1][0].data(), out[1][1].data());
    ASSERT_EQ(out[0][0], out[1][0]) << "lo, param " << param << " [" << b << ", " << e << ")";
    ASSERT_EQ(out[0][1], out[1][1]) << "hi, param " << param << " [" << b << ", " << e << ")";
}

/// A horizontal DWT kernel of both tables, called as hori(table, l, h, b, e,
/// out), on padded rows of any T: the same four bands.
template <typename T, typename Hori> void compare_hori(const AdmKernels &k, Hori hori)
{
    const int n = 200, w = n / 2;
    const std::vector<T> l =
        values<T>(n + 3, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    const std::vector<T> h =
        values<T>(n + 3, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    std::vector<T> bands[2][4];
    T *out[2][4];
    for (int v = 0; v < 2; v++)
        for (int t = 0; t < 4; t++) {
            bands[v][t].assign(w, 7);
            out[v][t] = bands[v][t].data();
        }
    int b, e;
    span(w, &b, &e);
    hori(plain(), l.data(), h.data(), b, e, out[0]);
    hori(k, l.data(), h.data(), b, e, out[1]);
    for (int t = 0; t < 4; t++)
        ASSERT_EQ(bands[0][t], bands[1][t]) << "band " << t << " [" << b << ", " << e << ")";
}

} // namespace

TEST(AdmKernels, DwtScale0)
{
    AVX2_OR_SKIP(k);
    for (int round = 0; round < ROUNDS; round++) {
        // Samples below 2^bpc, as the context guarantees.
        ASSERT_NO_FATAL_FAILURE(compare_vert(k, &AdmKernels::s0_vert8, 8, 0, 255));
        ASSERT_NO_FATAL_FAILURE(compare_vert(k, &AdmKernels::s0_vert16, 10, 0, 1023));
        ASSERT_NO_FATAL_FAILURE(compare_vert(k, &AdmKernels::s0_vert16, 12, 0, 4095));
        ASSERT_NO_FATAL_FAILURE(compare_hori<int16_t>(
            k, [](const AdmKernels &t, const int16_t *l, const int16_t *h, int b, int e,
                  int16_t *const *out) { t.s0_hori(l, h, b, e, out); }));
    }
}

TEST(AdmKernels, DwtScales123)
{
    AVX2_OR_SKIP(k);
    for (int round = 0; round < ROUNDS; round++) {
        const int shift = round % 3 == 0 ? 0 : round % 3 == 1 ? 15 : 16;
        ASSERT_NO_FATAL_FAILURE(
            compare_vert(k, &AdmKernels::s123_vert16, shift, INT16_MIN, INT16_MAX));
        ASSERT_NO_FATAL_FAILURE(
            compare_vert(k, &AdmKernels::s123_vert32, shift, INT32_MIN, INT32_MAX));
        ASSERT_NO_FATAL_FAILURE(compare_hori<int32_t>(
            k, [shift](const AdmKernels &t, const int32_t *l, const int32_t *h, int b, int e,
                       int32_t *const *out) { t.s123_hori(l, h, shift, b, e, out); }));
    }
}

namespace {

/**
 * Reference and distorted H, V, D bands of n positions in [-lim, lim] that
 * reach every branch of §6: unrelated pairs, distorted values a multiple of
 * the reference one with a little noise (inside the 1-degree cone, for both
 * signs of the gain), equal ones, zeros and the range's ends.
 */
template <typename T>
void decouple_bands(size_t n, int64_t lim, std::vector<T> o[3], std::vector<T> t[3])
{
    for (int b = 0; b < 3; b++) {
        o[b] = values<T>(n, -lim, lim);
        t[b] = values<T>(n, -lim, lim);
    }
    for (size_t p = 0; p < n; p++) {
        const int64_t kind = uniform(0, 5);
        const double gain = kind == 1   ? uniform(0, 3000) / 1000.0
                            : kind == 2 ? -uniform(0, 3000) / 1000.0
                                        : 1.0;
        for (int b = 0; b < 3; b++) {
            if (kind == 0)
                continue;
            if (kind == 4) {
                o[b][p] = static_cast<T>(uniform(-2, 2));
                continue;
            }
            int64_t v = static_cast<int64_t>(static_cast<double>(o[b][p]) * gain) +
                        (kind < 3 ? uniform(-2, 2) : 0);
            v = v < -lim ? -lim : v > lim ? lim : v;
            t[b][p] = static_cast<T>(kind == 5 ? 0 : v);
        }
        if (lim == INT32_MAX && kind == 3)
            o[ADM_D][p] = static_cast<T>(INT32_MIN);
    }
}

/// A decoupling kernel of both tables on the bands o, t over [b, e): the
/// same r and a.
template <typename T>
void compare_decouple_span(const AdmKernels &k,
                           void (*AdmKernels::*dec)(const T *const *, const T *const *, double,
                                                    ptrdiff_t, ptrdiff_t, T *const *, T *const *),
                           const std::vector<T> o[3], const std::vector<T> t[3], double egl, int b,
                           int e)
{
    const size_t n = o[0].size();
    const T *ref[3] = {o[0].data(), o[1].data(), o[2].data()};
    const T *dis[3] = {t[0].data(), t[1].data(), t[2].data()};
    std::vector<T> r[2][3], a[2][3];
    T *rp[2][3], *ap[2][3];
    for (int v = 0; v < 2; v++)
        for (int band = 0; band < 3; band++) {
            r[v][band].assign(n, 7);
            a[v][band].assign(n, 7);
            rp[v][band] = r[v][band].data();
            ap[v][band] = a[v][band].data();
        }
    (plain().*dec)(ref, dis, egl, b, e, rp[0], ap[0]);
    (k.*dec)(ref, dis, egl, b, e, rp[1], ap[1]);
    for (int band = 0; band < 3; band++) {
        ASSERT_EQ(r[0][band], r[1][band]) << "r, band " << band << " egl " << egl;
        ASSERT_EQ(a[0][band], a[1][band]) << "a, band " << band << " egl " << egl;
    }
}

template <typename T>
void compare_decouple(const AdmKernels &k, int64_t lim, const uint32_t irf[3],
                      void (*AdmKernels::*dec)(const T *const *, const T *const *, double,
                                               ptrdiff_t, ptrdiff_t, T *const *, T *const *),
                      void (*AdmKernels::*mask)(const T *const *, const uint32_t *, ptrdiff_t,
                                                ptrdiff_t, int32_t *, int32_t *))
{
    const int n = 300;
    for (int round = 0; round < ROUNDS; round++) {
        const double egl = round % 4 == 0   ? 1.0
                           : round % 4 == 1 ? 1.2
                           : round % 4 == 2 ? 1.7
                                            : 100.0;
        std::vector<T> o[3], t[3];
        decouple_bands(n, lim, o, t);
        int b, e;
        span(n, &b, &e);
        ASSERT_NO_FATAL_FAILURE(compare_decouple_span(k, dec, o, t, egl, b, e));

        // Maskers of unrelated values over the whole range, random weights too.
        std::vector<T> x[3];
        const T *xp[3];
        any_bands(n, x, xp);
        uint32_t w[3];
        for (int band = 0; band < 3; band++)
            w[band] = round % 2
                          ? irf[band]
                          : static_cast<uint32_t>(uniform(0, sizeof(T) == 2 ? 65535 : UINT32_MAX));
        std::vector<int32_t> f[2], c[2];
        for (int v = 0; v < 2; v++) {
            f[v].assign(n, 7);
            c[v].assign(n, 7);
        }
        span(n, &b, &e);
        (plain().*mask)(xp, w, b, e, f[0].data(), c[0].data());
        (k.*mask)(xp, w, b, e, f[1].data(), c[1].data());
        ASSERT_EQ(f[0], f[1]) << "weights " << w[0] << " " << w[1] << " " << w[2];
        ASSERT_EQ(c[0], c[1]) << "weights " << w[0] << " " << w[1] << " " << w[2];
    }
}

} // namespace

TEST(AdmKernels, DecoupleAndMaskersScale0)
{
    AVX2_OR_SKIP(k);
    // Bands within ±32767 (the DWT's are within ±27411); the 1080p weights.
    const uint32_t irf[3] = {36453, 36453, 49417};
    compare_decouple<int16_t>(k, 32767, irf, &AdmKernels::decouple_s0, &AdmKernels::masker_s0);
}

TEST(AdmKernels, DecoupleAndMaskersScales123)
{
    AVX2_OR_SKIP(k);
    // H and V within ±2^30, where the angle test's int64 sums are defined.
    const uint32_t irf[3] = {137373792, 137373792, 61414028};
    compare_decouple<int32_t>(k, 1 << 30, irf, &AdmKernels::decouple_s123,
                              &AdmKernels::masker_s123);
    // The whole int32 range, with egl 1: the ratio's normalisation of |o| >= 2^15.
    for (int round = 0; round < ROUNDS; round++) {
        const int n = 64;
        std::vector<int32_t> o[3], t[3];
        decouple_bands(n, INT32_MAX, o, t);
        for (int b = 0; b < 2; b++) // keep the angle test's sums defined
            for (int p = 0; p < n; p++) {
                o[b][p] /= 4;
                t[b][p] /= 4;
            }
        ASSERT_NO_FATAL_FAILURE(
            compare_decouple_span(k, &AdmKernels::decouple_s123, o, t, 1.0, 0, n));
    }
}

TEST(AdmKernels, Denominator)
{
    AVX2_OR_SKIP(k);
    const int n = 200;
    for (int round = 0; round < ROUNDS; round++) {
        int b, e;
        span(n, &b, &e);
        std::vector<int16_t> o16[3];
        std::vector<int32_t> o32[3];
        const int16_t *p16[3];
        const int32_t *p32[3];
        for (int t = 0; t < 3; t++) {
            o16[t] = values<int16_t>(n, INT16_MIN, INT16_MAX);
            o32[t] = values<int32_t>(n, INT32_MIN, INT32_MAX);
            p16[t] = o16[t].data();
            p32[t] = o32[t].data();
        }
        uint64_t want[3] = {1, 2, 3}, got[3] = {1, 2, 3};
        plain().den_s0(p16, b, e, want);
        k.den_s0(p16, b, e, got);
        for (int t = 0; t < 3; t++)
            ASSERT_EQ(want[t], got[t]) << "scale 0 band " << t << " [" << b << ", " << e << ")";
        const int scale = 1 + round % 3, cub = static_cast<int>(uniform(0, 12));
        plain().den_s123(p32, scale, cub, b, e, want);
        k.den_s123(p32, scale, cub, b, e, got);
        for (int t = 0; t < 3; t++)
            ASSERT_EQ(want[t], got[t]) << "scale " << scale << " cub " << cub << " band " << t;
    }
}

#if defined(__x86_64__)
namespace {

/// adm_avx2::float_of of 4 values.
VMAFHIP_AVX2 void float_of4(const int64_t v[4], double out[4])
{
    _mm256_storeu_pd(out,
                     adm_avx2::float_of(_mm256_loadu_si256(reinterpret_cast<const __m256i *>(v))));
}

} // namespace

TEST(AdmKernels, Int64ToFloatRoundsOnce)
{
    AVX2_OR_SKIP(k);
    (void)k;
    // Around the float midpoints m = 2^p + (2j + 1) 2^(p-24): m + 1 with p
    // >= 54 is within half a double's ulp of m, where a conversion through
    // double rounds twice (to m, then to even) and the int64 one rounds up.
    std::vector<int64_t> v;
    for (int p = 24; p <= 62; p++)
        for (int64_t j : {0, 1, 5}) {
            const int64_t m = (static_cast<int64_t>(1) << p) +
                              (2 * j + 1) * (static_cast<int64_t>(1) << (p - 24));
            for (int64_t d : {-3, -1, 0, 1, 2, 127})
                v.push_back(m + d);
        }
    for (int n = 0; n < 4000; n++)
        v.push_back(uniform(-INT64_MAX, INT64_MAX) >> uniform(0, 40));
    while (v.size() % 4)
        v.push_back(0);
    for (size_t i = 0; i < v.size(); i += 4) {
        double got[4];
        float_of4(&v[i], got);
        for (int l = 0; l < 4; l++)
            ASSERT_EQ(got[l], std::fabs(static_cast<double>(static_cast<float>(v[i + l]))))
                << v[i + l];
    }
}
#endif

namespace {

/// Random maskers and test signals on a small band, row sums of random rows
/// (the mirrored first and last rows and columns included).
template <typename T>
void compare_cm(const AdmKernels &k,
                void (*AdmKernels::*cm)(const T *const *, const int32_t *, const int32_t *,
                                        const AdmScaleParams &, int, int, int, int64_t *))
{
    for (int round = 0; round < ROUNDS; round++) {
        AdmScaleParams q{};
        q.w = static_cast<int>(uniform(3, 90));
        q.h = static_cast<int>(uniform(2, 9));
        const size_t n = static_cast<size_t>(q.w) * static_cast<size_t>(q.h);
        for (int t = 0; t < 3; t++) {
            q.irf[t] = static_cast<uint32_t>(uniform(0, sizeof(T) == 2 ? 65535 : UINT32_MAX));
            // A term is below 2^62 >> cub: from 7 up, a row's sum of up to 90
            // of them stays within int64 (signed overflow is undefined).
            q.cm_cub[t] = static_cast<int>(uniform(7, 12));
        }
        std::vector<T> y[3];
        const T *yp[3];
        any_bands(n, y, yp);
        // Nine terms of thr stay within int32.
        const int64_t lim = round % 2 ? (1 << 26) : 3000;
        const std::vector<int32_t> f = values<int32_t>(n, -lim / 8, lim),
                                   c = values<int32_t>(n, -lim / 8, lim);
        const int i = static_cast<int>(uniform(0, q.h - 1));
        int b = static_cast<int>(uniform(0, q.w - 1)), e = static_cast<int>(uniform(b, q.w));
        if (round % 3 == 0) { // the whole row
            b = 0;
            e = q.w;
        }
        int64_t want[3] = {1, 2, 3}, got[3] = {1, 2, 3};
        (plain().*cm)(yp, f.data(), c.data(), q, i, b, e, want);
        (k.*cm)(yp, f.data(), c.data(), q, i, b, e, got);
        for (int t = 0; t < 3; t++)
            ASSERT_EQ(want[t], got[t])
                << q.w << "x" << q.h << " row " << i << " [" << b << ", " << e << ") band " << t;
    }
}

} // namespace

TEST(AdmKernels, ContrastMasking)
{
    AVX2_OR_SKIP(k);
    compare_cm<int16_t>(k, &AdmKernels::cm_s0);
    compare_cm<int32_t>(k, &AdmKernels::cm_s123);
}

// ---------------------------------------------------------------------------
// Whole frames.

namespace {

/// A luma plane pair of w x h samples at bpc (uint8 or little-endian uint16
/// storage) in one of several kinds of content.
struct Pictures {
    int w, h, bpc;
    std::vector<uint8_t> ref, dis;

    Pictures(int w_, int h_, int bpc_, int kind) : w(w_), h(h_), bpc(bpc_)
    {
        const int bytes = bpc > 8 ? 2 : 1;
        const int max = (1 << bpc) - 1;
        ref.resize(static_cast<size_t>(w) * h * bytes);
        dis.resize(ref.size());
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int r, d;
                switch (kind) {
                case 0: // smooth texture plus detail; distorted: noise and a shift
                    r = static_cast<int>((0.5 + 0.3 * std::sin(x * 0.05) * std::cos(y * 0.07)) *
                                         max) +
                        static_cast<int>(uniform(-max / 20, max / 20));
                    d = r + static_cast<int>(uniform(-max / 30, max / 30)) +
                        ((x / 7 + y / 5) % 2 ? max / 50 : 0);
                    break;
                case 1: // noise against noise
                    r = static_cast<int>(uniform(0, max));
                    d = static_cast<int>(uniform(0, max));
                    break;
                case 2: // a checkerboard of 0 and the maximum against stripes of 0, max/2, max
                    r = (x + y) % 2 ? max : 0;
                    d = (x / 2 + y) % 2 ? max : (x % 3 ? 0 : max / 2);
                    break;
                default: // the maximum against a ramp
                    r = max;
                    d = (x * max) / (w - 1);
                    break;
                }
                put(ref, x, y, r < 0 ? 0 : r > max ? max : r);
                put(dis, x, y, d < 0 ? 0 : d > max ? max : d);
            }
    }
    void put(std::vector<uint8_t> &p, int x, int y, int v) const
    {
        const size_t i = static_cast<size_t>(y) * w + x;
        if (bpc > 8) {
            p[2 * i] = static_cast<uint8_t>(v);
            p[2 * i + 1] = static_cast<uint8_t>(v >> 8);
        } else {
            p[i] = static_cast<uint8_t>(v);
        }
    }
    FrameView view() const
    {
        FrameView f;
        const ptrdiff_t stride = static_cast<ptrdiff_t>(w) * (bpc > 8 ? 2 : 1);
        f.ref[0] = PlaneView{ref.data(), stride, w, h};
        f.dis[0] = PlaneView{dis.data(), stride, w, h};
        return f;
    }
};

/// Both tables on whole frames of every kind of content: the same accumulators.
void compare_frames(const AdmKernels &k, const std::string &spec, int w, int h, int bpc)
{
    const auto m = testfx::extractor<Adm>(spec, Geometry{w, h, bpc, VMAFHIP_CHROMA_400});
    ThreadPool pool(2);
    for (int kind = 0; kind < 4; kind++) {
        const Pictures p(w, h, bpc, kind);
        AdmAccum want, got;
        adm_cpu_frame(plain(), m->params(), p.view(), pool, &want);
        adm_cpu_frame(k, m->params(), p.view(), pool, &got);
        EXPECT_EQ(std::memcmp(&want, &got, sizeof(want)), 0)
            << spec << " " << w << "x" << h << " " << bpc << "-bit, content " << kind;
    }
}

} // namespace

TEST(AdmKernels, FramesEverySizeAndDepth)
{
    AVX2_OR_SKIP(k);
    const int sizes[][2] = {{33, 33}, {37, 33}, {97, 61}, {321, 241}, {576, 324}, {1921, 1081}};
    for (const auto &s : sizes)
        for (int bpc : {8, 10, 12})
            compare_frames(k, "adm", s[0], s[1], bpc);
}

TEST(AdmKernels, FramesWithOptions)
{
    AVX2_OR_SKIP(k);
    for (const char *spec :
         {"adm=adm_enhn_gain_limit=1", "adm=adm_enhn_gain_limit=1.2", "adm=adm_skip_aim=true",
          "adm=adm_skip_scale0=true", "adm=adm_csf_mode=3:adm_ref_display_height=2160",
          "adm=adm_norm_view_dist=5"}) {
        compare_frames(k, spec, 199, 117, 10);
        compare_frames(k, spec, 352, 288, 12);
    }
}
