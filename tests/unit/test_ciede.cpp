// ciede tests (docs/ciede.md): the table entry, libvmaf's goldens bit for
// bit, the formats it takes. Built for the CPU (suite unit) and the GPU
// (suite gpu, TEST_BACKEND).
//
// Map:
//   CiedeEntry.*    the table entry: name, no options, the GPU host side
//   CiedeGolden.*   every frame of every golden with ciede2000 (8, 10 and 12
//                   bits, 4:2:0 and 4:4:4, identical frames), with 1 and 3
//                   threads
//   CiedeRefusals.* 4:0:0, 4:2:2, odd 4:2:0 sizes
//   CiedeColour.*   the colour arithmetic on known colours
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <string>
#include <vector>

#include "extractors/ciede/ciede.h"
#include "kernels/ciede/ciede_ops.h"
#include "extractors/powf_kind.h"
#include "tests/common/context.h"
#include "tests/common/ctc.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

// ---------------------------------------------------------------------------

TEST(CiedeEntry, TableRow)
{
    const ExtractorInfo &e = ciede_extractor;
    EXPECT_STREQ(e.name, "ciede");
    EXPECT_EQ(find_extractor("ciede"), &e);
    EXPECT_EQ(find_provider("ciede2000"), &e);
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
    EXPECT_EQ(e.n_options, 0); // libvmaf's ciede has none
    std::vector<std::string> names;
    testfx::extractor<Ciede>("ciede", Geometry{2, 2, 8, VMAFHIP_CHROMA_420})->names(&names);
    EXPECT_EQ(names, std::vector<std::string>{"ciede2000"});
}

TEST(CiedeEntry, GpuHostSide)
{
    // Set in builds with a GPU platform only; its host side needs no device.
    const GpuImpl *gpu = ciede_extractor.gpu;
    if (!gpu)
        GTEST_SKIP() << "built without a GPU platform";
    const auto e = testfx::extractor<Ciede>("ciede", Geometry{1920, 1080, 10, VMAFHIP_CHROMA_420});
    EXPECT_EQ(gpu->constants_bytes(*e), 0u);
    // a float per pixel, then the ordered sum's records (one per 1024 values)
    EXPECT_GE(gpu->workspace_bytes(*e), sizeof(float) * 1920 * 1080);
    EXPECT_LT(gpu->workspace_bytes(*e), sizeof(float) * 1920 * 1080 * 9 / 8);
}

// ---------------------------------------------------------------------------

TEST(CiedeGolden, CtcEveryFrame)
{
    EXPECT_EQ(testfx::compare_ctc_goldens("ciede", "ciede", 1), 2 * 48);
}

TEST(CiedeGolden, IdenticalFramesAreInfinite)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref");
    const testfx::Scored r = testfx::run_features(f, "ciede");
    ASSERT_EQ(r.frames.size(), 10u);
    for (const auto &frame : r.frames)
        EXPECT_EQ(frame[0], INFINITY);
}

// ---------------------------------------------------------------------------

TEST(CiedeRefusals, Formats)
{
    const ExtractorInfo &e = ciede_extractor;
    testfx::expect_refused(e, Geometry{64, 64, 8, VMAFHIP_CHROMA_400}, {}, -EINVAL,
                           {"ciede", "4:0:0"});
    testfx::expect_refused(e, Geometry{64, 64, 10, VMAFHIP_CHROMA_422}, {}, -EINVAL,
                           {"ciede", "4:2:2", "4:2:0 or 4:4:4"});
    for (const Geometry &g : {Geometry{65, 64, 8, VMAFHIP_CHROMA_420},
                              Geometry{64, 63, 8, VMAFHIP_CHROMA_420}})
        testfx::expect_refused(e, g, {}, -EINVAL, {"ciede", "even"});
    EXPECT_TRUE(testfx::accepted(e, Geometry{2, 2, 8, VMAFHIP_CHROMA_420}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{1, 1, 16, VMAFHIP_CHROMA_444}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{65, 63, 12, VMAFHIP_CHROMA_444}));
}

// ---------------------------------------------------------------------------

TEST(CiedeColour, KnownColours)
{
    // Limited-range black and white are L* 0 and 100 (to float rounding),
    // grey has no chroma, and equal colours differ by exactly 0.
    const CiedeLab black = ciede_lab(16, 128, 128, 8), white = ciede_lab(235, 128, 128, 8);
    EXPECT_NEAR(black.l, 0, 1e-4);
    EXPECT_NEAR(white.l, 100, 1e-3);
    EXPECT_EQ(white.a, 0);
    EXPECT_EQ(white.b, 0);
    EXPECT_EQ(ciede2000(white, white, host_powf_kind()), 0);
    // The same colour at 10 bits (values << 2) is the same L*a*b*.
    const CiedeLab w10 = ciede_lab(235 << 2, 128 << 2, 128 << 2, 10);
    EXPECT_EQ(w10.l, white.l);
    // Black to white: the lightness difference over kL * S_L.
    EXPECT_GT(ciede2000(black, white, host_powf_kind()), 100);
}

} // namespace
