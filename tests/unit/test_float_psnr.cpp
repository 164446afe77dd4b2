// float_psnr tests (docs/float_psnr.md §1-§2, §6): the table entry, libvmaf's
// goldens bit for bit, the cap per bit depth, hand-made frames. Built for the
// CPU (suite unit) and the GPU (suite gpu, TEST_BACKEND).
//
// Map:
//   FloatPsnrEntry.*  the table entry: name, no options, the GPU host side
//   FloatPsnrGolden.* every frame of the .float goldens (8 and 10 bits, 4:2:0,
//                     4:2:2, 4:4:4, identical frames) and of the 12-, 16-bit
//                     and 3x3 ones, with 1 and 3 threads
//   FloatPsnrFrames.* the cap and 0 dB at every depth, libvmaf's 1x1 value
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "extractors/float_psnr/float_psnr.h"
#include "tests/common/float_small.h"

using namespace vmafhip;

namespace {

// ---------------------------------------------------------------------------

TEST(FloatPsnrEntry, TableRow)
{
    EXPECT_STREQ(float_psnr_extractor.name, "float_psnr");
    testfx::expect_entry(float_psnr_extractor, "float_psnr", Geometry{1, 1, 8, VMAFHIP_CHROMA_420},
                         {"float_psnr"});
}

TEST(FloatPsnrEntry, GpuHostSide)
{
    // §6: no constants; the luma of both pictures and the terms as floats,
    // then the ordered sum's records.
    testfx::expect_gpu_host_side(float_psnr_extractor, Geometry{1920, 1080, 10, VMAFHIP_CHROMA_420},
                                 0, 3);
}

TEST(FloatPsnrEntry, EveryFormatAndSize)
{
    for (const VmafHipChroma c : {VMAFHIP_CHROMA_400, VMAFHIP_CHROMA_420, VMAFHIP_CHROMA_422,
                                  VMAFHIP_CHROMA_444})
        for (int bpc : {8, 10, 12, 16})
            EXPECT_TRUE(testfx::accepted(float_psnr_extractor, Geometry{1, 1, bpc, c}));
}

// ---------------------------------------------------------------------------

TEST(FloatPsnrGolden, EveryFrame)
{
    testfx::expect_every_golden("float_psnr", 1);
}

// ---------------------------------------------------------------------------

TEST(FloatPsnrFrames, CapAndZeroAtEveryDepth)
{
    // §2.2: identical pictures give the cap; one all at the maximum against
    // one all 0 has the peak as its error: 0 dB, but for the float32 square
    // of the 16-bit peak, which is inexact.
    const double cap[] = {60, 72, 84, 108};
    for (int i = 0; i < 4; i++) {
        const int bpc = testfx::kDepths[i];
        EXPECT_EQ(float_psnr_limits(bpc).psnr_max, cap[i]);
        const double peak = float_psnr_limits(bpc).peak;
        EXPECT_EQ(peak, ((1 << bpc) - 1) / double(1 << (bpc - 8)));
        const float peak_f = static_cast<float>(peak);
        const double zero_db = 10 * std::log10(peak * peak / static_cast<double>(peak_f * peak_f));
        EXPECT_EQ(zero_db == 0, bpc < 16);
        for (const auto &sz : {std::pair<int, int>{1, 1}, std::pair<int, int>{7, 5}}) {
            SCOPED_TRACE(std::to_string(bpc) + " bits");
            auto same = testfx::make_planes(sz.first, sz.second, bpc, testfx::Content::Max, 1);
            EXPECT_EQ(testfx::outputs_of("float_psnr", same.first, same.second)[0], cap[i]);
            auto opposite = testfx::make_planes(sz.first, sz.second, bpc, testfx::Content::Opposite, 1);
            EXPECT_EQ(testfx::outputs_of("float_psnr", opposite.first, opposite.second)[0], zero_db);
        }
    }
}

TEST(FloatPsnrFrames, OnePixel)
{
    // libvmaf 3.2 (vmaf_fullprec, --cpumask 63) on a 1x1 4:4:4 pair whose
    // luma samples are 68 and 48.
    auto p = testfx::make_planes(1, 1, 8, testfx::Content::Zero, 1);
    p.first.stored[0] = 68;
    p.second.stored[0] = 48;
    EXPECT_EQ(testfx::outputs_of("float_psnr", p.first, p.second)[0], 22.11020369539948);
}

} // namespace
