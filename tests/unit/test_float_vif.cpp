// float_vif tests (docs/float_vif.md): the table entry, libvmaf's goldens bit
// for bit, the options against libvmaf's values, the sizes it refuses. Built
// for the CPU (suite unit) and the GPU (suite gpu, TEST_BACKEND).
//
// Map:
//   FloatVifEntry.*    the table entry: name, options, provided features, the
//                      GPU host side (or, built without GPU code, the refusal)
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
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
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

TEST(FloatVifEntry, GpuBackendRefusesItWithoutGpuCode)
{
    if (float_vif_extractor.gpu)
        GTEST_SKIP() << "built with a GPU platform";
    testfx::expect_gpu_backend_refuses("float_vif");
}

TEST(FloatVifEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = float_vif_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    const auto floats_of = [](size_t n) { return n * sizeof(float); };
    {
        // No prescale: the taps of the four scales only (17, 9, 5 and 3).
        const auto e = testfx::extractor<FloatVif>("float_vif", Geometry{576, 324, 10, VMAFHIP_CHROMA_420});
        EXPECT_EQ(gpu->constants_bytes(*e), floats_of(17 + 9 + 5 + 3));
        std::vector<float> c(gpu->constants_bytes(*e) / sizeof(float));
        gpu->fill_constants(*e, c.data());
        const FloatVifPlan &p = e->plan();
        EXPECT_EQ(std::vector<float>(c.begin(), c.begin() + 17), p.filter[0]);
        EXPECT_EQ(std::vector<float>(c.end() - 3, c.end()), p.filter[3]);
        // Both pictures at 576x324, 288x162, 144x81 and 72x40; the five
        // vertical passes, num and den at scale 0; two sums per row; each
        // part 256-byte aligned.
        const size_t n0 = 576 * 324;
        const size_t want = floats_of(2 * (n0 + 288 * 162 + 144 * 81 + 72 * 40) + 7 * n0 + 2 * 324);
        EXPECT_GE(gpu->workspace_bytes(*e), want);
        EXPECT_LT(gpu->workspace_bytes(*e), want + 14 * 256);
        EXPECT_NE(gpu->enqueue, nullptr);
    }
    {
        // vif_prescale 0.5, bilinear: 288x162 at scale 0; the taps, then the
        // columns' and rows' sources and weights, two per scaled sample.
        const auto e = testfx::extractor<FloatVif>("float_vif=vif_prescale=0.5:vif_prescale_method=bilinear",
                                                   Geometry{576, 324, 8, VMAFHIP_CHROMA_420});
        EXPECT_EQ(gpu->constants_bytes(*e), floats_of(34 + 2 * 2 * 288 + 2 * 2 * 162));
        std::vector<float> c(gpu->constants_bytes(*e) / sizeof(float));
        gpu->fill_constants(*e, c.data());
        const Resampling &rs = e->plan().rs;
        EXPECT_EQ(std::vector<float>(c.begin() + 34 + 2 * 288, c.begin() + 34 + 4 * 288), rs.ax.w);
        EXPECT_EQ(std::vector<float>(c.end() - 2 * 162, c.end()), rs.ay.w);
        const size_t n0 = 288 * 162;
        const size_t want = floats_of(2 * (n0 + 144 * 81 + 72 * 40 + 36 * 20) + 7 * n0 + 2 * 162);
        EXPECT_GE(gpu->workspace_bytes(*e), want);
        EXPECT_LT(gpu->workspace_bytes(*e), want + 14 * 256);
    }
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
