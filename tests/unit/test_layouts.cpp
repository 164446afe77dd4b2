// Semi-planar pictures (VMAFHIP_LAYOUT_NV: nv12, nv16, nv24, nv20, p016;
// VMAFHIP_LAYOUT_NV_MSB: p010, p012, p210, p410) score exactly as the same
// frames in planar form: every value of every frame, with chroma features
// and with luma alone, from the caller's memory (padded rows) and from lent
// pictures, whatever the low bits of high-bit samples hold. Built for the
// CPU (suite unit) and the GPU (suite gpu).
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/semi_planar.h"
#include "vmafhip.h"

namespace {

using testfx::Ctx;
using testfx::open_ctx;

/// Every frame's values of a fixture pair, scored with s; pictures from
/// make(clip, frame) (kept alive by the caller's storage).
template <typename Make>
std::vector<std::vector<double>> scores(const VmafHipSettings &s, const testfx::Fixture &f, Make make)
{
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    const Ctx ctx = open_ctx(s);
    std::vector<std::vector<double>> out;
    if (!ctx)
        return out;
    const char *const *names;
    const int n = vmafhip_feature_names(ctx.get(), &names);
    for (int i = 0; i < f.frames; i++) {
        const VmafHipPicture d = make(dis, i, 1), r = make(ref, i, 0);
        EXPECT_GE(vmafhip_submit(ctx.get(), &d, &r), 0) << vmafhip_last_error(ctx.get());
    }
    EXPECT_EQ(vmafhip_flush(ctx.get()), 0) << vmafhip_last_error(ctx.get());
    for (int i = 0; i < f.frames; i++) {
        const double *v = nullptr;
        EXPECT_EQ(vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(i), 1, &v), 0);
        out.emplace_back(v, v + (v ? n : 0));
    }
    return out;
}

void expect_same(const std::vector<std::vector<double>> &got,
                 const std::vector<std::vector<double>> &want, const std::string &what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); i++) {
        ASSERT_EQ(got[i].size(), want[i].size()) << what;
        for (size_t c = 0; c < got[i].size(); c++)
            EXPECT_EQ(std::memcmp(&got[i][c], &want[i][c], sizeof(double)), 0)
                << what << ", frame " << i << ", column " << c << ": " << got[i][c] << " against "
                << want[i][c];
    }
}

class Layouts : public ::testing::TestWithParam<testfx::Fixture> {};

TEST_P(Layouts, ScoreAsPlanar)
{
    const testfx::Fixture &f = GetParam();
    std::mt19937 rng(7);
    // Every feature the golden holds plus float_motion on the chroma of the
    // previous frame too (the earlier pictures' chroma, split from the pairs),
    // and luma alone (the model, or motion where the golden has no model):
    // the chroma-less copy path.
    const std::string luma_features = f.models.empty() ? "motion" : "";
    for (const bool with_chroma : {true, false}) {
        VmafHipSettings s = testfx::settings_for(f);
        const std::string chroma_features =
            std::string(s.features ? s.features : "") +
            "|float_motion=motion_add_uv=true:motion_add_scale1=true";
        s.features = with_chroma ? chroma_features.c_str() : luma_features.c_str();
        testfx::set_backend(&s, TEST_BACKEND);
        const auto planar = scores(s, f, [](const testfx::Clip &c, int i, int) { return c.picture(i); });
        ASSERT_FALSE(planar.empty());
        std::vector<VmafHipLayout> layouts{VMAFHIP_LAYOUT_NV};
        if (f.bpc > 8)
            layouts.push_back(VMAFHIP_LAYOUT_NV_MSB);
        for (const VmafHipLayout layout : layouts) {
            s.layout = layout;
            const int shift = layout == VMAFHIP_LAYOUT_NV_MSB ? 16 - f.bpc : 0;
            std::vector<std::unique_ptr<testfx::SemiPlanar>> keep;
            const auto got = scores(s, f, [&](const testfx::Clip &c, int i, int) {
                keep.push_back(std::make_unique<testfx::SemiPlanar>(c.picture(i), f, shift, 64, rng));
                VmafHipPicture p = keep.back()->pic;
                if (!with_chroma)
                    p.data[1] = nullptr; // not read: may be NULL
                return p;
            });
            expect_same(got, planar,
                        std::string(layout == VMAFHIP_LAYOUT_NV ? "nv" : "nv_msb") +
                            (with_chroma ? ", all features" : ", luma only"));
        }
    }
}

// Lent pictures in a semi-planar layout: two planes, the second of Cb, Cr
// pairs; filled from the planar frames, they score as those.
TEST_P(Layouts, LentPicturesScoreAsPlanar)
{
    const testfx::Fixture &f = GetParam();
    VmafHipSettings s = testfx::settings_for(f);
    testfx::set_backend(&s, TEST_BACKEND);
    const auto planar = scores(s, f, [](const testfx::Clip &c, int i, int) { return c.picture(i); });
    s.layout = f.bpc > 8 ? VMAFHIP_LAYOUT_NV_MSB : VMAFHIP_LAYOUT_NV;
    const int shift = f.bpc > 8 ? 16 - f.bpc : 0;
    std::mt19937 rng(11);
    const Ctx probe = open_ctx(s);
    ASSERT_TRUE(probe);
    EXPECT_EQ(vmafhip_planes_read(probe.get()), 2);
    // The lent pictures of the context that scores: borrowed, filled,
    // submitted, released after its scores are in.
    std::vector<VmafHipLentPicture> lent;
    VmafHipContext *scoring = nullptr;
    const auto got = [&]() -> std::vector<std::vector<double>> {
        const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
        EXPECT_EQ(vmafhip_open(&scoring, &s), 0) << vmafhip_last_error(nullptr);
        const char *const *names;
        const int n = vmafhip_feature_names(scoring, &names);
        std::vector<std::vector<double>> out;
        for (int i = 0; i < f.frames; i++) {
            VmafHipPicture pics[2];
            for (int k = 0; k < 2; k++) {
                const testfx::SemiPlanar sp((k ? ref : dis).picture(i), f, shift, 0, rng);
                VmafHipLentPicture l;
                EXPECT_EQ(vmafhip_picture_borrow(scoring, 64, &l), 0);
                EXPECT_EQ(l.data[2], nullptr);
                for (int q = 0; q < 2; q++) {
                    const size_t row = static_cast<size_t>(sp.pic.stride[q]); // no padding
                    EXPECT_GE(static_cast<size_t>(l.stride[q]), row);
                    for (int y = 0; y < sp.rows[q]; y++)
                        std::memcpy(static_cast<uint8_t *>(l.data[q]) + y * l.stride[q],
                                    static_cast<const uint8_t *>(sp.pic.data[q]) + y * row, row);
                }
                pics[k] = VmafHipPicture{{l.data[0], l.data[1], nullptr}, {l.stride[0], l.stride[1], 0}};
                lent.push_back(l);
            }
            EXPECT_GE(vmafhip_submit(scoring, &pics[0], &pics[1]), 0) << vmafhip_last_error(scoring);
        }
        EXPECT_EQ(vmafhip_flush(scoring), 0);
        for (int i = 0; i < f.frames; i++) {
            const double *v = nullptr;
            EXPECT_EQ(vmafhip_frame_scores(scoring, static_cast<unsigned>(i), 1, &v), 0);
            out.emplace_back(v, v + (v ? n : 0));
        }
        return out;
    }();
    vmafhip_close(&scoring);
    for (const VmafHipLentPicture &l : lent)
        vmafhip_picture_release(l.handle);
    expect_same(got, planar, "lent");
}

// 8 and 10 bits, 4:2:0 (odd sizes too), 4:2:2 and 4:4:4.
INSTANTIATE_TEST_SUITE_P(Fixtures, Layouts,
                         ::testing::Values(testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38"),
                                           testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32"),
                                           testfx::fixture("natural3_97x61_yuv420p__ref_vs_mjpegq24"),
                                           testfx::fixture("natural4_176x144_yuv422p__ref_vs_x264crf34"),
                                           testfx::fixture("natural5_176x144_yuv444p__ref_vs_mjpegq20")),
                         [](const auto &info) { return info.param.name.substr(0, 8); });

} // namespace
