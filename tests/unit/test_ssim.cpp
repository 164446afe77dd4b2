// float_ssim (docs/ssim.md; every § below is a section of it): golden parity,
// downscaling, options, bit depths, threads and size limits, through the
// public API and internally.
// A naive transliteration of libvmaf's code structure (picture_copy, libiqa's
// in-place _iqa_decimate, separate convolutions, C-style float expressions)
// checks the paths the goldens do not reach (every fixture has scale 1).
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/ssim/ssim.h"
#include "kernels/ssim/ssim_ops.h"
#include "tests/common/bits.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"

using namespace vmafhip;
using testfx::bits;

namespace {

// ---- luma planes built from the fixtures ----------------------------------

struct Luma {
    int w = 0, h = 0, bpc = 8;
    std::vector<uint8_t> bytes; // w*h samples, 1 or 2 bytes each, dense
    int bps() const { return bpc > 8 ? 2 : 1; }
    unsigned at(int x, int y) const
    {
        const size_t i = static_cast<size_t>(y) * w + x;
        if (bps() == 1)
            return bytes[i];
        uint16_t v;
        std::memcpy(&v, bytes.data() + 2 * i, 2);
        return v;
    }
    void set(int x, int y, unsigned v)
    {
        const size_t i = static_cast<size_t>(y) * w + x;
        if (bps() == 1) {
            bytes[i] = static_cast<uint8_t>(v);
            return;
        }
        const uint16_t s = static_cast<uint16_t>(v);
        std::memcpy(bytes.data() + 2 * i, &s, 2);
    }
    PlaneView view() const { return PlaneView{bytes.data(), static_cast<ptrdiff_t>(w) * bps(), w, h}; }
    VmafHipPicture pic() const
    {
        VmafHipPicture p = {};
        p.data[0] = bytes.data();
        p.stride[0] = static_cast<ptrdiff_t>(w) * bps();
        return p;
    }
};

Luma make_luma(int w, int h, int bpc)
{
    Luma l;
    l.w = w;
    l.h = h;
    l.bpc = bpc;
    l.bytes.assign(static_cast<size_t>(w) * h * l.bps(), 0);
    return l;
}

// Luma of frame i of a fixture clip (8-bit ones only).
Luma clip_luma(const testfx::Clip &c, int i, int w, int h)
{
    Luma l = make_luma(w, h, 8);
    std::memcpy(l.bytes.data(), c.frame_data(i), l.bytes.size());
    return l;
}

// W x H picture from src at offset (ox, oy), mirrored past its edges: realistic
// content at any size.
Luma tile(const Luma &src, int w, int h, int ox = 0, int oy = 0)
{
    Luma l = make_luma(w, h, src.bpc);
    const auto fold = [](int i, int n) {
        i %= 2 * n;
        return i < n ? i : 2 * n - 1 - i;
    };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            l.set(x, y, src.at(fold(x + ox, src.w), fold(y + oy, src.h)));
    return l;
}

// The same picture at a higher bit depth: v << (bpc - 8).
Luma shifted(const Luma &src, int bpc)
{
    Luma l = make_luma(src.w, src.h, bpc);
    for (int y = 0; y < src.h; y++)
        for (int x = 0; x < src.w; x++)
            l.set(x, y, src.at(x, y) << (bpc - 8));
    return l;
}

const testfx::Fixture &natural1(const std::string &dis)
{
    return testfx::fixture("natural1_576x324_yuv420p__ref_vs_" + dis);
}

struct Pair {
    Luma ref, dis;
};

// Frame i of natural1 ref vs dis, luma only.
Pair natural1_pair(const std::string &dis, int i)
{
    const testfx::Fixture &f = natural1(dis);
    const testfx::Clip r(f.ref, f.w, f.h, 8, f.chroma), d(f.dis, f.w, f.h, 8, f.chroma);
    return Pair{clip_luma(r, i, f.w, f.h), clip_luma(d, i, f.w, f.h)};
}

// ---- the naive transliteration of libvmaf ---------------------------------

// picture_copy.c: samples to float on the 8-bit scale.
std::vector<float> naive_copy(const Luma &p)
{
    std::vector<float> out(static_cast<size_t>(p.w) * p.h);
    const float scaler = p.bpc == 10 ? 4.0f : p.bpc == 12 ? 16.0f : p.bpc == 16 ? 256.0f : 1.0f;
    for (int y = 0; y < p.h; y++)
        for (int x = 0; x < p.w; x++)
            out[static_cast<size_t>(y) * p.w + x] =
                p.bpc == 8 ? static_cast<float>(p.at(x, y)) : static_cast<float>(p.at(x, y)) / scaler;
    return out;
}

// libiqa KBND_SYMMETRIC.
float naive_sym(const float *img, int w, int h, int x, int y)
{
    if (x < 0)
        x = -1 - x;
    else if (x >= w)
        x = (w - (x - w)) - 1;
    if (y < 0)
        y = -1 - y;
    else if (y >= h)
        y = (h - (y - h)) - 1;
    return img[y * w + x];
}

// libiqa _iqa_filter_pixel + _iqa_decimate, in place as libvmaf calls it.
void naive_decimate(std::vector<float> &img, int *w, int *h, int f)
{
    std::vector<float> kernel(static_cast<size_t>(f * f), 1.0f / (f * f));
    const int sw = *w / f + (*w & 1), sh = *h / f + (*h & 1);
    const int even = (f & 1) ? 0 : 1, c = f / 2;
    for (int y = 0; y < sh; y++)
        for (int x = 0; x < sw; x++) {
            double sum = 0.0;
            for (int v = -c; v <= c - even; v++)
                for (int u = -c; u <= c - even; u++)
                    sum += kernel[(v + c) * f + (u + c)] *
                           naive_sym(img.data(), *w, *h, x * f + u, y * f + v);
            img[static_cast<size_t>(y) * sw + x] = static_cast<float>(sum);
        }
    img.resize(static_cast<size_t>(sw) * sh);
    *w = sw;
    *h = sh;
}

// Valid 11x11 separable Gaussian: rows, then columns.
std::vector<float> naive_convolve(const std::vector<float> &img, int w, int h)
{
    static const float g[11] = {0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
                                0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f};
    const int ow = w - 10, oh = h - 10;
    std::vector<float> tmp(static_cast<size_t>(ow) * h), out(static_cast<size_t>(ow) * oh);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < ow; x++) {
            double sum = 0.0;
            for (int u = 0; u < 11; u++)
                sum += img[static_cast<size_t>(y) * w + x + u] * g[u];
            tmp[static_cast<size_t>(y) * ow + x] = static_cast<float>(sum);
        }
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++) {
            double sum = 0.0;
            for (int v = 0; v < 11; v++)
                sum += tmp[static_cast<size_t>(y + v) * ow + x] * g[v];
            out[static_cast<size_t>(y) * ow + x] = static_cast<float>(sum);
        }
    return out;
}

// iqa ssim with libvmaf's map: sums of ssim, l, c, s over the map.
SsimAccum naive_ssim(const Luma &ref, const Luma &dis, int scale, int *dw = nullptr, int *dh = nullptr)
{
    std::vector<float> r = naive_copy(ref), d = naive_copy(dis);
    int w = ref.w, h = ref.h;
    if (scale > 1) {
        int w2 = w, h2 = h;
        naive_decimate(r, &w, &h, scale);
        naive_decimate(d, &w2, &h2, scale);
    }
    if (dw)
        *dw = w;
    if (dh)
        *dh = h;
    const float K1 = 0.01f, K2 = 0.03f;
    const int L = 255;
    const float C1 = (K1 * L) * (K1 * L), C2 = (K2 * L) * (K2 * L), C3 = C2 / 2.0f;
    std::vector<float> rr(r.size()), dd(r.size()), rd(r.size());
    for (size_t i = 0; i < r.size(); i++) {
        rr[i] = r[i] * r[i];
        dd[i] = d[i] * d[i];
        rd[i] = r[i] * d[i];
    }
    const std::vector<float> mu1 = naive_convolve(r, w, h), mu2 = naive_convolve(d, w, h);
    std::vector<float> s11 = naive_convolve(rr, w, h), s22 = naive_convolve(dd, w, h),
                       s12 = naive_convolve(rd, w, h);
    SsimAccum a = {0, 0, 0, 0};
    for (size_t i = 0; i < mu1.size(); i++) { // row-major
        s11[i] -= mu1[i] * mu1[i];
        s22[i] -= mu2[i] * mu2[i];
        s12[i] -= mu1[i] * mu2[i];
        if (s11[i] < 0)
            s11[i] = 0;
        if (s22[i] < 0)
            s22[i] = 0;
        const float root = std::sqrt(static_cast<double>(s11[i] * s22[i]));
        const double l = (2.0 * mu1[i] * mu2[i] + C1) / (mu1[i] * mu1[i] + mu2[i] * mu2[i] + C1);
        const double c = (2.0 * root + C2) / (s11[i] + s22[i] + C2);
        float both = s12[i];
        if (both < 0 && root <= 0)
            both = 0;
        const float s = (both + C3) / (root + C3);
        a.ssim += l * c * s;
        a.l += l;
        a.c += c;
        a.s += s;
    }
    return a;
}

// ---- running the extractor -------------------------------------------------

/// A float_ssim spec with a forced scale (0: automatic) and more options
/// (":enable_lcs=true").
std::string ssim_spec(int scale = 0, const std::string &more = "")
{
    return "float_ssim=scale=" + std::to_string(scale) + more;
}

std::unique_ptr<Ssim> ssim(const std::string &spec, const Geometry &g)
{
    return testfx::extractor<Ssim>(spec, g);
}

/// create()'s result for spec and g, with its message.
int ssim_check(const std::string &spec, const Geometry &g, std::string *msg)
{
    int ret;
    testfx::try_extractor(spec, g, &ret, msg);
    return ret;
}

Geometry geometry(const Luma &l)
{
    Geometry g;
    g.w = l.w;
    g.h = l.h;
    g.bpc = l.bpc;
    g.chroma = VMAFHIP_CHROMA_400;
    return g;
}

// The CPU reference directly: map sums.
SsimAccum run_cpu(const Pair &p, int scale, int threads = 2)
{
    const auto m = ssim(ssim_spec(scale), geometry(p.ref));
    FrameView f;
    f.ref[0] = p.ref.view();
    f.dis[0] = p.dis.view();
    ThreadPool pool(threads);
    SsimAccum a = {-1, -1, -1, -1};
    m->cpu(f, &a, pool);
    return a;
}

void expect_same_accum(const SsimAccum &a, const SsimAccum &b, const std::string &what)
{
    EXPECT_EQ(a.ssim, b.ssim) << what;
    EXPECT_EQ(a.l, b.l) << what;
    EXPECT_EQ(a.c, b.c) << what;
    EXPECT_EQ(a.s, b.s) << what;
}

struct ApiResult {
    int open_ret = 0;
    std::string error;
    std::vector<std::string> names;
    std::vector<std::vector<double>> frames;
};

// Score pairs of pictures through vmafhip_open/submit/frame_scores on the
// CPU, with the features of `spec`.
ApiResult run_api(VmafHipSettings s, const std::string &spec, const std::vector<VmafHipPicture> &ref,
                  const std::vector<VmafHipPicture> &dis)
{
    ApiResult out;
    s.backend = VMAFHIP_BACKEND_CPU;
    s.features = spec.c_str();
    s.models = nullptr;
    VmafHipContext *c = nullptr;
    out.open_ret = vmafhip_open(&c, &s);
    if (out.open_ret < 0) {
        out.error = vmafhip_last_error(nullptr);
        return out;
    }
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    for (int i = 0; i < n; i++)
        out.names.push_back(names[i]);
    for (size_t i = 0; i < ref.size(); i++)
        EXPECT_EQ(vmafhip_submit(c, &dis[i], &ref[i]), static_cast<int>(i)) << vmafhip_last_error(c);
    EXPECT_EQ(vmafhip_flush(c), 0) << vmafhip_last_error(c);
    for (size_t i = 0; i < ref.size(); i++) {
        const double *v = nullptr;
        EXPECT_EQ(vmafhip_frame_scores(c, static_cast<unsigned>(i), 1, &v), 0);
        out.frames.emplace_back(v, v + n);
    }
    vmafhip_close(&c);
    return out;
}

/// Settings for a gray picture of l's size and depth; run_api() adds the features.
VmafHipSettings gray_settings(const Luma &l, int threads = 0)
{
    VmafHipSettings s = testfx::settings(l.w, l.h, l.bpc, VMAFHIP_CHROMA_400, nullptr);
    s.threads = threads;
    return s;
}

ApiResult run_api_pairs(const std::vector<Pair> &pairs, const std::string &spec = ssim_spec(),
                        int threads = 0)
{
    std::vector<VmafHipPicture> r, d;
    for (const Pair &p : pairs) {
        r.push_back(p.ref.pic());
        d.push_back(p.dis.pic());
    }
    return run_api(gray_settings(pairs.at(0).ref, threads), spec, r, d);
}

// float_ssim as libvmaf reports it from map sums (§6).
double mean_of(double sum, int mw, int mh)
{
    return static_cast<float>(sum / static_cast<double>(mw * mh));
}

} // namespace

// ---- constants and sizes ----------------------------------------------------

TEST(Ssim, ConstantsHaveSpecBitPatterns)
{
    EXPECT_EQ(bits(SSIM_K1), 0x3c23d70au);
    EXPECT_EQ(bits(SSIM_K2), 0x3cf5c28fu);
    EXPECT_EQ(bits(SSIM_C1), 0x40d0147au);
    EXPECT_EQ(bits(SSIM_C2), 0x426a1709u);
    EXPECT_EQ(bits(SSIM_C3), 0x41ea1709u);
    const uint32_t taps[6] = {0x3a86bdf5, 0x3bf90108, 0x3d1375c9, 0x3ddff8a9, 0x3e5a1e3f, 0x3e8832ba};
    for (int u = 0; u < 11; u++)
        EXPECT_EQ(bits(ssim_gauss_tap(u)), taps[u < 5 ? u : 10 - u]) << "tap " << u;
    const uint32_t k[11] = {0, 0, 0x3e800000, 0x3de38e39, 0x3d800000, 0x3d23d70a,
                            0x3ce38e39, 0x3ca72f05, 0x3c800000, 0x3c4a4588, 0x3c23d70a};
    for (int f = 2; f <= 10; f++)
        EXPECT_EQ(bits(1.0f / static_cast<float>(f * f)), k[f]) << "f " << f;
}

TEST(Ssim, AutomaticScaleAndSizes)
{
    struct Row {
        int w, h, scale, dw, dh, mw, mh;
    };
    const Row rows[] = {
        {576, 324, 1, 576, 324, 566, 314},   {640, 360, 1, 640, 360, 630, 350},
        {854, 480, 2, 427, 240, 417, 230},   {1280, 720, 3, 426, 240, 416, 230},
        {1920, 1080, 4, 480, 270, 470, 260}, {3840, 2160, 8, 480, 270, 470, 260},
    };
    for (const Row &r : rows) {
        Geometry g;
        g.w = r.w;
        g.h = r.h;
        const SsimParams m = ssim(ssim_spec(), g)->params();
        EXPECT_EQ(m.scale, r.scale) << r.w << "x" << r.h;
        EXPECT_EQ(m.dec_w, r.dw) << r.w << "x" << r.h;
        EXPECT_EQ(m.dec_h, r.dh) << r.w << "x" << r.h;
        EXPECT_EQ(m.map_w, r.mw) << r.w << "x" << r.h;
        EXPECT_EQ(m.map_h, r.mh) << r.w << "x" << r.h;
    }
    EXPECT_EQ(Ssim::auto_scale(1000, 384), 2); // 1.5 rounds up
    EXPECT_EQ(Ssim::auto_scale(383, 1000), 1);
    EXPECT_EQ(Ssim::auto_scale(640, 640), 3);  // 2.5 rounds up
    EXPECT_EQ(Ssim::auto_scale(11, 11), 1);    // 0.04 -> 0 -> at least 1
    // The "+1" follows the parity of the size, not the factor (§4.2).
    EXPECT_EQ(ssim_decimated_size(9, 3), 4);
    EXPECT_EQ(ssim_decimated_size(10, 4), 2);
    EXPECT_EQ(ssim_decimated_size(11, 4), 3);
    EXPECT_EQ(ssim_decimated_size(97, 1), 97);
    // Forced scale overrides the automatic one, 1 included.
    Geometry g;
    g.w = 1920;
    g.h = 1080;
    EXPECT_EQ(ssim(ssim_spec(1), g)->params().scale, 1);
    EXPECT_EQ(ssim(ssim_spec(1), g)->params().dec_w, 1920);
    EXPECT_EQ(ssim(ssim_spec(7), g)->params().dec_h, 154);
}

TEST(Ssim, RejectsFramesBelowTheWindow)
{
    Geometry g;
    std::string msg;
    g.w = g.h = 11;
    EXPECT_EQ(ssim_check(ssim_spec(), g, &msg), 0);
    g.w = 10;
    EXPECT_EQ(ssim_check(ssim_spec(), g, &msg), -ERANGE);
    EXPECT_NE(msg.find("10x11"), std::string::npos) << msg;
    EXPECT_NE(msg.find("11x11"), std::string::npos) << msg;
    EXPECT_NE(msg.find("by 1"), std::string::npos) << msg;
    // Forced scale: 109 -> 10 + 1 = 11 passes, 108 -> 10 does not.
    g.w = 109;
    g.h = 200;
    EXPECT_EQ(ssim_check(ssim_spec(10), g, &msg), 0);
    g.w = 108;
    msg.clear();
    EXPECT_EQ(ssim_check(ssim_spec(10), g, &msg), -ERANGE);
    EXPECT_NE(msg.find("108x200"), std::string::npos) << msg;
    EXPECT_NE(msg.find("by 10"), std::string::npos) << msg;
    EXPECT_NE(msg.find("10x20"), std::string::npos) << msg;
    // Through the public API: too small, and scales out of the option's range.
    const Luma tiny = make_luma(10, 10, 8);
    EXPECT_EQ(run_api_pairs({Pair{tiny, tiny}}).open_ret, -ERANGE);
    EXPECT_NE(std::string(vmafhip_last_error(nullptr)).find("10x10"), std::string::npos);
    const Luma l64 = make_luma(64, 64, 8);
    for (int scale : {11, -1}) {
        const ApiResult bad = run_api_pairs({Pair{l64, l64}}, ssim_spec(scale));
        EXPECT_EQ(bad.open_ret, -ERANGE) << scale;
        EXPECT_NE(bad.error.find("0 to 10"), std::string::npos) << bad.error;
    }
}

TEST(Ssim, OpsDecimateSampleMatchesNaive)
{
    // ssim_decimate_sample() is the GPU kernels' per-sample entry point (the
    // CPU runs rows of outputs per tap instead): check it alone, on raw 8-bit,
    // raw 10-bit and float planes, odd sizes and every factor.
    const Pair p = natural1_pair("x264crf38", 5);
    for (int f = 2; f <= 10; f++) {
        const int sizes[][2] = {{99, 63}, {128, 81}, {10 * f + 1, 11 * f}};
        for (const auto &sz : sizes) {
            const Luma l8 = tile(p.dis, sz[0], sz[1], 7, 3);
            const Luma l10 = [&] {
                Luma l = shifted(l8, 10);
                for (int y = 0; y < l.h; y++)
                    for (int x = 0; x < l.w; x++)
                        l.set(x, y, l.at(x, y) | static_cast<unsigned>((x * 7 + y) & 3)); // low bits
                return l;
            }();
            for (const Luma *l : {&l8, &l10}) {
                std::vector<float> want = naive_copy(*l);
                const std::vector<float> src = want;
                int w = l->w, h = l->h;
                naive_decimate(want, &w, &h, f);
                ASSERT_EQ(w, ssim_decimated_size(l->w, f));
                ASSERT_EQ(h, ssim_decimated_size(l->h, f));
                int bad = 0;
                for (int y = 0; y < h; y++)
                    for (int x = 0; x < w; x++) {
                        const float a = l->bpc == 8
                                            ? ssim_decimate_sample(l->bytes.data(), l->w, l->w, l->h, 8, f, x, y)
                                            : ssim_decimate_sample(reinterpret_cast<const uint16_t *>(l->bytes.data()),
                                                                   l->w, l->w, l->h, l->bpc, f, x, y);
                        const float b = ssim_decimate_sample(src.data(), l->w, l->w, l->h, 8, f, x, y);
                        const float e = want[static_cast<size_t>(y) * w + x];
                        bad += bits(a) != bits(e) || bits(b) != bits(e);
                    }
                EXPECT_EQ(bad, 0) << "f " << f << " " << l->w << "x" << l->h << " " << l->bpc << "-bit";
            }
        }
    }
}

TEST(Ssim, OpsFilterPassesAgreeWithAnyStep)
{
    // ssim_hpass5() on a strided column equals ssim_filter11() on float planes
    // of R, D, R*R, D*D, R*D (the way libvmaf builds them).
    const Pair p = natural1_pair("mpeg2q28", 1);
    const std::vector<float> r = naive_copy(p.ref), d = naive_copy(p.dis);
    std::vector<float> rr(r.size()), dd(r.size()), rd(r.size());
    for (size_t i = 0; i < r.size(); i++) {
        rr[i] = r[i] * r[i];
        dd[i] = d[i] * d[i];
        rd[i] = r[i] * d[i];
    }
    const int w = p.ref.w;
    int bad = 0;
    for (int y = 0; y + 11 <= p.ref.h; y += 7)
        for (int x = 0; x < w; x += 5) {
            const size_t o = static_cast<size_t>(y) * w + x;
            const SsimMoments m = ssim_hpass5(r.data() + o, d.data() + o, w);
            bad += bits(m.mu1) != bits(ssim_filter11(r.data() + o, w));
            bad += bits(m.mu2) != bits(ssim_filter11(d.data() + o, w));
            bad += bits(m.e11) != bits(ssim_filter11(rr.data() + o, w));
            bad += bits(m.e22) != bits(ssim_filter11(dd.data() + o, w));
            bad += bits(m.e12) != bits(ssim_filter11(rd.data() + o, w));
        }
    EXPECT_EQ(bad, 0);
    // A flat patch does not keep its mean: the taps sum to 1.000002 (§3).
    float flat[11];
    for (float &v : flat)
        v = 100.0f;
    EXPECT_NE(ssim_filter11(flat, 1), 100.0f);
    EXPECT_NEAR(ssim_filter11(flat, 1), 100.0002f, 1e-4f);
    // Identical flat patches: the covariance fix keeps s at 1, and SSIM ~ 1.
    const float mu = ssim_filter11(flat, 1);
    for (float &v : flat)
        v = 100.0f * 100.0f;
    const float e = ssim_filter11(flat, 1);
    const SsimPixel px = ssim_pixel(mu, mu, e, e, e);
    EXPECT_EQ(px.s, 1.0);
    EXPECT_NEAR(px.ssim, 1.0, 1e-6);
}

// ---- parity with libvmaf ----------------------------------------------------

TEST(Ssim, GoldenParityEveryFixtureEveryFrame)
{
    int compared = 0, exact = 0, pairs = 0;
    double max_diff = 0;
    for (const testfx::Fixture &fx : testfx::fixtures()) {
        if (!fx.has("float_ssim"))
            continue;
        pairs++;
        const auto golden = testfx::golden_frames(fx.golden).at("float_ssim");
        const testfx::Clip r(fx.ref, fx.w, fx.h, fx.bpc, fx.chroma), d(fx.dis, fx.w, fx.h, fx.bpc, fx.chroma);
        ASSERT_EQ(static_cast<size_t>(r.frames()), golden.size()) << fx.name;
        std::vector<VmafHipPicture> rp, dp;
        for (int i = 0; i < r.frames(); i++) {
            rp.push_back(r.picture(i));
            dp.push_back(d.picture(i));
        }
        for (int threads : {1, 2}) {
            VmafHipSettings s = testfx::settings_for(fx);
            s.threads = threads;
            const ApiResult res = run_api(s, "float_ssim", rp, dp);
            ASSERT_EQ(res.open_ret, 0) << fx.name << ": " << res.error;
            ASSERT_EQ(res.names, std::vector<std::string>{"float_ssim"});
            for (size_t i = 0; i < golden.size(); i++) {
                const double ours = res.frames[i][0], want = golden[i];
                const double diff = std::fabs(ours - want);
                EXPECT_LE(diff, 1e-6) << fx.name << " frame " << i;
                EXPECT_EQ(ours, want) << fx.name << " frame " << i << " not bit-exact";
                max_diff = std::max(max_diff, diff);
                compared++;
                exact += ours == want;
            }
        }
    }
    std::printf("float_ssim golden parity: %d pairs, %d values, %d bit-exact, max |diff| %.3g\n",
                pairs, compared, exact, max_diff);
    EXPECT_EQ(pairs, 15);
    EXPECT_EQ(compared, 2 * (60 + 11));
}

TEST(Ssim, IdenticalFramesGiveExactlyOne)
{
    // libvmaf's golden says 1 for every frame of ref vs ref.
    std::vector<Pair> pairs;
    for (int i = 0; i < 3; i++) {
        Pair p = natural1_pair("ref", i);
        pairs.push_back(p);
    }
    const ApiResult res = run_api_pairs(pairs);
    ASSERT_EQ(res.open_ret, 0) << res.error;
    for (const auto &f : res.frames)
        EXPECT_EQ(f[0], 1.0);
    // With decimation too (1080p, scale 4).
    const Pair p = natural1_pair("ref", 0);
    const Luma big = tile(p.ref, 1920, 1080);
    const ApiResult res4 = run_api_pairs({Pair{big, big}});
    ASSERT_EQ(res4.open_ret, 0) << res4.error;
    EXPECT_EQ(res4.frames[0][0], 1.0);
}

TEST(Ssim, MatchesNaiveLibvmafAtEveryScale)
{
    // 576x324: scale 1 is the golden path; 2..10 are forced decimations,
    // which no golden covers, checked against the naive transliteration.
    const Pair p = natural1_pair("mpeg2q28", 4);
    for (int scale = 1; scale <= 10; scale++) {
        int dw, dh;
        const SsimAccum want = naive_ssim(p.ref, p.dis, scale, &dw, &dh);
        const SsimAccum got = run_cpu(p, scale);
        expect_same_accum(got, want, "scale " + std::to_string(scale));
        const SsimParams m = ssim(ssim_spec(scale), geometry(p.ref))->params();
        EXPECT_EQ(m.dec_w, dw);
        EXPECT_EQ(m.dec_h, dh);
    }
}

TEST(Ssim, ForcedScalesOnTheFixture)
{
    std::vector<Pair> pairs;
    for (int i = 0; i < 4; i++)
        pairs.push_back(natural1_pair("x264crf38", i));
    const ApiResult autos = run_api_pairs(pairs);
    ASSERT_EQ(autos.open_ret, 0) << autos.error;
    const ApiResult one = run_api_pairs(pairs, ssim_spec(1));
    ASSERT_EQ(one.open_ret, 0) << one.error;
    const auto golden = testfx::golden_frames(natural1("x264crf38").golden).at("float_ssim");
    for (size_t i = 0; i < pairs.size(); i++) {
        EXPECT_EQ(one.frames[i][0], autos.frames[i][0]) << "scale 1 is auto here, frame " << i;
        EXPECT_EQ(one.frames[i][0], golden[i]) << i;
    }
    const int sizes[5][2] = {{0, 0}, {0, 0}, {288, 162}, {192, 108}, {144, 81}};
    for (int scale : {2, 3, 4}) {
        const ApiResult res = run_api_pairs(pairs, ssim_spec(scale));
        ASSERT_EQ(res.open_ret, 0) << res.error;
        const SsimParams m = ssim(ssim_spec(scale), geometry(pairs[0].ref))->params();
        EXPECT_EQ(m.dec_w, sizes[scale][0]);
        EXPECT_EQ(m.dec_h, sizes[scale][1]);
        for (size_t i = 0; i < pairs.size(); i++) {
            const double v = res.frames[i][0];
            // Downscaling hides coding artefacts: higher than at scale 1, below 1.
            EXPECT_GT(v, one.frames[i][0]) << "scale " << scale << " frame " << i;
            EXPECT_LT(v, 1.0) << "scale " << scale << " frame " << i;
            const SsimAccum want = naive_ssim(pairs[i].ref, pairs[i].dis, scale);
            EXPECT_EQ(v, mean_of(want.ssim, m.map_w, m.map_h)) << "scale " << scale;
        }
    }
}

TEST(Ssim, OddSizesWithDecimation)
{
    // W odd and a multiple of f: the last anchor is at x = W, outside the
    // frame; the mirror gives defined samples (§4.3). Also H odd, not a multiple.
    const Pair p = natural1_pair("mpeg2q28", 2);
    struct Case {
        int w, h, scale, dw, dh;
    };
    const Case cases[] = {{99, 63, 3, 34, 22}, {99, 65, 3, 34, 22}, {125, 75, 5, 26, 16},
                          {77, 49, 7, 12, 8 + 0}, {45, 121, 2, 23, 61}, {121, 98, 4, 31, 24}};
    for (const Case &c : cases) {
        const Pair q{tile(p.ref, c.w, c.h, 101, 37), tile(p.dis, c.w, c.h, 101, 37)};
        Geometry g = geometry(q.ref);
        EXPECT_EQ(ssim_decimated_size(c.w, c.scale), c.dw) << c.w << "x" << c.h;
        EXPECT_EQ(ssim_decimated_size(c.h, c.scale), c.dh) << c.w << "x" << c.h;
        std::string msg;
        const int ret = ssim_check(ssim_spec(c.scale), g, &msg);
        if (c.dh < 11) {
            EXPECT_EQ(ret, -ERANGE) << c.w << "x" << c.h;
            continue;
        }
        ASSERT_EQ(ret, 0) << msg;
        const std::string what = std::to_string(c.w) + "x" + std::to_string(c.h);
        expect_same_accum(run_cpu(q, c.scale), naive_ssim(q.ref, q.dis, c.scale), what);
    }
}

TEST(Ssim, AutomaticScaleOn720pAnd1080p)
{
    const Pair p = natural1_pair("x264crf38", 1);
    const int sizes[][3] = {{1280, 720, 3}, {1920, 1080, 4}, {854, 480, 2}};
    for (const auto &sz : sizes) {
        const Pair q{tile(p.ref, sz[0], sz[1]), tile(p.dis, sz[0], sz[1])};
        const SsimParams m = ssim(ssim_spec(), geometry(q.ref))->params();
        EXPECT_EQ(m.scale, sz[2]);
        const SsimAccum want = naive_ssim(q.ref, q.dis, sz[2]);
        expect_same_accum(run_cpu(q, 0), want, std::to_string(sz[0]));
        const ApiResult res = run_api_pairs({q});
        ASSERT_EQ(res.open_ret, 0) << res.error;
        EXPECT_EQ(res.frames[0][0], mean_of(want.ssim, m.map_w, m.map_h));
        EXPECT_GT(res.frames[0][0], 0.5);
        EXPECT_LT(res.frames[0][0], 1.0);
    }
}

// ---- options ----------------------------------------------------------------

TEST(Ssim, EnableLcs)
{
    std::vector<Pair> pairs;
    for (int i = 0; i < 3; i++)
        pairs.push_back(natural1_pair("mpeg2q28", i));
    const ApiResult res = run_api_pairs(pairs, ssim_spec(0, ":enable_lcs=true"));
    ASSERT_EQ(res.open_ret, 0) << res.error;
    const std::vector<std::string> names = {"float_ssim", "float_ssim_l", "float_ssim_c",
                                            "float_ssim_s"};
    ASSERT_EQ(res.names, names);
    const auto golden = testfx::golden_frames(natural1("mpeg2q28").golden).at("float_ssim");
    for (size_t i = 0; i < pairs.size(); i++) {
        const std::vector<double> &v = res.frames[i];
        EXPECT_EQ(v[0], golden[i]);
        const SsimAccum want = naive_ssim(pairs[i].ref, pairs[i].dis, 1);
        const double sums[4] = {want.ssim, want.l, want.c, want.s};
        for (int k = 0; k < 4; k++) {
            EXPECT_GT(v[k], 0.0) << names[k];
            EXPECT_LE(v[k], 1.01) << names[k];
            EXPECT_EQ(v[k], mean_of(sums[k], 566, 314)) << names[k];
        }
        // Coding noise lowers contrast/structure far more than luminance.
        EXPECT_GT(v[1], 0.99);
        EXPECT_LT(v[3], v[1]);
    }
}

TEST(Ssim, EnableDbAndClipDb)
{
    const Pair dist = natural1_pair("x264crf38", 0);
    const Pair same = natural1_pair("ref", 0);
    const ApiResult lin = run_api_pairs({dist, same});
    ASSERT_EQ(lin.open_ret, 0) << lin.error;
    const double x = lin.frames[0][0];
    EXPECT_EQ(lin.frames[1][0], 1.0);

    const ApiResult db = run_api_pairs({dist, same}, ssim_spec(0, ":enable_db=true"));
    ASSERT_EQ(db.open_ret, 0) << db.error;
    EXPECT_EQ(db.names, std::vector<std::string>{"float_ssim"});
    EXPECT_EQ(db.frames[0][0], -10. * std::log10(1 - x));
    EXPECT_NEAR(db.frames[0][0], 7.7207, 1e-4); // 0.8309837 -> 7.7207 dB
    EXPECT_TRUE(std::isinf(db.frames[1][0]) && db.frames[1][0] > 0);

    const ApiResult clip = run_api_pairs({dist, same}, ssim_spec(0, ":enable_db=true:clip_db=true"));
    ASSERT_EQ(clip.open_ret, 0) << clip.error;
    EXPECT_EQ(clip.frames[0][0], db.frames[0][0]); // below the cap: unchanged
    // max_db = ceil(10*log10(255^2 / (0.5 / (576*324)))) = ceil(103.85...)
    const double max_db = std::ceil(10. * std::log10(65025.0 / (0.5 / (576.0 * 324.0))));
    EXPECT_EQ(max_db, 104.0);
    EXPECT_EQ(clip.frames[1][0], max_db);

    // clip_db alone changes nothing; l/c/s stay linear with enable_db.
    EXPECT_EQ(run_api_pairs({dist}, ssim_spec(0, ":clip_db=true")).frames[0][0], x);
    const ApiResult lcs =
        run_api_pairs({dist}, ssim_spec(0, ":enable_db=true:clip_db=true:enable_lcs=true"));
    ASSERT_EQ(lcs.frames[0].size(), 4u);
    EXPECT_EQ(lcs.frames[0][0], db.frames[0][0]);
    EXPECT_LT(lcs.frames[0][1], 1.0);

    // The cap depends on the bit depth: peak 2^bpc - 1.
    Geometry g;
    g.w = 1920;
    g.h = 1080;
    g.bpc = 10;
    EXPECT_EQ(ssim(ssim_spec(0, ":clip_db=true"), g)->max_db(),
              std::ceil(10. * std::log10(1023.0 * 1023.0 / (0.5 / (1920.0 * 1080.0)))));
    EXPECT_TRUE(std::isinf(ssim(ssim_spec(), g)->max_db()));
}

// ---- bit depths, threads, layout ---------------------------------------------

TEST(Ssim, HighBitDepthEqualsEightBit)
{
    // v << (bpc - 8) normalises back to v exactly (§2), so every score is equal.
    std::vector<Pair> pairs;
    for (int i = 0; i < 2; i++)
        pairs.push_back(natural1_pair("mpeg2q28", i));
    for (int scale : {0, 2, 3}) {
        const std::string ss = ssim_spec(scale, ":enable_lcs=true");
        const ApiResult base = run_api_pairs(pairs, ss);
        ASSERT_EQ(base.open_ret, 0) << base.error;
        for (int bpc : {10, 12, 16}) {
            std::vector<Pair> hi;
            for (const Pair &p : pairs)
                hi.push_back(Pair{shifted(p.ref, bpc), shifted(p.dis, bpc)});
            const ApiResult res = run_api_pairs(hi, ss);
            ASSERT_EQ(res.open_ret, 0) << res.error;
            for (size_t i = 0; i < pairs.size(); i++)
                EXPECT_EQ(res.frames[i], base.frames[i]) << bpc << "-bit scale " << scale;
        }
    }
    // Real 10-bit content (low bits set): also against the naive reference.
    const testfx::Fixture &fx = testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32");
    const testfx::Clip r(fx.ref, fx.w, fx.h, 10, fx.chroma), d(fx.dis, fx.w, fx.h, 10, fx.chroma);
    Pair p{make_luma(fx.w, fx.h, 10), make_luma(fx.w, fx.h, 10)};
    std::memcpy(p.ref.bytes.data(), r.frame_data(0), p.ref.bytes.size());
    std::memcpy(p.dis.bytes.data(), d.frame_data(0), p.dis.bytes.size());
    for (int scale : {1, 2, 3})
        expect_same_accum(run_cpu(p, scale), naive_ssim(p.ref, p.dis, scale), "10-bit");
}

TEST(Ssim, ResultsIndependentOfThreadCount)
{
    const Pair p = natural1_pair("mpeg2q28", 7);
    // Forced scale 1 at 1080p: a 1910x1070 map, several bands of rows.
    const Pair big{tile(p.ref, 1920, 1080, 13, 5), tile(p.dis, 1920, 1080, 13, 5)};
    const SsimAccum want = naive_ssim(big.ref, big.dis, 1);
    for (int threads : {1, 2, 3, 8})
        expect_same_accum(run_cpu(big, 1, threads), want, "threads " + std::to_string(threads));
    const SsimAccum want4 = naive_ssim(big.ref, big.dis, 4);
    for (int threads : {1, 2, 5})
        expect_same_accum(run_cpu(big, 0, threads), want4, "auto, threads " + std::to_string(threads));
    // And through the API's threads setting.
    const double one = run_api_pairs({big}, ssim_spec(), 1).frames[0][0];
    for (int threads : {2, 4})
        EXPECT_EQ(run_api_pairs({big}, ssim_spec(), threads).frames[0][0], one);
}

TEST(Ssim, StridesAndPadding)
{
    // Padded rows and a bottom-up (negative stride) picture read the same samples.
    const Pair p = natural1_pair("x264crf38", 3);
    const double dense = run_api_pairs({p}).frames[0][0];
    for (int scale : {0, 3}) {
        const int pad = 37;
        const ptrdiff_t stride = p.ref.w + pad;
        std::vector<uint8_t> r(static_cast<size_t>(stride) * p.ref.h, 0xee), d(r.size(), 0x11);
        for (int y = 0; y < p.ref.h; y++) {
            std::memcpy(&r[y * stride], &p.ref.bytes[static_cast<size_t>(y) * p.ref.w], p.ref.w);
            std::memcpy(&d[y * stride], &p.dis.bytes[static_cast<size_t>(y) * p.dis.w], p.dis.w);
        }
        VmafHipPicture rp = {}, dp = {};
        rp.data[0] = r.data();
        rp.stride[0] = stride;
        dp.data[0] = d.data();
        dp.stride[0] = stride;
        // Bottom-up: start at the last row, negative stride.
        std::vector<uint8_t> rf(r.size()), df(d.size());
        for (int y = 0; y < p.ref.h; y++) {
            std::memcpy(&rf[(p.ref.h - 1 - y) * stride], &r[y * stride], stride);
            std::memcpy(&df[(p.ref.h - 1 - y) * stride], &d[y * stride], stride);
        }
        VmafHipPicture rb = {}, db = {};
        rb.data[0] = rf.data() + (p.ref.h - 1) * stride;
        rb.stride[0] = -stride;
        db.data[0] = df.data() + (p.ref.h - 1) * stride;
        db.stride[0] = -stride;
        const ApiResult res = run_api(gray_settings(p.ref), ssim_spec(scale), {rp, rb}, {dp, db});
        ASSERT_EQ(res.open_ret, 0) << res.error;
        const double want = scale ? run_api_pairs({p}, ssim_spec(scale)).frames[0][0] : dense;
        EXPECT_EQ(res.frames[0][0], want) << "padded, scale " << scale;
        EXPECT_EQ(res.frames[1][0], want) << "bottom-up, scale " << scale;
    }
}

TEST(Ssim, SameSumsAnyThreadCount1080p)
{
    const Pair p = natural1_pair("x264crf38", 0);
    const Pair big{tile(p.ref, 1920, 1080), tile(p.dis, 1920, 1080)};
    const auto m = ssim(ssim_spec(), geometry(big.ref));
    FrameView f;
    f.ref[0] = big.ref.view();
    f.dis[0] = big.dis.view();
    SsimAccum a;
    testfx::same_sums_any_thread_count(*m, f, &a);
    EXPECT_GT(a.ssim, 0.0);
}
