// float_adm tests (docs/float_adm.md): the table entry, libvmaf's goldens bit
// for bit (defaults, enhancement gain limit 1, every option, 12 and 16 bits,
// the smallest size), refusals, thread counts, CSF weights.
//
// Map:
//   FloatAdmEntry.*    the table entry: name, options, provided features, no GPU
//   FloatAdmGolden.*   every frame of libvmaf's goldens, with 1 and 3 threads
//   FloatAdmRefusals.* sizes and option values libvmaf refuses
//   FloatAdmCsf.*      the CSF weights of each model and the overrides
#include <gtest/gtest.h>

#include <cerrno>
#include <cstring>
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
    EXPECT_EQ(e.gpu, nullptr);
    EXPECT_NE(std::string(e.help).find("CPU only"), std::string::npos);
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

TEST(FloatAdmEntry, GpuBackendRefusesIt)
{
    testfx::expect_gpu_backend_refuses("float_adm");
}

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
    const std::string features =
        "float_adm=debug=true"
        "|float_adm=adm_csf_mode=1:adm_csf_scale=1.5:adm_csf_diag_scale=0.5"
        "|float_adm=adm_csf_mode=2:adm_norm_view_dist=5:adm_ref_display_height=2160"
        "|float_adm=adm_csf_mode=7"
        "|float_adm=adm_p_norm=2.5:adm_bypass_cm=1"
        "|float_adm=adm_adm3_apply_hm=true:adm_min_val=0.5:adm_dlm_weight=0.7"
        "|float_adm=adm_f1s0=0.5:adm_f2s3=0.25:adm_skip_aim_scale=1:adm_skip_scale0=true"
        "|float_adm=adm_noise_weight=0.5:adm_enhn_gain_limit=1.2";
    // (18 + 7 x 7) outputs x 4 frames x 2 thread counts.
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
