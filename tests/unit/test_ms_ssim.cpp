// float_ms_ssim tests (docs/ms_ssim.md): the table entry, libvmaf's goldens
// bit for bit, the options, the smallest size and bit depths. Built for the
// CPU (suite unit) and the GPU (suite gpu, TEST_BACKEND): the goldens hold
// on both.
//
// Map:
//   MsSsimEntry.*   the table entry: options, names, the GPU host side
//   MsSsimGolden.*  every frame of every golden with float_ms_ssim (8, 10 and
//                   12 bits, 4:2:0, 4:2:2, 4:4:4, the smallest size), with 1
//                   and 3 threads; enable_lcs, enable_db, clip_db
//   MsSsimSizes.*   176x176 accepted, one less in either dimension refused
//   MsSsimDepths.*  16 bits against 8 (an exact rescaling)
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <string>
#include <vector>

#include "extractors/ms_ssim/ms_ssim.h"
#include "extractors/options.h"
#include "tests/common/context.h"
#include "tests/common/ctc.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

const char MIN_PAIR[] = "minsize_ms_ssim_176x176_yuv420p__ref_vs_x264crf38";
const char NATURAL1[] = "natural1_576x324_yuv420p__ref_vs_mpeg2q28";

/// float_ms_ssim* of golden/<pair>.<kind>.fullprec.json against a run of features.
int compare_pair(const testfx::Fixture &f, const std::string &kind, const std::string &features,
                 int threads = 0)
{
    return testfx::compare_golden_values(testfx::run_features(f, features, threads),
                                         "golden/" + f.name + "." + kind + ".fullprec.json",
                                         "float_ms_ssim");
}

// ---------------------------------------------------------------------------

TEST(MsSsimEntry, TableRow)
{
    const ExtractorInfo &e = ms_ssim_extractor;
    EXPECT_STREQ(e.name, "float_ms_ssim");
    EXPECT_EQ(find_extractor("float_ms_ssim"), &e);
    EXPECT_EQ(find_provider("float_ms_ssim"), &e);
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
    EXPECT_EQ(e.min_w, 176);
    EXPECT_EQ(e.min_h, 176);
    ASSERT_EQ(e.n_options, 3);
    for (const char *name : {"enable_lcs", "enable_db", "clip_db"}) {
        const OptionSpec *o = find_option(e, name);
        ASSERT_NE(o, nullptr) << name;
        EXPECT_EQ(o->type, OptionType::Bool) << name;
        EXPECT_EQ(o->def, 0) << name;
        EXPECT_FALSE(o->in_name) << name; // the outputs keep their names
    }
}

TEST(MsSsimEntry, Names)
{
    const Geometry g{576, 324, 8, VMAFHIP_CHROMA_420};
    std::vector<std::string> names;
    testfx::extractor<MsSsim>("float_ms_ssim=enable_db=true", g)->names(&names);
    EXPECT_EQ(names, std::vector<std::string>{"float_ms_ssim"});
    names.clear();
    testfx::extractor<MsSsim>("float_ms_ssim=enable_lcs=true", g)->names(&names);
    ASSERT_EQ(names.size(), 16u);
    EXPECT_EQ(names[0], "float_ms_ssim");
    EXPECT_EQ(names[1], "float_ms_ssim_l_scale0");
    EXPECT_EQ(names[5], "float_ms_ssim_l_scale4");
    EXPECT_EQ(names[6], "float_ms_ssim_c_scale0");
    EXPECT_EQ(names[15], "float_ms_ssim_s_scale4");
}

TEST(MsSsimEntry, ScaleSizes)
{
    // Each scale n / 2 + (n & 1) of the one before (§3).
    const MsSsimSizes s = MsSsim::sizes(577, 176);
    const int w[] = {577, 289, 145, 73, 37}, h[] = {176, 88, 44, 22, 11};
    for (int i = 0; i < MS_SSIM_SCALES; i++) {
        EXPECT_EQ(s.w[i], w[i]) << i;
        EXPECT_EQ(s.h[i], h[i]) << i;
    }
}

TEST(MsSsimEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = ms_ssim_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    const auto e = testfx::extractor<MsSsim>("float_ms_ssim", Geometry{1920, 1080, 10,
                                                                         VMAFHIP_CHROMA_420});
    EXPECT_EQ(gpu->constants_bytes(*e), 0u);
    // The float planes of scales 1 and 2 (960x540, 480x270; ref and dis) at least.
    EXPECT_GE(gpu->workspace_bytes(*e), 2 * sizeof(float) * (960 * 540 + 480 * 270));
    EXPECT_LT(gpu->workspace_bytes(*e), 2 * sizeof(float) * 1920 * 1080);
}

// ---------------------------------------------------------------------------

TEST(MsSsimGolden, CtcEveryFrame)
{
    EXPECT_EQ(testfx::compare_ctc_goldens("float_ms_ssim", "float_ms_ssim", 1), 2 * 50);
}

TEST(MsSsimGolden, Options)
{
    const testfx::Fixture &f = testfx::fixture(NATURAL1);
    EXPECT_EQ(compare_pair(f, "ms_ssim_lcs", "float_ms_ssim=enable_lcs=true"), 16 * 10);
    EXPECT_EQ(compare_pair(f, "ms_ssim_db", "float_ms_ssim=enable_db=true"), 10);
    EXPECT_EQ(compare_pair(f, "ms_ssim_clip_db", "float_ms_ssim=enable_db=true:clip_db=true"), 10);
    // clip_db alone changes nothing.
    EXPECT_EQ(compare_pair(f, "ctc", "float_ms_ssim=clip_db=true"), 10);
}

TEST(MsSsimGolden, IdenticalFramesInDb)
{
    // ms_ssim is exactly 1: +inf dB (libvmaf's log: null), or the cap of
    // clip_db, 10 log10(255^2 / (0.5 / (576 * 324))) rounded up: 104.
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref");
    const testfx::Scored db = testfx::run_features(f, "float_ms_ssim=enable_db=true");
    ASSERT_EQ(db.frames.size(), 10u);
    for (const auto &frame : db.frames)
        EXPECT_EQ(frame[0], INFINITY);
    EXPECT_EQ(compare_pair(f, "ms_ssim_db", "float_ms_ssim=enable_db=true"), 10);
    const testfx::Scored clipped = testfx::run_features(f, "float_ms_ssim=enable_db=true:clip_db=true");
    for (const auto &frame : clipped.frames)
        EXPECT_EQ(frame[0], 104);
    EXPECT_EQ(compare_pair(f, "ms_ssim_clip_db", "float_ms_ssim=enable_db=true:clip_db=true"), 10);
}

// ---------------------------------------------------------------------------

TEST(MsSsimSizes, SmallestAcceptedOneLessRefused)
{
    // libvmaf: "error: scale below 1x1!" on every frame below 176x176.
    EXPECT_TRUE(testfx::accepted(ms_ssim_extractor, Geometry{176, 176, 8, VMAFHIP_CHROMA_420}));
    for (const Geometry &g : {Geometry{175, 176, 8, VMAFHIP_CHROMA_420},
                              Geometry{176, 175, 8, VMAFHIP_CHROMA_420},
                              Geometry{176, 144, 8, VMAFHIP_CHROMA_422},
                              Geometry{4096, 100, 10, VMAFHIP_CHROMA_444}})
        testfx::expect_refused(ms_ssim_extractor, g, {}, -ERANGE,
                               {"float_ms_ssim", std::to_string(g.w) + "x" + std::to_string(g.h),
                                "at least 176"});
}

TEST(MsSsimSizes, RefusedWhenTheContextOpens)
{
    VmafHipSettings s = testfx::settings(176, 144, 8, VMAFHIP_CHROMA_420, "float_ms_ssim");
    testfx::LogLines log;
    EXPECT_EQ(testfx::try_open(s, &log), -ERANGE);
    const std::string msg = vmafhip_last_error(nullptr);
    EXPECT_NE(msg.find("at least 176"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------

TEST(MsSsimDepths, SixteenBitsShiftedEqualEightBits)
{
    // v << 8 at 16 bits normalises to exactly v (docs/ssim.md §2).
    const testfx::Fixture f8 = testfx::pair(MIN_PAIR, 8, VMAFHIP_CHROMA_420, 3);
    const testfx::Clip ref(f8.ref, f8.w, f8.h, 8, f8.chroma), dis(f8.dis, f8.w, f8.h, 8, f8.chroma);
    VmafHipSettings s = testfx::settings(f8.w, f8.h, 16, f8.chroma, "float_ms_ssim=enable_lcs=true");
    const testfx::Ctx ctx = testfx::open_ctx(s);
    ASSERT_TRUE(ctx);
    const size_t luma = static_cast<size_t>(f8.w) * f8.h;
    std::vector<uint16_t> r16(luma), d16(luma);
    for (int i = 0; i < ref.frames(); i++) {
        for (size_t k = 0; k < luma; k++) {
            r16[k] = static_cast<uint16_t>(ref.frame_data(i)[k] << 8);
            d16[k] = static_cast<uint16_t>(dis.frame_data(i)[k] << 8);
        }
        VmafHipPicture r = {}, d = {};
        r.data[0] = reinterpret_cast<const uint8_t *>(r16.data());
        d.data[0] = reinterpret_cast<const uint8_t *>(d16.data());
        r.stride[0] = d.stride[0] = 2 * f8.w;
        // chroma is not read: luma only
        r.data[1] = r.data[2] = d.data[1] = d.data[2] = r.data[0];
        r.stride[1] = r.stride[2] = d.stride[1] = d.stride[2] = r.stride[0];
        ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), i) << vmafhip_last_error(ctx.get());
    }
    ASSERT_EQ(vmafhip_flush(ctx.get()), 0);
    const testfx::Scored eight = testfx::run_features(f8, "float_ms_ssim=enable_lcs=true");
    for (int i = 0; i < ref.frames(); i++) {
        const double *v = nullptr;
        ASSERT_EQ(vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(i), 1, &v), 0);
        for (size_t k = 0; k < eight.names.size(); k++)
            EXPECT_EQ(testfx::bits(v[k]), testfx::bits(eight.frames[i][k])) << eight.names[k];
    }
}

} // namespace
