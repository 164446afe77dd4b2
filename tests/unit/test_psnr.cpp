// psnr options against the formulas of docs/psnr.md (§3-§6), computed here
// independently from the raw samples: enable_mse, enable_apsnr, min_sse,
// reduced_hbd_peak, chroma off, 4:0:0, and the 0-pixel chroma of 1-pixel frames.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "kernels/psnr/psnr_ops.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace {

using testfx::Ctx;
using testfx::open_ctx;

int index_of(VmafHipContext *c, const char *name)
{
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    for (int k = 0; k < n; k++)
        if (!std::strcmp(names[k], name))
            return k;
    return -1;
}

// Exact SSE of a plane of the fixture, over libvmaf's (floor) chroma size.
uint64_t sse(const testfx::Clip &r, const testfx::Clip &d, const testfx::Fixture &f, int i, int p)
{
    const VmafHipPicture a = r.picture(i), b = d.picture(i);
    const int ssx = f.chroma == VMAFHIP_CHROMA_420 || f.chroma == VMAFHIP_CHROMA_422;
    const int ssy = f.chroma == VMAFHIP_CHROMA_420;
    const int w = p ? f.w >> ssx : f.w, h = p ? f.h >> ssy : f.h;
    uint64_t s = 0;
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            const auto *pa = static_cast<const uint8_t *>(a.data[p]) + y * a.stride[p];
            const auto *pb = static_cast<const uint8_t *>(b.data[p]) + y * b.stride[p];
            const int va = f.bpc > 8 ? reinterpret_cast<const uint16_t *>(pa)[x] : pa[x];
            const int vb = f.bpc > 8 ? reinterpret_cast<const uint16_t *>(pb)[x] : pb[x];
            s += static_cast<uint64_t>((va - vb) * (va - vb));
        }
    return s;
}

struct Scored {
    Ctx ctx;
    explicit Scored(const testfx::Fixture &f, VmafHipSettings s)
        : ctx(open_ctx(s))
    {
        const testfx::Clip r(f.ref, f.w, f.h, f.bpc, f.chroma), d(f.dis, f.w, f.h, f.bpc, f.chroma);
        for (int i = 0; i < f.frames; i++) {
            const VmafHipPicture a = r.picture(i), b = d.picture(i);
            EXPECT_EQ(vmafhip_submit(ctx.get(), &b, &a), i);
        }
        EXPECT_EQ(vmafhip_flush(ctx.get()), 0);
    }
    double at(int frame, const char *name)
    {
        const double *v;
        EXPECT_EQ(vmafhip_frame_scores(ctx.get(), static_cast<unsigned>(frame), 1, &v), 0);
        const int k = index_of(ctx.get(), name);
        EXPECT_GE(k, 0) << name;
        return k < 0 ? NAN : v[k];
    }
};

const char *const planes[] = {"y", "cb", "cr"};

/// CPU settings for fixture f with the given psnr spec (a string literal).
VmafHipSettings psnr_settings(const testfx::Fixture &f, const char *spec)
{
    VmafHipSettings s = testfx::settings_for(f);
    s.features = spec;
    s.models = nullptr;
    s.backend = VMAFHIP_BACKEND_CPU;
    return s;
}

// The largest 16-bit difference squares to 65535^2, past INT32_MAX: the
// per-sample square must be unsigned (UBSan fails this test otherwise).
TEST(Psnr, SquaredDifferenceOfExtremeSamples)
{
    EXPECT_EQ(vmafhip::psnr_sq_diff<uint16_t>(65535, 0), 4294836225u);
    EXPECT_EQ(vmafhip::psnr_sq_diff<uint16_t>(0, 65535), 4294836225u);
    EXPECT_EQ(vmafhip::psnr_sq_diff<uint16_t>(1, 2), 1u);
    EXPECT_EQ(vmafhip::psnr_sq_diff<uint8_t>(0, 255), 65025u);
}

TEST(Psnr, MseAndApsnr)
{
    const testfx::Fixture &f = testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32");
    VmafHipSettings s = psnr_settings(f, "psnr=enable_mse=true:enable_apsnr=true");
    Scored run(f, s);
    const testfx::Clip r(f.ref, f.w, f.h, f.bpc, f.chroma), d(f.dis, f.w, f.h, f.bpc, f.chroma);
    uint64_t total_sse[3] = {}, total_n[3] = {};
    for (int i = 0; i < f.frames; i++)
        for (int p = 0; p < 3; p++) {
            const uint64_t e = sse(r, d, f, i, p);
            const unsigned n = p ? (f.w / 2) * (f.h / 2) : f.w * f.h;
            const double mse = static_cast<double>(e) / n;
            EXPECT_EQ(run.at(i, (std::string("mse_") + planes[p]).c_str()), mse);
            EXPECT_EQ(run.at(i, (std::string("psnr_") + planes[p]).c_str()),
                      std::min(10 * std::log10(1023.0 * 1023.0 / std::max(mse, 1e-16)), 72.0));
            total_sse[p] += e;
            total_n[p] += n;
        }
    const char *const *names;
    const double *values;
    ASSERT_EQ(vmafhip_aggregate_scores(run.ctx.get(), &names, &values), 3);
    for (int p = 0; p < 3; p++) {
        EXPECT_EQ(std::string(names[p]), std::string("apsnr_") + planes[p]);
        const double apsnr = 10 * (std::log10(1023.0 * 1023.0) + std::log10(double(total_n[p])) -
                                   std::log10(double(total_sse[p])));
        const double cap = std::ceil(10 * std::log10(double(1023ull * 1023 * total_n[p] * 2)));
        EXPECT_EQ(values[p], apsnr < cap ? apsnr : cap);
    }
}

TEST(Psnr, MinSseSetsTheCap)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref");
    VmafHipSettings s = psnr_settings(f, "psnr=min_sse=0.5");
    Scored run(f, s);
    // Identical frames: PSNR is the cap from min_sse (docs/psnr.md §3).
    const double cap_y = std::ceil(10 * std::log10(65025.0 / (0.5 / (576.0 * 324))));
    const double cap_c = std::ceil(10 * std::log10(65025.0 / (0.5 / (288.0 * 162))));
    EXPECT_EQ(run.at(0, "psnr_y"), cap_y);
    EXPECT_EQ(run.at(0, "psnr_cb"), cap_c);
    EXPECT_NE(cap_y, 60.0);
}

TEST(Psnr, ReducedHbdPeak)
{
    const testfx::Fixture &f = testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32");
    Scored normal(f, psnr_settings(f, "psnr"));
    Scored reduced(f, psnr_settings(f, "psnr=reduced_hbd_peak=true"));
    // 10 * log10(1020^2 / 1023^2) lower, exactly as the peak changes.
    const double shift = 10 * std::log10(1023.0 * 1023.0) - 10 * std::log10(1020.0 * 1020.0);
    EXPECT_NEAR(normal.at(0, "psnr_y") - reduced.at(0, "psnr_y"), shift, 1e-12);
}

TEST(Psnr, ChromaOffAndGray)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    VmafHipSettings s = psnr_settings(f, "psnr=enable_chroma=false:enable_apsnr=true");
    Scored run(f, s);
    const char *const *names;
    ASSERT_EQ(vmafhip_feature_names(run.ctx.get(), &names), 1);
    EXPECT_STREQ(names[0], "psnr_y");
    // apsnr of a disabled plane: NaN against -inf gives -inf (docs/psnr.md §5).
    const double *values;
    ASSERT_EQ(vmafhip_aggregate_scores(run.ctx.get(), &names, &values), 3);
    EXPECT_TRUE(std::isinf(values[1]) && values[1] < 0);
    EXPECT_TRUE(std::isinf(values[2]) && values[2] < 0);
    EXPECT_TRUE(std::isfinite(values[0]));

    const testfx::Fixture &g = testfx::fixture("natural6_176x144_gray__ref_vs_gblur1p2noise12");
    VmafHipSettings sg = psnr_settings(g, "psnr");
    Scored gray(g, sg);
    ASSERT_EQ(vmafhip_feature_names(gray.ctx.get(), &names), 1); // chroma forced off
}

TEST(Psnr, OnePixelFrameChromaIsTheCap)
{
    const testfx::Fixture &f = testfx::fixture("minsize_psnr_1x1_yuv420p__ref_vs_noise20");
    Scored run(f, psnr_settings(f, "psnr"));
    // libvmaf's chroma planes of a 1x1 4:2:0 frame have 0 pixels: 0/0 MSE
    // and its MAX() macro give the cap.
    EXPECT_EQ(run.at(0, "psnr_cb"), 60.0);
    EXPECT_EQ(run.at(0, "psnr_cr"), 60.0);
}

} // namespace
