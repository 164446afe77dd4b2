// float_motion tests (docs/float_motion.md): the table entry, libvmaf's
// goldens bit for bit, the options against libvmaf's values, short streams,
// the sizes it refuses.
//
// Map:
//   FloatMotionEntry.*    the table entry: name, options, provided features,
//                         names, look-behind and look-ahead, no GPU
//   FloatMotionGolden.*   every frame of the six .float goldens, with 1 and
//                         3 threads
//   FloatMotionOptions.*  each option, one- and two-frame streams, 12 and 16
//                         bits and the smallest sizes against libvmaf's values
//                         (tests/fixtures/make_float_motion_goldens.sh)
//   FloatMotionRefusals.* bit depths, sizes, motion_add_uv, option ranges
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "extractors/float_motion/float_motion.h"
#include "extractors/options.h"
#include "tests/common/ctc.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/float_family.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

// ---------------------------------------------------------------------------

TEST(FloatMotionEntry, TableRow)
{
    const ExtractorInfo &e = float_motion_extractor;
    EXPECT_STREQ(e.name, "float_motion");
    EXPECT_EQ(find_extractor("float_motion"), &e);
    EXPECT_EQ(e.gpu, nullptr);
    EXPECT_NE(std::string(e.help).find("CPU only"), std::string::npos);
    // The models' names (vmaf_float_v0.6.1 and its kin).
    for (const char *n : {"motion", "motion2", "motion3"}) {
        const std::string f = std::string("VMAF_feature_") + n + "_score";
        EXPECT_EQ(find_provider(f), &e) << f;
        EXPECT_EQ(provided_output_name(e, f, "_mfw_2.5"), std::string(n) + "_mfw_2.5");
    }
    const std::vector<std::string> want = {"debug", "motion_force_zero", "motion_fps_weight",
                                           "motion_blend_factor", "motion_blend_offset",
                                           "motion_add_scale1", "motion_filter_size",
                                           "motion_max_val"};
    ASSERT_EQ(e.n_options, static_cast<int>(want.size()));
    for (int i = 0; i < e.n_options; i++)
        EXPECT_EQ(e.options[i].name, want[static_cast<size_t>(i)]);
    EXPECT_EQ(e.max_lookahead, 1);
}

TEST(FloatMotionEntry, Names)
{
    const Geometry g{64, 64, 8, VMAFHIP_CHROMA_420};
    std::vector<std::string> names, late;
    auto m = testfx::extractor<FloatMotion>("float_motion", g);
    m->names(&names);
    m->late_names(&late);
    EXPECT_EQ(names, std::vector<std::string>{"motion"}); // debug is on by default
    EXPECT_EQ(late, (std::vector<std::string>{"motion2", "motion3"}));
    EXPECT_TRUE(m->every_frame());
    EXPECT_EQ(m->lookbehind(), 1);
    EXPECT_EQ(m->lookahead(), 1);

    names.clear();
    late.clear();
    m = testfx::extractor<FloatMotion>("float_motion=debug=false:motion_force_zero=true", g);
    m->names(&names);
    m->late_names(&late);
    EXPECT_TRUE(names.empty());
    EXPECT_EQ(late, (std::vector<std::string>{"motion2_force_0", "motion3_force_0"}));
    EXPECT_EQ(m->lookbehind(), 0);
    EXPECT_EQ(m->lookahead(), 0);
}

TEST(FloatMotionEntry, GpuBackendRefusesIt)
{
    testfx::expect_gpu_backend_refuses("float_motion");
}

// ---------------------------------------------------------------------------

TEST(FloatMotionGolden, EveryFrame)
{
    // 8 and 10 bits, 4:2:0, 4:2:2 and 4:4:4, identical frames: 44 frames in all.
    EXPECT_EQ(testfx::compare_float_goldens("float_motion", 3), 2 * 3 * 44);
}

// ---------------------------------------------------------------------------

/// One golden of make_float_motion_goldens.sh.
struct Variant {
    const char *clip;    ///< <content>_<W>x<H>_<pix_fmt> of a <clip>_ref.yuv
    int bpc;
    VmafHipChroma chroma;
    int clip_frames;
    const char *variant; ///< golden/<clip>__ref_vs_ref.float_motion_<variant>.fullprec.json
    const char *features;
    int frames;          ///< frames scored (the clip's where 0)
    int outputs;         ///< outputs per frame
};

void PrintTo(const Variant &v, std::ostream *os) { *os << v.clip << " " << v.variant; }

constexpr const char *N4 = "natural4_176x144_yuv422p";
constexpr VmafHipChroma C422 = VMAFHIP_CHROMA_422;

const Variant kVariants[] = {
    {N4, 8, C422, 4, "n1", "float_motion", 1, 3},
    {N4, 8, C422, 4, "n2", "float_motion", 2, 3},
    {N4, 8, C422, 4, "mfw_2.5", "float_motion=mfw=2.5", 0, 3},
    {N4, 8, C422, 4, "mbf_0.5_mbo_1", "float_motion=mbf=0.5:mbo=1", 0, 3},
    {N4, 8, C422, 4, "mbf_0.25_mbo_1_mmxv_2.075",
     "float_motion=motion_blend_factor=0.25:motion_blend_offset=1:motion_max_val=2.075", 0, 3},
    {N4, 8, C422, 4, "mmxv_1", "float_motion=mmxv=1", 0, 3},
    {N4, 8, C422, 4, "force_0", "float_motion=force_0=true", 0, 3},
    {N4, 8, C422, 4, "force_0_nodebug", "float_motion=force_0=true:debug=false", 0, 2},
    {N4, 8, C422, 4, "nodebug", "float_motion=debug=false", 0, 2},
    {N4, 8, C422, 4, "mfs_1", "float_motion=mfs=1", 0, 3},
    {N4, 8, C422, 4, "mfs_2", "float_motion=mfs=2", 0, 3},
    {N4, 8, C422, 4, "mfs_3", "float_motion=mfs=3", 0, 3},
    {N4, 8, C422, 4, "mdc", "float_motion=mdc=true", 0, 3},
    {"motion_24x16_yuv420p12le", 12, VMAFHIP_CHROMA_420, 6, "default", "float_motion", 0, 3},
    {"motion_24x16_yuv420p16le", 16, VMAFHIP_CHROMA_420, 6, "default", "float_motion", 0, 3},
    {"motion_24x16_yuv420p", 8, VMAFHIP_CHROMA_420, 10, "mdc", "float_motion=mdc=true", 0, 3},
    {"motion_3x3_yuv444p", 8, VMAFHIP_CHROMA_444, 10, "default", "float_motion", 0, 3},
    {"motion_3x3_yuv444p", 8, VMAFHIP_CHROMA_444, 10, "mfs_1", "float_motion=mfs=1", 0, 3},
    {"minsize_psnr_chroma_2x2_yuv420p", 8, VMAFHIP_CHROMA_420, 3, "mfs_3", "float_motion=mfs=3", 0,
     3},
};

class FloatMotionOptions : public testing::TestWithParam<Variant> {};

TEST_P(FloatMotionOptions, GoldenBitExact)
{
    const Variant &v = GetParam();
    const std::string name = std::string(v.clip) + "__ref_vs_ref";
    const testfx::Fixture f = testfx::pair(name, v.bpc, v.chroma, v.clip_frames);
    const std::string golden = "golden/" + name + ".float_motion_" + v.variant + ".fullprec.json";
    const int frames = v.frames ? v.frames : v.clip_frames;
    for (int threads : {1, 3}) {
        SCOPED_TRACE(golden + " threads " + std::to_string(threads));
        VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, v.features);
        s.threads = threads;
        const testfx::Scored r = testfx::score(f, s, v.frames);
        // Every output of ours is in the golden and every one of the golden is ours.
        EXPECT_EQ(static_cast<int>(r.names.size()), v.outputs);
        EXPECT_EQ(static_cast<int>(testfx::golden_frames(golden).size()), v.outputs);
        EXPECT_EQ(testfx::compare_golden_values(r, golden, ""), v.outputs * frames);
    }
}

INSTANTIATE_TEST_SUITE_P(Goldens, FloatMotionOptions, testing::ValuesIn(kVariants));

// ---------------------------------------------------------------------------

TEST(FloatMotionRefusals, BitDepths)
{
    const ExtractorInfo &e = float_motion_extractor;
    for (int bpc : {8, 10, 12, 16})
        EXPECT_TRUE(testfx::accepted(e, Geometry{64, 64, bpc, VMAFHIP_CHROMA_420})) << bpc;
    testfx::expect_refused(e, Geometry{64, 64, 14, VMAFHIP_CHROMA_420}, {}, -ENOTSUP,
                           {"float_motion", "bit depth 14", "8, 10, 12 and 16"});
}

TEST(FloatMotionRefusals, SmallestSizes)
{
    // §5: 3x3 for the 5-tap blurs (motion_filter_size 1 included), 2x2 for the 3-tap one.
    const ExtractorInfo &e = float_motion_extractor;
    for (const char *fs : {"5", "1", "0", "9"}) {
        EXPECT_TRUE(testfx::accepted(e, Geometry{3, 3, 8, VMAFHIP_CHROMA_444}, {{"mfs", fs}}));
        for (const Geometry &g : {Geometry{2, 3, 8, VMAFHIP_CHROMA_444},
                                  Geometry{3, 2, 8, VMAFHIP_CHROMA_444}})
            testfx::expect_refused(e, g, {{"mfs", fs}}, -ERANGE,
                                   {"float_motion", "too small", "at least 3"});
    }
    EXPECT_TRUE(testfx::accepted(e, Geometry{2, 2, 8, VMAFHIP_CHROMA_420}, {{"mfs", "3"}}));
    for (const Geometry &g : {Geometry{1, 2, 8, VMAFHIP_CHROMA_444},
                              Geometry{2, 1, 8, VMAFHIP_CHROMA_444}})
        testfx::expect_refused(e, g, {{"mfs", "3"}}, -ERANGE,
                               {"float_motion", "too small", "at least 2"});
}

TEST(FloatMotionRefusals, HalfSizeWidth)
{
    // §5: libvmaf's init refuses half-size pictures wider than 7680.
    const ExtractorInfo &e = float_motion_extractor;
    EXPECT_TRUE(testfx::accepted(e, Geometry{15360, 3, 8, VMAFHIP_CHROMA_444}, {{"mdc", "true"}}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{15361, 3, 8, VMAFHIP_CHROMA_444}));
    testfx::expect_refused(e, Geometry{15361, 3, 8, VMAFHIP_CHROMA_444}, {{"mdc", "true"}},
                           -ERANGE, {"motion_add_scale1", "15361", "7680"});
}

TEST(FloatMotionRefusals, Options)
{
    const ExtractorInfo &e = float_motion_extractor;
    const Geometry g{64, 64, 8, VMAFHIP_CHROMA_420};
    for (const char *name : {"motion_add_uv", "mau"})
        testfx::expect_refused(e, g, {{name, "true"}}, -EINVAL, {"motion_add_uv", "chroma"});
    testfx::expect_refused(e, g, {{"mfs", "10"}}, -ERANGE, {"motion_filter_size", "0 to 9"});
    testfx::expect_refused(e, g, {{"mfw", "5.5"}}, -ERANGE, {"motion_fps_weight"});
    testfx::expect_refused(e, g, {{"mbf", "1.5"}}, -ERANGE, {"motion_blend_factor"});
    testfx::expect_refused(e, g, {{"mmxv", "-1"}}, -ERANGE, {"motion_max_val"});
    testfx::expect_refused(e, g, {{"motion_five_frame_window", "true"}}, -EINVAL,
                           {"motion_five_frame_window"});
}

} // namespace
