// float_adm tests (docs/float_adm.md): the table entry, libvmaf's goldens bit
// for bit (defaults, enhancement gain limit 1, every option, 12 and 16 bits,
// the smallest size), refusals, thread counts, CSF weights, the reciprocal
// model of the GPU. Built for the CPU (suite unit) and the GPU (suite gpu,
// TEST_BACKEND).
//
// Map:
//   FloatAdmEntry.*    the table entry: name, options, provided features, the
//                      GPU's host side and what it refuses
//   FloatAdmRcp.*      the device's reciprocal (§6.1) against the processor's
//   FloatAdmGolden.*   every frame of libvmaf's goldens, with 1 and 3 threads
//   FloatAdmRefusals.* sizes and option values libvmaf refuses
//   FloatAdmCsf.*      the CSF weights of each model and the overrides
#include <gtest/gtest.h>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "extractors/adm/adm.h"
#include "extractors/float_adm/float_adm.h"
#include "extractors/options.h"
#include "tests/common/context.h"
#include "tests/common/ctc.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/float_family.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

uint32_t bits(float f)
{
    uint32_t u;
    std::memcpy(&u, &f, sizeof u);
    return u;
}

// ---------------------------------------------------------------------------

TEST(FloatAdmEntry, TableRow)
{
    const ExtractorInfo &e = float_adm_extractor;
    EXPECT_STREQ(e.name, "float_adm");
    EXPECT_EQ(find_extractor("float_adm"), &e);
    // What the float models ask for.
    for (const char *f : {"VMAF_feature_adm2_score", "VMAF_feature_aim_score",
                          "VMAF_feature_adm3_score", "VMAF_feature_adm_scale3_score"})
        EXPECT_EQ(find_provider(f), &e) << f;
    EXPECT_EQ(provided_output_name(e, "VMAF_feature_adm2_score", "_egl_1"), "adm2_egl_1");
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
    EXPECT_EQ(e.n_options, 23); // libvmaf's float_adm has 23
    std::vector<std::string> names;
    testfx::extractor<FloatAdm>("float_adm", Geometry{64, 64, 8, VMAFHIP_CHROMA_420})->names(&names);
    EXPECT_EQ(names, (std::vector<std::string>{"adm2", "aim", "adm3", "adm_scale0", "adm_scale1",
                                               "adm_scale2", "adm_scale3"}));
    names.clear();
    testfx::extractor<FloatAdm>("float_adm=debug=true:adm_enhn_gain_limit=1",
                                Geometry{64, 64, 8, VMAFHIP_CHROMA_420})
        ->names(&names);
    ASSERT_EQ(names.size(), 18u);
    EXPECT_EQ(names[7], "adm_egl_1");
    EXPECT_EQ(names[17], "adm_den_scale3_egl_1");
}

TEST(FloatAdmEntry, NameSuffixes)
{
    const auto suffix = [](const char *spec) {
        const FeatureRequest r = testfx::feature_request(spec);
        return option_suffix(*r.info, r.options);
    };
    // libvmaf's aliases, ordered by option name; debug is not a feature parameter.
    EXPECT_EQ(suffix("float_adm=adm_ref_display_height=2160:adm_p_norm=2.5:adm_bypass_cm=1"),
              "_bcm_1_apn_2.5_rdf_2160");
    EXPECT_EQ(suffix("float_adm=debug=true:adm_adm3_apply_hm=true:adm_skip_aim_scale=1"),
              "_aah_sasc_1");
}

TEST(FloatAdmEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = float_adm_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    const auto e = testfx::extractor<FloatAdm>("float_adm", Geometry{1920, 1080, 10, VMAFHIP_CHROMA_420});
    // §12 the constants: the reciprocal table where the host divides with rcpss.
    std::string why;
    const uint32_t *table = float_adm_rcp_table(&why);
    if (float_adm_uses_rcp()) {
        ASSERT_TRUE(table) << why;
        ASSERT_EQ(gpu->constants_bytes(*e), sizeof(uint32_t) * FADM_RCP_ENTRIES);
        std::vector<uint32_t> host(FADM_RCP_ENTRIES);
        gpu->fill_constants(*e, host.data());
        EXPECT_EQ(std::memcmp(host.data(), table, sizeof(uint32_t) * FADM_RCP_ENTRIES), 0);
    } else {
        EXPECT_EQ(gpu->constants_bytes(*e), 0u);
    }
    // 22 planes of scale 0's bands (960 x 540), then the rows' sums.
    EXPECT_GE(gpu->workspace_bytes(*e), sizeof(float) * 960 * 540 * 22);
    EXPECT_LT(gpu->workspace_bytes(*e), sizeof(float) * 960 * 540 * 23);
    // §12: every option runs on the GPU; only a processor whose rcpss the
    // table cannot reproduce is refused.
    ASSERT_TRUE(gpu->refuse);
    const bool reproduced = !float_adm_uses_rcp() || table;
    for (const char *spec : {"float_adm", "float_adm=adm_p_norm=2.5", "float_adm=adm_p_norm=20"}) {
        const auto x = testfx::extractor<FloatAdm>(spec, Geometry{64, 64, 8, VMAFHIP_CHROMA_420});
        EXPECT_EQ(gpu->refuse(*x).empty(), reproduced) << spec << ": " << gpu->refuse(*x);
    }
}

// ---------------------------------------------------------------------------

#if defined(__SSE2__)
/// The processor's rcpss of x.
uint32_t rcpss(uint32_t x)
{
    float f;
    std::memcpy(&f, &x, sizeof f);
    return bits(_mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(f))));
}

TEST(FloatAdmRcp, TableModelIsTheProcessorsRcpss)
{
    // §6.1: fadm_rcp(), the device's reciprocal, called on the host with the
    // host's table, against _mm_rcp_ss on random bit patterns and the edges.
    std::string why;
    const uint32_t *table = float_adm_rcp_table(&why);
    ASSERT_TRUE(table) << why;
    EXPECT_TRUE(why.empty());
    const auto model = [&](uint32_t x) {
        float f;
        std::memcpy(&f, &x, sizeof f);
        return bits(fadm_rcp(f, table));
    };
    std::mt19937 rng(20260101);
    int differ = 0;
    for (int k = 0; k < 1 << 24; k++) {
        const uint32_t x = static_cast<uint32_t>(rng());
        if (model(x) != rcpss(x) && differ++ < 5)
            ADD_FAILURE() << std::hex << x << ": " << model(x) << " against " << rcpss(x);
    }
    for (uint32_t sign : {0u, 0x80000000u})
        for (uint32_t b : {0u, 1u, 0x7fffffu, 0x800000u, 0x800001u, 0x3f800000u, 0x3fffffffu,
                           0x7e7fffffu, 0x7e800000u, 0x7f000000u, 0x7f7fffffu, 0x7f800000u,
                           0x7f800001u, 0x7fc00000u, 0x7fffffffu})
            EXPECT_EQ(model(sign | b), rcpss(sign | b)) << std::hex << (sign | b);
    EXPECT_EQ(differ, 0);
    // The edges of the model, as this processor gives them.
    EXPECT_EQ(model(0x00000000u), 0x7f800000u); // 1 / 0: inf
    EXPECT_EQ(model(0x80000001u), 0xff800000u); // a subnormal reads as -0
    EXPECT_EQ(model(0x7f800000u), 0x00000000u); // 1 / inf: 0
    EXPECT_EQ(model(0x7e800000u), 0x00000000u); // 2^-126 x 0.99976: below normal, 0
}

TEST(FloatAdmRcp, DivisionIsTheCpusNewtonStep)
{
    // FadmTableDiv with the table: libvmaf's n * (xi + xi * (1 - d * xi))
    // with the processor's estimate; without a table: IEEE division.
    std::string why;
    const FadmTableDiv div{float_adm_rcp_table(&why)};
    ASSERT_TRUE(div.table) << why;
    const FadmTableDiv ieee{nullptr};
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(-300.0f, 300.0f);
    for (int k = 0; k < 1 << 20; k++) {
        const float n = u(rng), d = u(rng) + 1e-30f;
        const float xi = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(d)));
        ASSERT_EQ(bits(div(n, d)), bits(n * (xi + xi * (1.0f - d * xi)))) << n << " / " << d;
        ASSERT_EQ(bits(ieee(n, d)), bits(n / d));
    }
}
#endif // defined(__SSE2__)

// ---------------------------------------------------------------------------

TEST(FloatAdmGolden, FloatPairs)
{
    // 44 frames (8 and 10 bits; 4:2:0, 4:2:2, 4:4:4; identical pictures) x 7
    // outputs x 2 thread counts.
    EXPECT_EQ(testfx::compare_float_goldens("float_adm", 7), 616);
    EXPECT_EQ(testfx::compare_float_goldens("float_adm=adm_enhn_gain_limit=1", 7), 616);
}

/// Compares a run of `features` on f with the golden of `kind`, with 1 and 3
/// threads. @return the values compared.
int compare(const testfx::Fixture &f, const std::string &kind, const std::string &features)
{
    int compared = 0;
    for (int threads : {1, 3}) {
        SCOPED_TRACE(f.name + " " + features + " threads " + std::to_string(threads));
        compared += testfx::compare_golden_values(testfx::run_features(f, features, threads),
                                                  "golden/" + f.name + "." + kind + ".fullprec.json",
                                                  "");
    }
    return compared;
}

TEST(FloatAdmGolden, EveryOption)
{
    // tests/fixtures/make_float_adm_goldens.sh: eight instances in one run.
    const testfx::Fixture f =
        testfx::pair("natural4_176x144_yuv422p__ref_vs_x264crf34", 8, VMAFHIP_CHROMA_422, 4);
    std::string features =
        "float_adm=debug=true"
        "|float_adm=adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.5"
        "|float_adm=adm_csf_mode=2:adm_norm_view_dist=5:adm_ref_display_height=2160"
        "|float_adm=adm_csf_mode=7"
        "|float_adm=adm_adm3_apply_hm=true:adm_min_val=0.5:adm_dlm_weight=0.7"
        "|float_adm=adm_f1s0=0.5:adm_f2s3=0.25:adm_skip_aim_scale=1:adm_skip_scale0=true"
        "|float_adm=adm_noise_weight=0.5:adm_enhn_gain_limit=1.2";
    features += "|float_adm=adm_p_norm=2.5:adm_bypass_cm=1";
    // (18 + 7 x 7) outputs x 4 frames x 2 thread counts
    EXPECT_EQ(compare(f, "float_adm_opts", features), (18 + 7 * 7) * 4 * 2);
}

TEST(FloatAdmGolden, TwelveAndSixteenBits)
{
    EXPECT_EQ(compare(testfx::pair("minsize_ms_ssim_176x176_yuv420p12le__ref_vs_x264crf38", 12,
                                   VMAFHIP_CHROMA_420, 3),
                      "float_adm", "float_adm"),
              7 * 3 * 2);
    EXPECT_EQ(compare(testfx::pair("minsize_ms_ssim_176x176_yuv420p16le__ref_vs_x264crf38", 16,
                                   VMAFHIP_CHROMA_420, 1),
                      "float_adm", "float_adm"),
              7 * 1 * 2);
}

TEST(FloatAdmGolden, SmallestSize)
{
    EXPECT_EQ(compare(testfx::pair("minsize_float_adm_17x17_yuv444p__ref_vs_noise20", 8,
                                   VMAFHIP_CHROMA_444, 3),
                      "float_adm", "float_adm"),
              7 * 3 * 2);
}

// ---------------------------------------------------------------------------

TEST(FloatAdmRefusals, Sizes)
{
    const ExtractorInfo &e = float_adm_extractor;
    for (const Geometry &g : {Geometry{16, 64, 8, VMAFHIP_CHROMA_444},
                              Geometry{64, 16, 10, VMAFHIP_CHROMA_420}})
        testfx::expect_refused(e, g, {}, -ERANGE, {"float_adm", "at least 17"});
    EXPECT_TRUE(testfx::accepted(e, Geometry{17, 17, 8, VMAFHIP_CHROMA_444}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{18, 17, 16, VMAFHIP_CHROMA_420}));
}

TEST(FloatAdmRefusals, OptionRanges)
{
    const ExtractorInfo &e = float_adm_extractor;
    const Geometry g{64, 64, 8, VMAFHIP_CHROMA_420};
    testfx::expect_refused(e, g, {{"adm_enhn_gain_limit", "0.5"}}, -ERANGE, {"1 to 100"});
    testfx::expect_refused(e, g, {{"adm_csf_mode", "10"}}, -ERANGE, {"adm_csf_mode"});
    testfx::expect_refused(e, g, {{"adm_p_norm", "0.5"}}, -ERANGE, {"adm_p_norm"});
    testfx::expect_refused(e, g, {{"adm_skip_aim_scale", "4"}}, -ERANGE, {"adm_skip_aim_scale"});
    testfx::expect_refused(e, g, {{"adm_f1s2", "-2"}}, -ERANGE, {"adm_f1s2"});
    testfx::expect_refused(e, g, {{"adm_bypass_cm", "2"}}, -ERANGE, {"adm_bypass_cm"});
}

// ---------------------------------------------------------------------------

TEST(FloatAdmCsf, WatsonIsTheIntegerAdmsWeight)
{
    FloatAdmOptions o = testfx::options_of<FloatAdmOptions>("float_adm");
    float rf[FLOAT_ADM_SCALES][2];
    FloatAdm::csf_weights(o, rf);
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        EXPECT_EQ(bits(rf[s][0]), bits(watson_rf(3.0, 1080, s, 1))) << s;
        EXPECT_EQ(bits(rf[s][1]), bits(watson_rf(3.0, 1080, s, 2))) << s;
    }
    // Modes 3 to 9 are Watson too.
    float rf7[FLOAT_ADM_SCALES][2];
    o.csf_mode = 7;
    FloatAdm::csf_weights(o, rf7);
    EXPECT_EQ(std::memcmp(rf, rf7, sizeof rf), 0);
}

TEST(FloatAdmCsf, Overrides)
{
    const FloatAdmOptions o =
        testfx::options_of<FloatAdmOptions>("float_adm=adm_f1s1=0.25:adm_f2s2=0");
    float rf[FLOAT_ADM_SCALES][2];
    FloatAdm::csf_weights(o, rf);
    EXPECT_EQ(rf[1][0], 0.25f);
    EXPECT_EQ(rf[2][1], 0.0f);
    EXPECT_EQ(bits(rf[1][1]), bits(watson_rf(3.0, 1080, 1, 2)));
}

} // namespace
