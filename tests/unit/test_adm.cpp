// integer ADM tests (docs/adm.md; every § below is a section of it), CPU
// reference.
//
// Map:
//   AdmOps.*      per-coefficient arithmetic and libvmaf's quirks (adm_ops.h)
//   AdmCsf.*      §5 float weights and fixed-point weights
//   AdmParams.*   §3.2 regions and §7/§9 shifts (the 1080p table of §3.4)
//   AdmGolden.*   every fixture pair with ADM against its libvmaf golden,
//                 bit for bit, through the public API (+ debug num/den)
//   AdmOptions.*  egl, skip_aim, skip_scale0, csf modes, noise weight, bit depths
//   AdmReject.*   sizes, bit depths and options that are refused
//   AdmThreads.*  accumulators independent of the thread count (also at 1080p)
//
// Quick start for a new case: add the pair to tests/common/fixtures.cpp with
// adm in `features`; AdmGolden.EveryFixtureBitExact picks it up. For an
// option, run with settings(f, "adm=option=value") and compare with `bits()`.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/adm/adm.h"
#include "tests/common/bits.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"

using namespace vmafhip;
using testfx::bits;

namespace {

/// Scores of a run through the public API: names and one row per frame.
struct Scores {
    int ret = 0; ///< vmafhip_open's result
    std::string error;
    std::vector<std::string> names;
    std::vector<std::vector<double>> frames;

    double at(int frame, const std::string &name) const
    {
        for (size_t k = 0; k < names.size(); k++)
            if (names[k] == name)
                return frames.at(static_cast<size_t>(frame))[k];
        ADD_FAILURE() << "no feature " << name;
        return std::nan("");
    }
};

/// Score pictures pairs (dis, ref) on the CPU backend.
Scores run_pictures(VmafHipSettings s, const std::vector<std::pair<VmafHipPicture, VmafHipPicture>> &pairs)
{
    s.backend = VMAFHIP_BACKEND_CPU;
    s.log_level = VMAFHIP_LOG_ERROR;
    Scores r;
    VmafHipContext *c = nullptr;
    r.ret = vmafhip_open(&c, &s);
    if (r.ret < 0) {
        r.error = vmafhip_last_error(nullptr);
        return r;
    }
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    r.names.assign(names, names + n);
    for (const auto &p : pairs)
        EXPECT_GE(vmafhip_submit(c, &p.first, &p.second), 0) << vmafhip_last_error(c);
    for (size_t i = 0; i < pairs.size(); i++) {
        const double *v = nullptr;
        EXPECT_EQ(vmafhip_frame_scores(c, static_cast<unsigned>(i), 1, &v), 0);
        r.frames.emplace_back(v, v + n);
    }
    vmafhip_close(&c);
    return r;
}

/// Score the first `frames` frames (all when < 0) of a fixture pair.
Scores run_fixture(const testfx::Fixture &f, VmafHipSettings s, int frames = -1)
{
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    const int n = frames < 0 ? ref.frames() : frames;
    std::vector<std::pair<VmafHipPicture, VmafHipPicture>> pairs;
    for (int i = 0; i < n; i++)
        pairs.emplace_back(dis.picture(i), ref.picture(i));
    return run_pictures(s, pairs);
}

/// Settings for fixture f with ADM only; spec: "adm" with options.
VmafHipSettings settings(const testfx::Fixture &f, const char *spec = "adm")
{
    VmafHipSettings s = testfx::settings_for(f);
    s.features = spec;
    s.models = nullptr;
    return s;
}

bool is_adm_name(const std::string &n)
{
    return n.rfind("integer_adm", 0) == 0 || n.rfind("integer_aim", 0) == 0;
}

/// Compare every integer_adm*/integer_aim value of a golden with a run, bit
/// for bit. @return the number of values compared.
int compare_golden(const Scores &r, const std::string &golden, const std::string &fixture)
{
    const auto g = testfx::golden_frames(golden);
    int compared = 0;
    for (const auto &kv : g) {
        if (!is_adm_name(kv.first))
            continue;
        EXPECT_EQ(kv.second.size(), r.frames.size()) << fixture << " " << kv.first;
        for (size_t i = 0; i < kv.second.size() && i < r.frames.size(); i++) {
            const double ours = r.at(static_cast<int>(i), kv.first);
            EXPECT_EQ(bits(ours), bits(kv.second[i]))
                << fixture << " frame " << i << " " << kv.first << ": ours "
                << testing::PrintToString(ours) << " golden " << testing::PrintToString(kv.second[i]);
            compared++;
        }
    }
    return compared;
}

/// A w x h gray (4:0:0) picture pair of 8-bit samples held by the caller.
struct GrayPair {
    int w, h;
    std::vector<uint8_t> ref, dis;
    GrayPair(int w_, int h_) : w(w_), h(h_), ref(static_cast<size_t>(w_) * h_), dis(ref.size()) {}
    std::pair<VmafHipPicture, VmafHipPicture> pictures() const
    {
        VmafHipPicture d = {}, r = {};
        d.data[0] = dis.data();
        d.stride[0] = w;
        r.data[0] = ref.data();
        r.stride[0] = w;
        return {d, r};
    }
};

VmafHipSettings gray_settings(int w, int h, int bpc = 8, const char *spec = "adm")
{
    return testfx::settings(w, h, bpc, VMAFHIP_CHROMA_400, spec);
}

/// Deterministic textured content: smooth gradients, edges and noise; dis is
/// a blurred, noisier, slightly sharpened-in-places copy.
GrayPair synthetic(int w, int h)
{
    GrayPair p(w, h);
    uint32_t seed = 12345;
    auto rnd = [&] { return (seed = seed * 1664525u + 1013904223u) >> 24; };
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            int v = 128 + static_cast<int>(60 * std::sin(x * 0.05) * std::cos(y * 0.03)) +
                    (((x / 37) + (y / 23)) % 2 ? 30 : -30) + static_cast<int>(rnd() % 16) - 8;
            p.ref[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const int x1 = x + 1 < w ? x + 1 : x, y1 = y + 1 < h ? y + 1 : y;
            const auto at = [&](int xx, int yy) { return p.ref[static_cast<size_t>(yy) * w + xx]; };
            int v = (at(x, y) * 2 + at(x1, y) + at(x, y1)) / 4 + static_cast<int>(rnd() % 9) - 4;
            if ((x / 64 + y / 64) % 3 == 0) // enhancement: exercise the gain limit
                v = at(x, y) + (at(x, y) - 128) / 4;
            p.dis[static_cast<size_t>(y) * w + x] = static_cast<uint8_t>(v < 0 ? 0 : v > 255 ? 255 : v);
        }
    return p;
}

const testfx::Fixture &crf38_fixture()
{
    return testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
}

FrameView luma_view(const VmafHipPicture &ref, const VmafHipPicture &dis, int w, int h)
{
    FrameView f;
    f.ref[0] = PlaneView{static_cast<const uint8_t *>(ref.data[0]), ref.stride[0], w, h};
    f.dis[0] = PlaneView{static_cast<const uint8_t *>(dis.data[0]), dis.stride[0], w, h};
    return f;
}

} // namespace

// ---------------------------------------------------------------------------

TEST(AdmOps, Constants)
{
    EXPECT_EQ(bits(ADM_COS_1DEG_SQ), 0x3F7FEC0Au);
    const double c = std::cos(3.14159265358979323846 / 180.0);
    EXPECT_EQ(ADM_COS_1DEG_SQ, static_cast<float>(c * c));
    EXPECT_EQ(bits(1.0f / 3.0f), 0x3EAAAAABu); // the powf exponent (§12.2)
}

TEST(AdmOps, BorderClog2Mirror)
{
    for (int n = 1; n <= 200000; n++) {
        const int left = static_cast<int>(n * 0.1 - 0.5); // libvmaf's double expression
        ASSERT_EQ(adm_border(n), left < 0 ? 0 : left) << n;
    }
    for (uint32_t n = 1; n <= (1u << 20); n++)
        ASSERT_EQ(adm_clog2(n), static_cast<int>(std::ceil(std::log2(static_cast<double>(n))))) << n;
    EXPECT_EQ(adm_half(0), 0);
    EXPECT_EQ(adm_half(5), 16);
    // Asymmetric: the leading edge does not repeat the sample, the trailing one does.
    EXPECT_EQ(adm_mirror(-1, 10), 1);
    EXPECT_EQ(adm_mirror(10, 10), 9);
    EXPECT_EQ(adm_mirror(11, 10), 8);
    EXPECT_EQ(adm_mirror(4, 10), 4);
}

TEST(AdmOps, Reciprocal)
{
    for (int m = 1; m <= 32768; m++) {
        ASSERT_EQ(adm_recip(m), static_cast<int32_t>((1ll << 30) / m)) << m;
        ASSERT_EQ(adm_recip(-m), -static_cast<int32_t>((1ll << 30) / m)) << m;
    }
}

TEST(AdmOps, RatioK)
{
    EXPECT_EQ(adm_k_s0(0, 123), 32768);
    EXPECT_EQ(adm_k_s0(100, 50), 16384);
    EXPECT_EQ(adm_k_s0(100, -50), 0);     // clamped at 0
    EXPECT_EQ(adm_k_s0(100, 300), 32768); // clamped at 1
    EXPECT_EQ(adm_k_s0(-7, -3), ((static_cast<int64_t>(-(1 << 30) / 7) * -3 + 16384) >> 15));
    EXPECT_EQ(adm_k_s123(0, 5), 32768);
    // |o| >= 32768: 15-bit normalisation, e = 17 - clz; 65535 rounds to m = 32768.
    EXPECT_EQ(adm_k_s123(65535, 65535), ((32768ll * 65535 + (1 << 15)) >> 16));
    const int64_t u = 100000, e = 17 - __builtin_clz(100000u), m = (u + (1 << (e - 1))) >> e;
    EXPECT_EQ(adm_k_s123(100000, 50000),
              (((1ll << 30) / m) * 50000 + (1ll << (14 + e))) >> (15 + e));
    EXPECT_EQ(adm_k_s123(-100000, -50000), adm_k_s123(100000, 50000));
}

TEST(AdmOps, RestoreTruncatesAndFollowsKo)
{
    // Inside the cone with k clamped to 1: r = min(r0 * egl, t).
    EXPECT_EQ(adm_restore<int16_t>(32768, 10, 20, true, 100.0), 20);
    EXPECT_EQ(adm_restore<int16_t>(32768, 10, 20, true, 1.0), 10);
    EXPECT_EQ(adm_restore<int16_t>(32768, 7, 20, true, 1.2), 8); // 8.4 truncated
    // Negative: r0 = floor(-8.5) = -9, max(-10.8, -20) truncates to -10 (nearest: -11, the SIMD bug).
    EXPECT_EQ(adm_restore<int16_t>(32768, -9, -20, true, 1.2), -10);
    EXPECT_EQ(adm_restore<int32_t>(32768, -9, -20, true, 1.2), -10);
    // Outside the cone: r = r0 = round(k * o).
    EXPECT_EQ(adm_restore<int16_t>(16384, 10, 5, false, 100.0), 5);
    EXPECT_EQ(adm_restore<int16_t>(32768, 10, 20, false, 100.0), 10);
}

TEST(AdmOps, AngleTest)
{
    EXPECT_TRUE(adm_angle_flag(100, 0, 200, 0));
    EXPECT_FALSE(adm_angle_flag(100, 0, -200, 0));
    EXPECT_FALSE(adm_angle_flag(1000, 0, 1000, 35)); // ~2 degrees
    EXPECT_TRUE(adm_angle_flag(1000, 0, 1000, 17));  // ~0.97 degrees
    EXPECT_TRUE(adm_angle_flag(0, 0, 0, 0));         // 0 >= 0
}

TEST(AdmOps, CsfQuirks)
{
    // Scale-0 D band rounds with 65535, not 65536.
    EXPECT_EQ(adm_csf_s0(4, 16384, ADM_D), 0);
    EXPECT_EQ(adm_csf_s0(4, 16384, ADM_H), 2);
    // Scales 1-3: libvmaf's +2^31 became -2^31 (int32 store): f(0) = -1.
    EXPECT_EQ(adm_f_s123(0), -1);
    EXPECT_EQ(adm_centre_s123(0), -1);
    EXPECT_EQ(adm_f_s123(30 << 10), (143165577ll * (30 << 10) - (1ll << 31)) >> 32);
    EXPECT_EQ(adm_f_s0(-(30 << 7)), ((4369 * (30 << 7) + 2048) >> 12));
    // Scale-0 centre keeps the int16 wrap for |c| >= 15360.
    EXPECT_EQ(adm_centre_s0(16000), static_cast<int16_t>((8738 * 16000 + 2048) >> 12));
    EXPECT_LT(adm_centre_s0(16000), 0);
    // Scale 1-3 den: the add before >> sq is 2^sq, so every square gains 1.
    EXPECT_EQ(adm_den_s123(0, 1, 0), 0u);
    EXPECT_EQ(adm_den_s123(1, 1, 0), 1u);
    EXPECT_EQ(adm_den_s123(-1, 2, 0), 1u);
}

// ---------------------------------------------------------------------------

TEST(AdmCsf, Mode0DefaultWeights)
{
    float rf[4][3];
    Adm::csf_weights(testfx::options_of<AdmOptions>("adm"), rf);
    const uint32_t hv[4] = {0x3C8E63BA, 0x3D030286, 0x3D31A788, 0x3D3B140B};
    const uint32_t d[4] = {0x3BC106AA, 0x3C6A46A3, 0x3CC7DC06, 0x3D0041C9};
    for (int l = 0; l < 4; l++) {
        EXPECT_EQ(bits(rf[l][ADM_H]), hv[l]) << l;
        EXPECT_EQ(bits(rf[l][ADM_V]), hv[l]) << l;
        EXPECT_EQ(bits(rf[l][ADM_D]), d[l]) << l;
    }
    // The formula's scale-0 values, which libvmaf does NOT use at 3240 (§5.3).
    EXPECT_EQ(static_cast<uint16_t>(rf[0][ADM_H] * std::pow(2.0, 21)), 36451);
    EXPECT_EQ(static_cast<uint16_t>(rf[0][ADM_D] * std::pow(2.0, 23)), 49414);

    const Geometry g{1920, 1080, 8, VMAFHIP_CHROMA_420};
    const auto m = testfx::extractor<Adm>("adm", g);
    const uint32_t irf[4][3] = {{36453, 36453, 49417},
                                {137373792, 137373792, 61414028},
                                {186284160, 186284160, 104783920},
                                {196165808, 196165808, 134487184}};
    for (int sc = 0; sc < 4; sc++)
        for (int t = 0; t < 3; t++)
            EXPECT_EQ(m->params().s[sc].irf[t], irf[sc][t]) << sc << " " << t;

    // Any product of 3240 takes the hard-coded branch; another condition does not.
    EXPECT_EQ(testfx::extractor<Adm>("adm=adm_norm_view_dist=1.5:adm_ref_display_height=2160", g)
                  ->params().s[0].irf[ADM_D],
              49417u);
    const char *far_spec = "adm=adm_norm_view_dist=5:adm_ref_display_height=1080";
    const auto far = testfx::extractor<Adm>(far_spec, g);
    Adm::csf_weights(testfx::options_of<AdmOptions>(far_spec), rf);
    EXPECT_EQ(far->params().s[0].irf[ADM_H], static_cast<uint32_t>(static_cast<uint16_t>(rf[0][ADM_H] * 2097152.0)));
    EXPECT_LT(far->params().s[0].irf[ADM_H], 36451u); // farther viewing: smaller weights
}

TEST(AdmCsf, TableModes)
{
    float a[4][3], b[4][3];
    Adm::csf_weights(testfx::options_of<AdmOptions>("adm=adm_csf_mode=2"), a);
    EXPECT_EQ(a[0][ADM_H], 0.01183f);
    EXPECT_EQ(a[3][ADM_D], 0.035901f);
    // 2160 at 1.5H shares the 1080 at 3H table
    Adm::csf_weights(testfx::options_of<AdmOptions>(
                         "adm=adm_csf_mode=2:adm_norm_view_dist=1.5:adm_ref_display_height=2160"),
                     b);
    EXPECT_EQ(std::memcmp(a, b, sizeof(a)), 0);
    Adm::csf_weights(testfx::options_of<AdmOptions>(
                         "adm=adm_csf_mode=3:adm_norm_view_dist=5:adm_ref_display_height=720"),
                     a);
    EXPECT_EQ(a[0][ADM_H], 0.009689f);
    EXPECT_EQ(a[2][ADM_D], 0.019661f);
}

// ---------------------------------------------------------------------------

TEST(AdmParams, Regions1080p)
{
    const auto m = testfx::extractor<Adm>("adm", Geometry{1920, 1080, 8, VMAFHIP_CHROMA_420});
    const struct {
        int w, h, l, r, t, b, cub, inner, den_cub, den_sa;
    } want[4] = {
        {960, 540, 95, 865, 53, 487, 6, 10, 0, 0},
        {480, 270, 47, 433, 26, 244, 9, 9, 9, 8},
        {240, 135, 23, 217, 13, 122, 8, 8, 8, 7},
        {120, 68, 11, 109, 6, 62, 7, 7, 7, 6},
    };
    for (int sc = 0; sc < 4; sc++) {
        const AdmScaleParams &q = m->params().s[sc];
        EXPECT_EQ(q.w, want[sc].w);
        EXPECT_EQ(q.h, want[sc].h);
        EXPECT_EQ(q.left, want[sc].l);
        EXPECT_EQ(q.right, want[sc].r);
        EXPECT_EQ(q.top, want[sc].t);
        EXPECT_EQ(q.bottom, want[sc].b);
        EXPECT_EQ(q.cm_cub[ADM_H], want[sc].cub);
        EXPECT_EQ(q.cm_cub[ADM_D], want[sc].cub + (sc == 0));
        EXPECT_EQ(q.cm_inner, want[sc].inner);
        EXPECT_EQ(q.den_cub, want[sc].den_cub);
        EXPECT_EQ(q.den_shift, want[sc].den_sa);
        EXPECT_EQ(q.cl, q.left - 1);
        EXPECT_EQ(q.cb, q.bottom + 1);
    }
    const auto uhd = testfx::extractor<Adm>("adm", Geometry{3840, 2160, 8, VMAFHIP_CHROMA_420});
    EXPECT_EQ(uhd->params().s[0].left, 191);
    EXPECT_EQ(uhd->params().s[0].den_shift, 1); // area 1331908 > 2^20
    // A small frame: the scale-3 region touches the band edge (mirrored halo).
    const auto small = testfx::extractor<Adm>("adm", Geometry{97, 61, 8, VMAFHIP_CHROMA_420});
    EXPECT_EQ(small->params().s[3].w, 7);
    EXPECT_EQ(small->params().s[3].left, 0);
    EXPECT_EQ(small->params().s[3].cr, 7);
}

// ---------------------------------------------------------------------------

TEST(AdmGolden, EveryFixtureBitExact)
{
    int pairs = 0, values = 0, debug_values = 0;
    for (const auto &f : testfx::fixtures()) {
        if (!f.has("adm"))
            continue;
        SCOPED_TRACE(f.name);
        const Scores r = run_fixture(f, settings(f));
        ASSERT_EQ(r.ret, 0) << r.error;
        ASSERT_EQ(static_cast<int>(r.frames.size()), f.frames);
        const std::vector<std::string> want = {"integer_adm2", "integer_aim", "integer_adm3",
                                               "integer_adm_scale0", "integer_adm_scale1",
                                               "integer_adm_scale2", "integer_adm_scale3"};
        EXPECT_EQ(r.names, want);
        const int n = compare_golden(r, f.golden, f.name);
        EXPECT_EQ(n, 7 * f.frames) << "every default ADM feature is in the golden";
        values += n;
        pairs++;
        if (!f.debug.empty()) {
            const Scores d = run_fixture(f, settings(f, "adm=debug=true"));
            ASSERT_EQ(d.ret, 0) << d.error;
            ASSERT_EQ(d.names.size(), 7u + 3u + 8u);
            EXPECT_EQ(d.names[7], "integer_adm");
            EXPECT_EQ(d.names[8], "integer_adm_num");
            EXPECT_EQ(d.names[9], "integer_adm_den");
            EXPECT_EQ(d.names[10], "integer_adm_num_scale0");
            EXPECT_EQ(d.names[11], "integer_adm_den_scale0");
            EXPECT_EQ(d.names[17], "integer_adm_den_scale3");
            const int nd = compare_golden(d, f.debug, f.name + " (debug)");
            EXPECT_EQ(nd, 18 * f.frames);
            debug_values += nd;
        }
    }
    EXPECT_EQ(pairs, 13);
    std::printf("[ adm golden ] %d pairs, %d values + %d debug values compared bit for bit\n",
                pairs, values, debug_values);
}

TEST(AdmGolden, PlainCPathNotSimd)
{
    // natural3 (97 px wide) is a width where libvmaf's AVX-512 and AVX2 paths
    // differ from its plain C (§14); we are the plain C path.
    const auto &f = testfx::fixture("natural3_97x61_yuv420p__ref_vs_mjpegq24");
    const Scores r = run_fixture(f, settings(f), 1);
    ASSERT_EQ(r.ret, 0);
    EXPECT_EQ(bits(r.at(0, "integer_adm2")), bits(0.91258466463103238));
    const auto avx512 = testfx::golden_frames("golden/" + f.name + ".fullprec.json");
    EXPECT_NE(bits(r.at(0, "integer_adm2")), bits(avx512.at("integer_adm2")[0]));
}

TEST(AdmGolden, IdenticalInputs)
{
    const auto &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref");
    const Scores r = run_fixture(f, settings(f, "adm=debug=true"));
    ASSERT_EQ(r.ret, 0);
    for (size_t i = 0; i < r.frames.size(); i++) {
        const int fi = static_cast<int>(i);
        // The noise floor makes ref vs ref slightly above 1 (§11), never below.
        EXPECT_GT(r.at(fi, "integer_adm2"), 1.0);
        EXPECT_LT(r.at(fi, "integer_adm2"), 1.00001);
        EXPECT_EQ(r.at(fi, "integer_aim"), 0.0); // nothing additive
        EXPECT_EQ(r.at(fi, "integer_adm2"), r.at(fi, "integer_adm_num") / r.at(fi, "integer_adm_den"));
        EXPECT_EQ(r.at(fi, "integer_adm"), r.at(fi, "integer_adm2"));
        for (int sc = 0; sc < 4; sc++)
            EXPECT_GE(r.at(fi, "integer_adm_scale" + std::to_string(sc)), 1.0);
    }
}

TEST(AdmGolden, BottomUpPlanes)
{
    // Rows stored last-first with a negative stride are the same picture:
    // same scores, bit for bit. (A vertically flipped picture would not be:
    // the DWT mirror and taps are asymmetric.)
    const auto &f = crf38_fixture();
    const Scores top = run_fixture(f, settings(f), 2);
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    std::vector<std::vector<uint8_t>> store;
    std::vector<std::pair<VmafHipPicture, VmafHipPicture>> pairs;
    for (int i = 0; i < 2; i++) {
        VmafHipPicture pic[2] = {};
        const testfx::Clip *clips[2] = {&dis, &ref};
        for (int k = 0; k < 2; k++) {
            const uint8_t *y = clips[k]->frame_data(i);
            store.emplace_back(static_cast<size_t>(f.w) * f.h);
            for (int row = 0; row < f.h; row++) // memory row m holds picture row h - 1 - m
                std::memcpy(&store.back()[static_cast<size_t>(f.h - 1 - row) * f.w], y + row * f.w, f.w);
            pic[k].data[0] = store.back().data() + static_cast<size_t>(f.h - 1) * f.w;
            pic[k].stride[0] = -f.w;
        }
        pairs.emplace_back(pic[0], pic[1]);
    }
    VmafHipSettings s = settings(f);
    s.chroma = VMAFHIP_CHROMA_400; // luma only is enough for ADM
    const Scores bottom = run_pictures(s, pairs);
    ASSERT_EQ(bottom.ret, 0) << bottom.error;
    EXPECT_EQ(bottom.frames, top.frames);
}

TEST(AdmGolden, MinimumSize)
{
    // 33 x 33 is the smallest accepted size; 37x33 has a golden (covered above).
    // The synthetic dis is an enhanced copy at this size, so adm2 > 1.
    GrayPair p = synthetic(33, 33);
    const Scores r = run_pictures(gray_settings(33, 33), {p.pictures()});
    ASSERT_EQ(r.ret, 0) << r.error;
    EXPECT_GT(r.at(0, "integer_adm2"), 1.0);
    EXPECT_LT(r.at(0, "integer_adm2"), 1.5);
    for (int sc = 0; sc < 4; sc++)
        EXPECT_TRUE(std::isfinite(r.at(0, "integer_adm_scale" + std::to_string(sc))));
}

// ---------------------------------------------------------------------------

TEST(AdmOptions, GainLimit)
{
    const auto &f = crf38_fixture();
    const Scores def = run_fixture(f, settings(f), 4);
    const Scores neg = run_fixture(f, settings(f, "adm=adm_enhn_gain_limit=1"), 4);
    ASSERT_EQ(neg.ret, 0) << neg.error;
    ASSERT_EQ(neg.names.size(), 7u);
    for (const auto &n : neg.names)
        EXPECT_NE(n.find("_egl_1"), std::string::npos) << n;
    EXPECT_EQ(neg.names[0], "integer_adm2_egl_1");
    int differ = 0;
    for (int i = 0; i < 4; i++) {
        const double a = neg.at(i, "integer_adm2_egl_1"), b = def.at(i, "integer_adm2");
        EXPECT_GT(a, 0.0);
        EXPECT_LT(a, 1.1);
        differ += a != b;
        // egl limits restoration: never more restored signal than with 100.
        EXPECT_LE(a, b);
    }
    EXPECT_EQ(differ, 4);
}

TEST(AdmOptions, SkipAim)
{
    const auto &f = crf38_fixture();
    const Scores def = run_fixture(f, settings(f), 3);
    const Scores r = run_fixture(f, settings(f, "adm=adm_skip_aim=true"), 3);
    ASSERT_EQ(r.ret, 0);
    // libvmaf still writes integer_aim (0) and integer_adm3 from it.
    const std::vector<std::string> want = {"integer_adm2",       "integer_aim",        "integer_adm3",
                                           "integer_adm_scale0", "integer_adm_scale1", "integer_adm_scale2",
                                           "integer_adm_scale3"};
    EXPECT_EQ(r.names, want); // not a feature parameter: no suffix
    for (int i = 0; i < 3; i++) {
        for (const auto &n : want) {
            if (n != "integer_aim" && n != "integer_adm3") {
                EXPECT_EQ(bits(r.at(i, n)), bits(def.at(i, n))) << n;
            }
        }
        EXPECT_EQ(r.at(i, "integer_aim"), 0.0);
        EXPECT_GT(def.at(i, "integer_aim"), 0.0);
        const double adm2 = r.at(i, "integer_adm2");
        EXPECT_EQ(bits(r.at(i, "integer_adm3")), bits(adm2 * 0.5 + (1.0 - 0.0) * (1.0 - 0.5)));
    }

    // And the AIM work is skipped: its accumulators stay 0.
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    const auto m = testfx::extractor<Adm>("adm=adm_skip_aim=true", Geometry{f.w, f.h, f.bpc, f.chroma});
    ThreadPool pool(2);
    AdmAccum acc;
    m->cpu(luma_view(ref.picture(0), dis.picture(0), f.w, f.h), &acc, pool);
    for (int sc = 0; sc < 4; sc++)
        for (int t = 0; t < 3; t++) {
            EXPECT_EQ(acc.aim[sc][t], 0);
            EXPECT_GT(acc.num[sc][t], 0);
        }
}

TEST(AdmOptions, SkipScale0)
{
    const auto &f = crf38_fixture();
    const Scores def = run_fixture(f, settings(f), 3);
    const Scores r = run_fixture(f, settings(f, "adm=adm_skip_scale0=true"), 3);
    ASSERT_EQ(r.ret, 0);
    EXPECT_EQ(r.names[0], "integer_adm2_ssz");
    for (int i = 0; i < 3; i++) {
        EXPECT_EQ(r.at(i, "integer_adm_scale0_ssz"), 0.0); // num 0 over den 1e-10f (§4.4)
        for (int sc = 1; sc < 4; sc++)
            EXPECT_EQ(bits(r.at(i, "integer_adm_scale" + std::to_string(sc) + "_ssz")),
                      bits(def.at(i, "integer_adm_scale" + std::to_string(sc))));
        EXPECT_NE(r.at(i, "integer_adm2_ssz"), def.at(i, "integer_adm2"));
        EXPECT_GT(r.at(i, "integer_adm2_ssz"), 0.0);
        EXPECT_LT(r.at(i, "integer_adm2_ssz"), 1.1);
    }
}

TEST(AdmOptions, CsfModes2And3)
{
    const auto &f = crf38_fixture();
    const Scores def = run_fixture(f, settings(f), 3);
    for (int mode : {2, 3}) {
        const std::string spec = "adm=adm_csf_mode=" + std::to_string(mode);
        const Scores r = run_fixture(f, settings(f, spec.c_str()), 3);
        ASSERT_EQ(r.ret, 0) << r.error;
        const std::string sfx = "_csf_" + std::to_string(mode);
        EXPECT_EQ(r.names[0], "integer_adm2" + sfx);
        for (int i = 0; i < 3; i++) {
            for (const auto &n : r.names) {
                EXPECT_GT(r.at(i, n), 0.0) << n;
                EXPECT_LT(r.at(i, n), 1.1) << n;
            }
            EXPECT_NE(r.at(i, "integer_adm2" + sfx), def.at(i, "integer_adm2"));
        }
        // 2160 at 1.5H uses the same table (and no hard-coded weights outside mode 0).
        const std::string spec2 = spec + ":adm_norm_view_dist=1.5:adm_ref_display_height=2160";
        const Scores r2 = run_fixture(f, settings(f, spec2.c_str()), 3);
        ASSERT_EQ(r2.ret, 0) << r2.error;
        EXPECT_EQ(r2.names[0], "integer_adm2" + sfx + "_nvd_1.5_rdh_2160");
        for (int i = 0; i < 3; i++)
            EXPECT_EQ(r2.frames[static_cast<size_t>(i)], r.frames[static_cast<size_t>(i)]);
    }
}

TEST(AdmOptions, NoiseWeightZeroFlatFrame)
{
    GrayPair p(64, 48);
    std::fill(p.ref.begin(), p.ref.end(), 100);
    std::fill(p.dis.begin(), p.dis.end(), 140);
    const Scores r =
        run_pictures(gray_settings(64, 48, 8, "adm=adm_noise_weight=0:debug=true"), {p.pictures()});
    ASSERT_EQ(r.ret, 0) << r.error;
    EXPECT_EQ(r.names[0], "integer_adm2_nw_0");
    EXPECT_EQ(r.at(0, "integer_adm2_nw_0"), 1.0); // den == 0 (§11)
    EXPECT_EQ(r.at(0, "integer_adm_num_nw_0"), 0.0);
    EXPECT_EQ(r.at(0, "integer_adm_den_nw_0"), 0.0);
    EXPECT_EQ(r.at(0, "integer_aim_nw_0"), 0.0); // defined by us; libvmaf leaves it uninitialised
    EXPECT_EQ(r.at(0, "integer_adm3_nw_0"), 1.0);
    for (int sc = 0; sc < 4; sc++)
        EXPECT_TRUE(std::isnan(r.at(0, "integer_adm_scale" + std::to_string(sc) + "_nw_0"))) << sc;
}

TEST(AdmOptions, HigherBitDepthsScaleExactly)
{
    // §4.2 shifts by B: samples v << (B - 8) give the 8-bit bands exactly, so
    // every score equals the 8-bit one (here checked against the golden run).
    const auto &f = crf38_fixture();
    const Scores r8 = run_fixture(f, settings(f), 2);
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    for (int bpc : {10, 12}) {
        std::vector<std::vector<uint16_t>> planes;
        std::vector<std::pair<VmafHipPicture, VmafHipPicture>> pairs;
        planes.reserve(4);
        for (int i = 0; i < 2; i++) {
            VmafHipPicture pic[2] = {};
            const testfx::Clip *clips[2] = {&dis, &ref};
            for (int k = 0; k < 2; k++) {
                const uint8_t *y = clips[k]->frame_data(i);
                planes.emplace_back(static_cast<size_t>(f.w) * f.h);
                for (size_t n = 0; n < planes.back().size(); n++)
                    planes.back()[n] = static_cast<uint16_t>(y[n] << (bpc - 8));
                pic[k].data[0] = planes.back().data();
                pic[k].stride[0] = 2 * f.w;
            }
            pairs.emplace_back(pic[0], pic[1]);
        }
        const Scores r = run_pictures(gray_settings(f.w, f.h, bpc), pairs);
        ASSERT_EQ(r.ret, 0) << r.error;
        for (int i = 0; i < 2; i++)
            EXPECT_EQ(r.frames[static_cast<size_t>(i)], r8.frames[static_cast<size_t>(i)]) << bpc;
    }
}

// ---------------------------------------------------------------------------

TEST(AdmReject, SizesDepthsOptions)
{
    struct Case {
        int w, h, bpc, mode, rdh;
        double nvd;
        int want;
        const char *says; ///< part of the message: what is accepted
    } cases[] = {
        {32, 33, 8, 0, 1080, 3, -ERANGE, "at least 33"},
        {33, 32, 8, 0, 1080, 3, -ERANGE, "at least 33"},
        {17, 17, 8, 0, 1080, 3, -ERANGE, "out of bounds under 33"},
        {33, 33, 16, 0, 1080, 3, -ENOTSUP, "accepted are 8, 10 and 12"},
        {64, 64, 8, 1, 1080, 3, -ENOTSUP, "accepted modes are 0, 2 and 3"},
        {64, 64, 8, 0, 720, 3, -EINVAL, "product of 3240 or more"},
        {64, 64, 8, 0, 1080, 2.9, -EINVAL, "product of 3240 or more"},
        {64, 64, 8, 2, 1080, 4, -EINVAL, "accepted (rdh, nvd) pairs"},
        {64, 64, 8, 3, 4320, 3, -EINVAL, "accepted (rdh, nvd) pairs"},
        {64, 64, 8, 2, 480, 5, -EINVAL, "product of 3240 or more"},
        {33, 33, 8, 0, 1080, 3, 0, ""},
        {64, 64, 12, 3, 720, 5, 0, ""},
        {64, 64, 10, 0, 720, 4.5, 0, ""},
        {64, 64, 8, 2, 2160, 1.5, 0, ""},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(testing::Message() << c.w << "x" << c.h << " bpc " << c.bpc << " csf " << c.mode
                                        << " rdh " << c.rdh << " nvd " << c.nvd);
        const std::string spec = "adm=adm_csf_mode=" + std::to_string(c.mode) +
                                 ":adm_ref_display_height=" + std::to_string(c.rdh) +
                                 ":adm_norm_view_dist=" + testing::PrintToString(c.nvd);
        VmafHipSettings s = gray_settings(c.w, c.h, c.bpc, spec.c_str());
        s.backend = VMAFHIP_BACKEND_CPU;
        s.log_level = VMAFHIP_LOG_ERROR;
        s.log_callback = [](void *, VmafHipLogLevel, const char *, va_list) {};
        std::string msg;
        EXPECT_EQ(Adm::check(testfx::options_of<AdmOptions>(spec), Geometry{c.w, c.h, c.bpc, VMAFHIP_CHROMA_400}, &msg),
                  c.want);
        VmafHipContext *ctx = nullptr;
        EXPECT_EQ(vmafhip_open(&ctx, &s), c.want);
        if (c.want) {
            EXPECT_EQ(ctx, nullptr);
            const std::string err = vmafhip_last_error(nullptr);
            EXPECT_EQ(err, msg);
            EXPECT_NE(err.find("adm"), std::string::npos) << err;
            EXPECT_NE(err.find(c.says), std::string::npos) << err;
        }
        vmafhip_close(&ctx);
    }
    std::string msg;
    Adm::check(testfx::options_of<AdmOptions>("adm=adm_csf_mode=2:adm_norm_view_dist=4"),
               Geometry{64, 64, 8, VMAFHIP_CHROMA_420}, &msg);
    EXPECT_NE(msg.find("(2160, 1.5)"), std::string::npos) << msg; // lists the accepted pairs
}

// ---------------------------------------------------------------------------

TEST(AdmThreads, AccumulatorsIndependentOfSplit)
{
    const auto &f = crf38_fixture();
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    VmafHipSettings s = settings(f);
    const auto m = testfx::extractor<Adm>("adm", Geometry{f.w, f.h, f.bpc, f.chroma});
    AdmAccum want;
    {
        ThreadPool one(1);
        m->cpu(luma_view(ref.picture(1), dis.picture(1), f.w, f.h), &want, one);
    }
    for (int threads : {2, 3, 7}) {
        ThreadPool pool(threads);
        AdmAccum got;
        m->cpu(luma_view(ref.picture(1), dis.picture(1), f.w, f.h), &got, pool);
        EXPECT_EQ(std::memcmp(&got, &want, sizeof(got)), 0) << threads << " threads";
    }
    // The same through the API: 1 vs 5 threads, every value.
    s.threads = 1;
    const Scores a = run_fixture(f, s, 3);
    s.threads = 5;
    const Scores b = run_fixture(f, s, 3);
    EXPECT_EQ(a.frames, b.frames);
}

TEST(AdmThreads, SameSums1080p)
{
    const int w = 1920, h = 1080;
    const GrayPair p = synthetic(w, h);
    const auto pics = p.pictures();
    const auto m = testfx::extractor<Adm>("adm", Geometry{w, h, 8, VMAFHIP_CHROMA_400});
    const FrameView fv = luma_view(pics.second, pics.first, w, h);
    AdmAccum acc2;
    testfx::same_sums_any_thread_count(*m, fv, &acc2);
    double out[7];
    m->finish(0, &acc2, out);
    EXPECT_GT(out[0], 0.3);
    EXPECT_LT(out[0], 1.1);
}
