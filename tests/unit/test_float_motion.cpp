// float_motion tests (docs/float_motion.md): the table entry, libvmaf's
// goldens bit for bit, the options against libvmaf's values, short streams,
// the sizes it refuses. Built for the CPU (suite unit) and the GPU (suite
// gpu, TEST_BACKEND).
//
// Map:
//   FloatMotionEntry.*    the table entry: name, options, provided features,
//                         names, look-behind and look-ahead, the GPU host
//                         side
//   FloatMotionGolden.*   every frame of the six .float goldens, with 1 and
//                         3 threads
//   FloatMotionOptions.*  each option, one- and two-frame streams, 12 and 16
//                         bits and the smallest sizes against libvmaf's values
//                         (tests/fixtures/make_float_motion_goldens.sh)
//   FloatMotionRefusals.* bit depths, sizes, motion_add_uv's formats, option
//                         ranges
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
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
    // A GPU implementation wherever the build has a GPU platform (as psnr).
    EXPECT_EQ(e.gpu != nullptr, find_extractor("psnr")->gpu != nullptr);
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
    // The models' names (vmaf_float_v0.6.1 and its kin).
    for (const char *n : {"motion", "motion2", "motion3"}) {
        const std::string f = std::string("VMAF_feature_") + n + "_score";
        EXPECT_EQ(find_provider(f), &e) << f;
        EXPECT_EQ(provided_output_name(e, f, "_mfw_2.5"), std::string(n) + "_mfw_2.5");
    }
    const std::vector<std::string> want = {"debug", "motion_force_zero", "motion_fps_weight",
                                           "motion_blend_factor", "motion_blend_offset",
                                           "motion_add_scale1", "motion_filter_size",
                                           "motion_add_uv", "motion_max_val"};
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

    // motion_add_uv reads the chroma planes, the previous frame's too (§3.3).
    EXPECT_EQ(testfx::extractor<FloatMotion>("float_motion", g)->planes(), 1);
    EXPECT_FALSE(testfx::extractor<FloatMotion>("float_motion", g)->lookbehind_chroma());
    names.clear();
    late.clear();
    m = testfx::extractor<FloatMotion>("float_motion=motion_add_scale1=true:motion_add_uv=true", g);
    m->names(&names);
    m->late_names(&late);
    EXPECT_EQ(names, std::vector<std::string>{"motion_mdc_mau"});
    EXPECT_EQ(late, (std::vector<std::string>{"motion2_mdc_mau", "motion3_mdc_mau"}));
    EXPECT_EQ(m->planes(), 3);
    EXPECT_TRUE(m->lookbehind_chroma());
    m = testfx::extractor<FloatMotion>("float_motion=motion_add_uv=true:motion_force_zero=true", g);
    EXPECT_FALSE(m->lookbehind_chroma()); // nothing is computed
}

/// The constants of instance e, filled by its GpuImpl.
std::vector<uint8_t> constants_of(const GpuImpl &gpu, const Extractor &e)
{
    std::vector<uint8_t> c(gpu.constants_bytes(e));
    gpu.fill_constants(e, c.data());
    return c;
}

/// Whether the n 4-byte values of v stand in c at byte offset off.
template <typename T> bool holds(const std::vector<uint8_t> &c, size_t off, const std::vector<T> &v)
{
    return off + sizeof(T) * v.size() <= c.size() &&
           !std::memcmp(c.data() + off, v.data(), sizeof(T) * v.size());
}

TEST(FloatMotionEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = float_motion_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    const Geometry g{1920, 1080, 10, VMAFHIP_CHROMA_420};
    const size_t plane = sizeof(float) * 1920 * 1080;

    // The taps only; three float planes (two pictures, the vertical pass)
    // and the row sums, each aligned.
    auto m = testfx::extractor<FloatMotion>("float_motion", g);
    std::vector<uint8_t> c = constants_of(*gpu, *m);
    ASSERT_EQ(c.size(), 5 * sizeof(float));
    EXPECT_TRUE(holds(c, 0, m->blur_taps()));
    EXPECT_GE(gpu->workspace_bytes(*m), 3 * plane + sizeof(float) * 1080);
    EXPECT_LT(gpu->workspace_bytes(*m), 3 * plane + sizeof(float) * 1080 + 4096);

    m = testfx::extractor<FloatMotion>("float_motion=mfs=3", g);
    c = constants_of(*gpu, *m);
    ASSERT_EQ(c.size(), 3 * sizeof(float));
    EXPECT_TRUE(holds(c, 0, m->blur_taps()));

    // motion_add_scale1: the taps, then the bilinear tables (two source
    // columns per half-size column, two rows per row), and two half-size
    // planes and their row sums more.
    m = testfx::extractor<FloatMotion>("float_motion=mdc=true", g);
    const Resampling &r = m->half(0);
    ASSERT_EQ(r.sw, 960);
    ASSERT_EQ(r.sh, 540);
    c = constants_of(*gpu, *m);
    const size_t xi = 5 * 4, xw = xi + 2 * 960 * 4, yi = xw + 2 * 960 * 4, yw = yi + 2 * 540 * 4;
    ASSERT_EQ(c.size(), yw + 2 * 540 * 4);
    EXPECT_TRUE(holds(c, 0, m->blur_taps()));
    EXPECT_TRUE(holds(c, xi, r.ax.idx));
    EXPECT_TRUE(holds(c, xw, r.ax.w));
    EXPECT_TRUE(holds(c, yi, r.ay.idx));
    EXPECT_TRUE(holds(c, yw, r.ay.w));
    const size_t half = sizeof(float) * 960 * 540;
    EXPECT_GE(gpu->workspace_bytes(*m), 3 * plane + 2 * half + sizeof(float) * (1080 + 540));
    EXPECT_LT(gpu->workspace_bytes(*m), 3 * plane + 2 * half + sizeof(float) * (1080 + 540) + 8192);

    // motion_add_uv with motion_add_scale1: the chroma planes' tables
    // (480x270 to 240x135) follow the luma's; the workspace stays the luma's.
    m = testfx::extractor<FloatMotion>("float_motion=mdc=true:mau=true", g);
    const Resampling &rc = m->half(1);
    ASSERT_EQ(rc.sw, 480);
    ASSERT_EQ(rc.sh, 270);
    EXPECT_EQ(&m->half(2), &rc);
    c = constants_of(*gpu, *m);
    const size_t cxi = yw + 2 * 540 * 4, cxw = cxi + 2 * 480 * 4, cyi = cxw + 2 * 480 * 4,
                 cyw = cyi + 2 * 270 * 4;
    ASSERT_EQ(c.size(), cyw + 2 * 270 * 4);
    EXPECT_TRUE(holds(c, xi, m->half(0).ax.idx));
    EXPECT_TRUE(holds(c, cxi, rc.ax.idx));
    EXPECT_TRUE(holds(c, cxw, rc.ax.w));
    EXPECT_TRUE(holds(c, cyi, rc.ay.idx));
    EXPECT_TRUE(holds(c, cyw, rc.ay.w));
    EXPECT_LT(gpu->workspace_bytes(*m), 3 * plane + 2 * half + sizeof(float) * (1080 + 540) + 8192);

    // motion_force_zero computes nothing.
    m = testfx::extractor<FloatMotion>("float_motion=motion_force_zero=true", g);
    EXPECT_EQ(gpu->workspace_bytes(*m), 0u);
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
    {N4, 8, C422, 4, "mau", "float_motion=motion_add_uv=true", 0, 3},
    {N4, 8, C422, 4, "mdc_mau", "float_motion=motion_add_scale1=true:motion_add_uv=true", 0, 3},
    {N4, 8, C422, 4, "mfs_3_mdc_mau",
     "float_motion=motion_add_scale1=true:motion_filter_size=3:motion_add_uv=true", 0, 3},
    {"natural1_576x324_yuv420p", 8, VMAFHIP_CHROMA_420, 10, "mdc_mau",
     "float_motion=motion_add_scale1=true:motion_add_uv=true", 0, 3},
    {"natural2_352x288_yuv420p10le", 10, VMAFHIP_CHROMA_420, 6, "mau",
     "float_motion=motion_add_uv=true", 0, 3},
    {"natural5_176x144_yuv444p", 8, VMAFHIP_CHROMA_444, 4, "mdc_mau",
     "float_motion=motion_add_scale1=true:motion_add_uv=true", 0, 3},
    {"motion_24x16_yuv420p", 8, VMAFHIP_CHROMA_420, 10, "mdc_mau",
     "float_motion=motion_add_scale1=true:motion_add_uv=true", 0, 3},
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

TEST(FloatMotionRefusals, ChromaPlanes)
{
    // §5: motion_add_uv needs chroma planes the blur can mirror in.
    const ExtractorInfo &e = float_motion_extractor;
    testfx::expect_refused(e, Geometry{64, 64, 8, VMAFHIP_CHROMA_400}, {{"mau", "true"}}, -EINVAL,
                           {"motion_add_uv", "4:0:0", "4:2:0, 4:2:2 or 4:4:4"});
    EXPECT_TRUE(testfx::accepted(e, Geometry{64, 64, 8, VMAFHIP_CHROMA_400}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{6, 6, 8, VMAFHIP_CHROMA_420}, {{"mau", "true"}}));
    testfx::expect_refused(e, Geometry{5, 6, 8, VMAFHIP_CHROMA_420}, {{"mau", "true"}}, -ERANGE,
                           {"motion_add_uv", "2x3", "at least 3x3"});
    testfx::expect_refused(e, Geometry{5, 6, 8, VMAFHIP_CHROMA_422}, {{"mau", "true"}}, -ERANGE,
                           {"motion_add_uv", "2x6"});
    EXPECT_TRUE(testfx::accepted(e, Geometry{6, 5, 8, VMAFHIP_CHROMA_422}, {{"mau", "true"}}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{4, 4, 8, VMAFHIP_CHROMA_420},
                                 {{"mau", "true"}, {"mfs", "3"}}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{3, 3, 8, VMAFHIP_CHROMA_444}, {{"mau", "true"}}));
}

TEST(FloatMotionRefusals, Options)
{
    const ExtractorInfo &e = float_motion_extractor;
    const Geometry g{64, 64, 8, VMAFHIP_CHROMA_420};
    testfx::expect_refused(e, g, {{"mfs", "10"}}, -ERANGE, {"motion_filter_size", "0 to 9"});
    testfx::expect_refused(e, g, {{"mfw", "5.5"}}, -ERANGE, {"motion_fps_weight"});
    testfx::expect_refused(e, g, {{"mbf", "1.5"}}, -ERANGE, {"motion_blend_factor"});
    testfx::expect_refused(e, g, {{"mmxv", "-1"}}, -ERANGE, {"motion_max_val"});
    testfx::expect_refused(e, g, {{"motion_five_frame_window", "true"}}, -EINVAL,
                           {"motion_five_frame_window"});
}

} // namespace
