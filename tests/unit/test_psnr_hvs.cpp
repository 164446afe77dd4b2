// psnr_hvs tests (docs/psnr_hvs.md): the table entry, libvmaf's goldens bit
// for bit, the formats and sizes it takes. Built for the CPU (suite unit) and
// the GPU (suite gpu, TEST_BACKEND): every golden is compared bit for bit on
// the backend under test.
//
// Map:
//   PsnrHvsEntry.*   the table entry: names, no options, the GPU host side
//   PsnrHvsGolden.*  every frame of every golden with psnr_hvs (8, 10 and 12
//                    bits, 4:2:0, 4:2:2, 4:4:4, identical frames), with 1 and
//                    3 threads; an odd size against libvmaf's library
//   PsnrHvsRefusals.* 4:0:0, 16 bits, planes smaller than a block
//   PsnrHvsDct.*     the integer DCT on known blocks
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "extractors/psnr/psnr.h"
#include "extractors/psnr_hvs/psnr_hvs.h"
#include "tests/common/context.h"
#include "tests/common/ctc.h"
#include "tests/common/extractors.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

using namespace vmafhip;

namespace {

// ---------------------------------------------------------------------------

TEST(PsnrHvsEntry, TableRow)
{
    const ExtractorInfo &e = psnr_hvs_extractor;
    EXPECT_STREQ(e.name, "psnr_hvs");
    EXPECT_EQ(find_extractor("psnr_hvs"), &e);
    for (const char *f : {"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"})
        EXPECT_EQ(find_provider(f), &e) << f;
    EXPECT_EQ(std::string(e.help).find("CPU only"), std::string::npos);
    EXPECT_EQ(e.n_options, 0); // libvmaf's psnr_hvs has none
    EXPECT_EQ(e.bit_depths, bit_depth(8) | bit_depth(10) | bit_depth(12));
    std::vector<std::string> names;
    testfx::extractor<PsnrHvs>("psnr_hvs", Geometry{64, 64, 8, VMAFHIP_CHROMA_420})->names(&names);
    EXPECT_EQ(names, (std::vector<std::string>{"psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs"}));
}

TEST(PsnrHvsEntry, GpuHostSide)
{
    const ExtractorInfo &e = psnr_hvs_extractor;
    // A GPU build is one with psnr's GPU implementation: psnr_hvs has one there.
    EXPECT_EQ(e.gpu != nullptr, psnr_extractor.gpu != nullptr);
    if (!e.gpu)
        GTEST_SKIP() << "built without a GPU platform";
    // The constants: the three planes' weights, the CPU code's (§4.1).
    const auto x = testfx::extractor<PsnrHvs>("psnr_hvs", Geometry{97, 61, 8, VMAFHIP_CHROMA_420});
    ASSERT_EQ(e.gpu->constants_bytes(*x), 3 * sizeof(PsnrHvsWeights));
    std::vector<PsnrHvsWeights> w(3);
    e.gpu->fill_constants(*x, w.data());
    for (int p = 0; p < 3; p++) {
        const PsnrHvsWeights want = psnr_hvs_weights(p);
        for (int k = 0; k < PSNR_HVS_TERMS; k++) {
            EXPECT_EQ(testfx::bits(w[p].csf[k]), testfx::bits(want.csf[k])) << p << " " << k;
            EXPECT_EQ(testfx::bits(w[p].mask[k]), testfx::bits(want.mask[k])) << p << " " << k;
        }
    }
    // The workspace: every block's 64 float terms (luma 13x8 blocks, chroma
    // (48x30) 6x4), then each plane's records of its ordered sum (a few
    // hundred bytes for so few terms).
    const size_t terms = (13 * 8 + 2 * 6 * 4) * 64 * sizeof(float);
    EXPECT_GE(e.gpu->workspace_bytes(*x), terms);
    EXPECT_LE(e.gpu->workspace_bytes(*x), terms + 3 * 1024);
    EXPECT_NE(e.gpu->enqueue, nullptr);
}

TEST(PsnrHvsEntry, Blocks)
{
    // A block at every 7th sample with 8 left (§3).
    EXPECT_EQ(psnr_hvs_blocks(7), 0);
    EXPECT_EQ(psnr_hvs_blocks(8), 1);
    EXPECT_EQ(psnr_hvs_blocks(14), 1);
    EXPECT_EQ(psnr_hvs_blocks(15), 2);
    EXPECT_EQ(psnr_hvs_blocks(576), 82);
    EXPECT_EQ(psnr_hvs_blocks(162), 23);
}

// ---------------------------------------------------------------------------

TEST(PsnrHvsGolden, CtcEveryFrame)
{
    EXPECT_EQ(testfx::compare_ctc_goldens("psnr_hvs", "psnr_hvs", 4), 2 * 4 * 49);
}

TEST(PsnrHvsGolden, IdenticalFramesAreInfinite)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref");
    const testfx::Scored r = testfx::run_features(f, "psnr_hvs");
    ASSERT_EQ(r.frames.size(), 10u);
    for (const auto &frame : r.frames)
        for (const double v : frame)
            EXPECT_EQ(v, INFINITY);
}

TEST(PsnrHvsGolden, OddSizeScoresTheFloorChromaPlanes)
{
    // The top-left 97x61 of natural1's first two frames (chroma 48x30 scored,
    // docs/psnr_hvs.md §2). libvmaf's CLI crashes on odd 4:2:0 input; these are
    // its library's values for the crop (tests/fixtures/MANIFEST.md, "CTC
    // goldens"), which equal the CLI's for the 98x62 crop: the blocks are the same.
    const double want[2][4] = {
        {38.257341328898761, 41.481991401301777, 40.217943798019597, 38.6609047575582},
        {38.07585030908519, 40.965941480481021, 39.242606312237726, 38.401100948305391}};
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, 8, f.chroma), dis(f.dis, f.w, f.h, 8, f.chroma);
    VmafHipSettings s = testfx::settings(97, 61, 8, VMAFHIP_CHROMA_420, "psnr_hvs");
    testfx::set_backend(&s, TEST_BACKEND);
    const testfx::Ctx ctx = testfx::open_ctx(s);
    ASSERT_TRUE(ctx);
    for (int i = 0; i < 2; i++) {
        const VmafHipPicture r = ref.picture(i), d = dis.picture(i); // the crop: same strides
        ASSERT_EQ(vmafhip_submit(ctx.get(), &d, &r), i) << vmafhip_last_error(ctx.get());
    }
    ASSERT_EQ(vmafhip_flush(ctx.get()), 0);
    for (int i = 0; i < 2; i++) {
        const double *v = nullptr;
        ASSERT_EQ(vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(i), 1, &v), 0);
        for (int k = 0; k < 4; k++)
            EXPECT_EQ(testfx::bits(v[k]), testfx::bits(want[i][k])) << i << " " << k;
    }
}

// ---------------------------------------------------------------------------

TEST(PsnrHvsRefusals, FormatsAndSizes)
{
    const ExtractorInfo &e = psnr_hvs_extractor;
    testfx::expect_refused(e, Geometry{64, 64, 8, VMAFHIP_CHROMA_400}, {}, -EINVAL,
                           {"psnr_hvs", "4:0:0"});
    // The smallest frames: every plane one block.
    EXPECT_TRUE(testfx::accepted(e, Geometry{16, 16, 8, VMAFHIP_CHROMA_420}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{16, 8, 8, VMAFHIP_CHROMA_422}));
    EXPECT_TRUE(testfx::accepted(e, Geometry{8, 8, 12, VMAFHIP_CHROMA_444}));
    const struct {
        Geometry g;
        const char *least;
    } small[] = {
        {{15, 16, 8, VMAFHIP_CHROMA_420}, "16x16"},
        {{16, 15, 8, VMAFHIP_CHROMA_420}, "16x16"},
        {{15, 8, 8, VMAFHIP_CHROMA_422}, "16x8"},
        {{16, 7, 8, VMAFHIP_CHROMA_422}, "16x8"},
        {{7, 8, 8, VMAFHIP_CHROMA_444}, "8x8"},
    };
    for (const auto &c : small)
        testfx::expect_refused(e, c.g, {}, -ERANGE, {"psnr_hvs", "at least", c.least});
}

TEST(PsnrHvsRefusals, SixteenBitsThroughTheApi)
{
    // libvmaf: "bpc must be less than or equal to 12".
    VmafHipSettings s = testfx::settings(64, 64, 16, VMAFHIP_CHROMA_420, "psnr_hvs");
    testfx::LogLines log;
    EXPECT_LT(testfx::try_open(s, &log), 0);
    const std::string msg = vmafhip_last_error(nullptr);
    EXPECT_NE(msg.find("psnr_hvs"), std::string::npos) << msg;
}

// ---------------------------------------------------------------------------

TEST(PsnrHvsDct, FlatAndImpulseBlocks)
{
    // A flat block of v: only the DC coefficient, 8 v (the transform's gain).
    int32_t b[64], y[64];
    for (int32_t &v : b)
        v = 100;
    psnr_hvs_fdct8x8(b, y);
    EXPECT_EQ(y[0], 800);
    for (int k = 1; k < 64; k++)
        EXPECT_EQ(y[k], 0) << k;
    // In place, as libvmaf runs it, the same as out of place.
    for (int k = 0; k < 64; k++)
        b[k] = (k * 37 + 11) % 4096 - 2048;
    int32_t out[64];
    psnr_hvs_fdct8x8(b, out);
    psnr_hvs_fdct8x8(b, b);
    for (int k = 0; k < 64; k++)
        EXPECT_EQ(b[k], out[k]) << k;
}

} // namespace
