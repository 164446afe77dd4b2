// float_vif tests (docs/float_vif.md): the table entry, libvmaf's goldens bit
// for bit, the options against libvmaf's values, the sizes it refuses.
//
// Map:
//   FloatVifEntry.*    the table entry: name, options, provided features, no GPU
//   FloatVifGolden.*   every frame of the six .float goldens, default and with
//                      vif_enhn_gain_limit 1, with 1 and 3 threads
//   FloatVifOptions.*  each option's values against libvmaf's (the
//                      .float_vif_opts goldens), 12 and 16 bits
//   FloatVifRefusals.* bit depths, kernel scales, sizes
#include <gtest/gtest.h>

#include <cerrno>
#include <string>
#include <vector>

#include "extractors/float_vif/float_vif.h"
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

TEST(FloatVifEntry, TableRow)
{
    const ExtractorInfo &e = float_vif_extractor;
    EXPECT_STREQ(e.name, "float_vif");
    EXPECT_EQ(find_extractor("float_vif"), &e);
    EXPECT_EQ(e.gpu, nullptr);
    EXPECT_NE(std::string(e.help).find("CPU only"), std::string::npos);
    // The models' names (vmaf_float_v0.6.1 and its kin).
    for (int s = 0; s < 4; s++) {
        const std::string f = "VMAF_feature_vif_scale" + std::to_string(s) + "_score";
        EXPECT_EQ(find_provider(f), &e) << f;
        EXPECT_EQ(provided_output_name(e, f, "_egl_1"), "vif_scale" + std::to_string(s) + "_egl_1");
    }
    const std::vector<std::string> want = {"debug", "vif_enhn_gain_limit", "vif_kernelscale",
                                           "vif_prescale", "vif_scale1_min_val",
                                           "vif_scale2_min_val", "vif_scale3_min_val",
                                           "vif_prescale_method", "vif_sigma_nsq",
                                           "vif_skip_scale0"};
    ASSERT_EQ(e.n_options, static_cast<int>(want.size()));
    for (int i = 0; i < e.n_options; i++)
        EXPECT_EQ(e.options[i].name, want[static_cast<size_t>(i)]);
}

TEST(FloatVifEntry, Names)
{
    std::vector<std::string> names;
    testfx::extractor<FloatVif>("float_vif", Geometry{64, 64, 8, VMAFHIP_CHROMA_420})->names(&names);
    EXPECT_EQ(names, (std::vector<std::string>{"vif_scale0", "vif_scale1", "vif_scale2",
                                               "vif_scale3"}));
    names.clear();
    testfx::extractor<FloatVif>("float_vif=debug=true:vif_skip_scale0=true:vif_kernelscale=1.5",
                                Geometry{64, 64, 8, VMAFHIP_CHROMA_420})
        ->names(&names);
    ASSERT_EQ(names.size(), 15u);
    EXPECT_EQ(names[0], "vif_scale0_ks_1.5_ssclz");
    EXPECT_EQ(names[4], "vif_ks_1.5_ssclz");
    EXPECT_EQ(names[14], "vif_den_scale3_ks_1.5_ssclz");
}

TEST(FloatVifEntry, GpuBackendRefusesIt)
{
    testfx::expect_gpu_backend_refuses("float_vif");
}

// ---------------------------------------------------------------------------

TEST(FloatVifGolden, EveryFrame)
{
    // 8 and 10 bits, 4:2:0, 4:2:2 and 4:4:4, identical frames: 44 frames in all.
    EXPECT_EQ(testfx::compare_float_goldens("float_vif", 4), 2 * 4 * 44);
}

TEST(FloatVifGolden, GainLimitOne)
{
    EXPECT_EQ(testfx::compare_float_goldens("float_vif=vif_enhn_gain_limit=1", 4), 2 * 4 * 44);
}

} // namespace
