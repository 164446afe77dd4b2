// float_ansnr tests (docs/float_psnr.md §1, §3, §6): the table entry,
// libvmaf's goldens bit for bit, the smallest size, hand-made frames. Built
// for the CPU (suite unit) and the GPU (suite gpu, TEST_BACKEND).
//
// Map:
//   FloatAnsnrEntry.*    the table entry: name, no options, names, the GPU
//                        host side and its constants (the taps)
//   FloatAnsnrGolden.*   every frame of the .float goldens (identical frames
//                        are finite: the two filters differ) and of the
//                        12-, 16-bit and 3x3 ones, with 1 and 3 threads
//   FloatAnsnrRefusals.* frames below 3x3
//   FloatAnsnrFrames.*   flat pictures: no noise, the caps
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "extractors/float_ansnr/float_ansnr.h"
#include "kernels/float_picture/float_picture_ops.h"
#include "tests/common/extractors.h"
#include "tests/common/float_small.h"

using namespace vmafhip;

namespace {

// ---------------------------------------------------------------------------

TEST(FloatAnsnrEntry, TableRow)
{
    const ExtractorInfo &e = float_ansnr_extractor;
    EXPECT_STREQ(e.name, "float_ansnr");
    testfx::expect_entry(e, "float_ansnr", Geometry{3, 3, 8, VMAFHIP_CHROMA_444},
                         {"float_ansnr", "float_anpsnr"});
    EXPECT_EQ(find_provider("float_anpsnr"), nullptr); // not in libvmaf's provided_features
}

TEST(FloatAnsnrEntry, GpuHostSide)
{
    // §6: the taps as constants; both pictures' luma and both filtered
    // planes as floats, then a float per row for each of the two sums.
    testfx::expect_gpu_host_side(float_ansnr_extractor, Geometry{3840, 2160, 12, VMAFHIP_CHROMA_420},
                                 sizeof(AnsnrTaps), 4);
}

TEST(FloatAnsnrEntry, GpuConstantsAreTheCpuTaps)
{
    const GpuImpl *gpu = float_ansnr_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    const auto e = testfx::extractor<FloatAnsnr>("float_ansnr", Geometry{3, 3, 8, VMAFHIP_CHROMA_444});
    std::vector<unsigned char> host(gpu->constants_bytes(*e), 0xa5);
    gpu->fill_constants(*e, host.data());
    const AnsnrTaps taps = ansnr_taps();
    ASSERT_EQ(host.size(), sizeof taps);
    EXPECT_EQ(std::memcmp(host.data(), &taps, sizeof taps), 0);
}

TEST(FloatAnsnrEntry, Taps)
{
    // §3.1: weight / divisor rounded to float32; the middle taps.
    const AnsnrTaps t = ansnr_taps();
    EXPECT_EQ(t.ref[4], 0.25f);
    EXPECT_EQ(t.ref[0], 0.0625f);
    EXPECT_EQ(t.dis[12], static_cast<float>(127 / 571.0));
    EXPECT_EQ(t.dis[0], static_cast<float>(2 / 571.0));
}

// ---------------------------------------------------------------------------

TEST(FloatAnsnrGolden, EveryFrame)
{
    testfx::expect_every_golden("float_ansnr", 2);
}

// ---------------------------------------------------------------------------

TEST(FloatAnsnrRefusals, BelowThreeByThree)
{
    const ExtractorInfo &e = float_ansnr_extractor;
    for (const Geometry &g : {Geometry{2, 3, 8, VMAFHIP_CHROMA_444}, Geometry{3, 2, 10, VMAFHIP_CHROMA_444},
                              Geometry{1, 1, 8, VMAFHIP_CHROMA_420}, Geometry{2, 2, 16, VMAFHIP_CHROMA_420}})
        testfx::expect_refused(e, g, {}, -ERANGE, {"float_ansnr", "at least 3"});
    EXPECT_TRUE(testfx::accepted(e, Geometry{3, 3, 16, VMAFHIP_CHROMA_444}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{4, 4, 12, VMAFHIP_CHROMA_420}));
}

// ---------------------------------------------------------------------------

TEST(FloatAnsnrFrames, FlatPictures)
{
    // §3.5: all-0 pictures are -128 everywhere after the offset; each
    // filter's float32 taps, added in libvmaf's order, come to exactly 1, so
    // both filtered planes are -128 too: no noise, and both outputs are the
    // cap (libvmaf writes psnr_max for the SNR when the noise is 0).
    for (int bpc : testfx::kDepths) {
        SCOPED_TRACE(std::to_string(bpc) + " bits");
        auto p = testfx::make_planes(6, 4, bpc, testfx::Content::Zero, 1);
        const std::vector<double> out = testfx::outputs_of("float_ansnr", p.first, p.second);
        const double cap = float_psnr_limits(bpc).psnr_max;
        EXPECT_EQ(out, (std::vector<double>{cap, cap}));
    }
}

} // namespace
