// float_moment tests (docs/float_psnr.md §1, §4, §6): the table entry,
// libvmaf's goldens bit for bit, hand-made frames. Built for the CPU (suite
// unit) and the GPU (suite gpu, TEST_BACKEND).
//
// Map:
//   FloatMomentEntry.*  the table entry: name, provided feature, no options,
//                       names, the GPU host side
//   FloatMomentGolden.* every frame of the .float goldens and of the 12-,
//                       16-bit and 3x3 ones, with 1 and 3 threads
//   FloatMomentFrames.* the samples' scale at every depth, libvmaf's 1x1 values
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "extractors/float_moment/float_moment.h"
#include "tests/common/float_small.h"

using namespace vmafhip;

namespace {

// ---------------------------------------------------------------------------

TEST(FloatMomentEntry, TableRow)
{
    const ExtractorInfo &e = float_moment_extractor;
    EXPECT_STREQ(e.name, "float_moment");
    // libvmaf's provided_features holds the extractor's name alone (§4).
    testfx::expect_entry(e, "float_moment", Geometry{1, 1, 16, VMAFHIP_CHROMA_400},
                         {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                          "float_moment_dis2nd"});
    EXPECT_EQ(find_provider("float_moment_ref1st"), nullptr);
}

TEST(FloatMomentEntry, GpuHostSide)
{
    // §6: no constants; both pictures' luma and their squares as floats, then
    // the records of the four ordered sums.
    testfx::expect_gpu_host_side(float_moment_extractor, Geometry{1920, 1080, 8, VMAFHIP_CHROMA_420},
                                 0, 4);
}

// ---------------------------------------------------------------------------

TEST(FloatMomentGolden, EveryFrame)
{
    testfx::expect_every_golden("float_moment", 4);
}

// ---------------------------------------------------------------------------

TEST(FloatMomentFrames, MaximumAtEveryDepth)
{
    // §1: the maximum sample is (2^bpc - 1) / 2^(bpc - 8); its square is a
    // float32 product (inexact at 16 bits).
    for (int bpc : testfx::kDepths) {
        SCOPED_TRACE(std::to_string(bpc) + " bits");
        const float top = static_cast<float>(((1 << bpc) - 1) / double(1 << (bpc - 8)));
        auto p = testfx::make_planes(5, 3, bpc, testfx::Content::Opposite, 1);
        const std::vector<double> out = testfx::outputs_of("float_moment", p.first, p.second);
        EXPECT_EQ(out, (std::vector<double>{top, 0.0, top * top, 0.0}));
    }
}

TEST(FloatMomentFrames, OnePixel)
{
    // libvmaf 3.2 (vmaf_fullprec, --cpumask 63) on a 1x1 4:4:4 pair whose
    // luma samples are 68 and 48.
    auto p = testfx::make_planes(1, 1, 8, testfx::Content::Zero, 1);
    p.first.stored[0] = 68;
    p.second.stored[0] = 48;
    EXPECT_EQ(testfx::outputs_of("float_moment", p.first, p.second),
              (std::vector<double>{68, 48, 4624, 2304}));
}

} // namespace
