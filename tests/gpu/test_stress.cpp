// GPU behaviour beyond single-frame parity: long runs without drift or
// memory growth, two contexts on one device from two threads, a frame the
// device cannot hold, and GPU-vs-CPU equality across formats and odd sizes.
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/gpu/gpu_device.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/memory.h"
#include "vmafhip.h"

namespace {

using testfx::Ctx;
using testfx::open_ctx;
using testfx::resident_kib;

// Every extractor with every optional output.
const char kEverything[] = "psnr=enable_mse=true|float_ssim=enable_lcs=true|adm=debug=true|"
                           "vif=debug=true|motion=debug=true";
const char kEverythingButAdm[] = "psnr=enable_mse=true|float_ssim=enable_lcs=true|vif=debug=true|"
                                 "motion=debug=true";
// The extractors of the fixtures' goldens.
const char kAll[] = "adm|motion|vif|psnr|float_ssim";

VmafHipSettings fixture_settings(const testfx::Fixture &f)
{
    VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, kAll);
    return s;
}

// Planes of a random picture in FFmpeg's layout for any chroma format.
struct Picture {
    std::vector<uint8_t> plane[3];
    VmafHipPicture pic{};
    Picture(int w, int h, int bpc, VmafHipChroma chroma, std::mt19937 &rng, const Picture *base = nullptr,
            int noise = 0)
    {
        const int ssx = chroma == VMAFHIP_CHROMA_420 || chroma == VMAFHIP_CHROMA_422;
        const int ssy = chroma == VMAFHIP_CHROMA_420;
        const int planes = chroma == VMAFHIP_CHROMA_400 ? 1 : 3;
        const int bps = bpc > 8 ? 2 : 1;
        const unsigned max = (1u << bpc) - 1;
        for (int p = 0; p < planes; p++) {
            const int pw = p ? (w + ssx) >> ssx : w, ph = p ? (h + ssy) >> ssy : h;
            plane[p].resize(static_cast<size_t>(pw) * ph * bps);
            for (size_t i = 0; i < static_cast<size_t>(pw) * ph; i++) {
                int v;
                if (base) {
                    const int b = bps == 2 ? reinterpret_cast<const uint16_t *>(base->plane[p].data())[i]
                                           : base->plane[p][i];
                    v = b + static_cast<int>(rng() % (2 * noise + 1)) - noise;
                } else {
                    // smooth content plus texture, like video
                    const int x = static_cast<int>(i % pw), y = static_cast<int>(i / pw);
                    v = static_cast<int>((max / 2) + (max / 4) * ((x * 7 + y * 3) % 64) / 64) +
                        static_cast<int>(rng() % (max / 16 + 1));
                }
                v = v < 0 ? 0 : v > static_cast<int>(max) ? static_cast<int>(max) : v;
                if (bps == 2)
                    reinterpret_cast<uint16_t *>(plane[p].data())[i] = static_cast<uint16_t>(v);
                else
                    plane[p][i] = static_cast<uint8_t>(v);
            }
            pic.data[p] = plane[p].data();
            pic.stride[p] = pw * bps;
        }
    }
};

std::vector<std::vector<double>> score(VmafHipSettings s, const std::vector<Picture> &ref,
                                       const std::vector<Picture> &dis)
{
    Ctx c = open_ctx(s);
    std::vector<std::vector<double>> out;
    if (!c)
        return out;
    for (size_t i = 0; i < ref.size(); i++)
        EXPECT_EQ(vmafhip_submit(c.get(), &dis[i].pic, &ref[i].pic), static_cast<int>(i))
            << vmafhip_last_error(c.get());
    EXPECT_EQ(vmafhip_flush(c.get()), 0) << vmafhip_last_error(c.get());
    const char *const *names;
    const int n = vmafhip_feature_names(c.get(), &names);
    for (unsigned i = 0; i < ref.size(); i++) {
        const double *v;
        EXPECT_EQ(vmafhip_frame_scores(c.get(), i, 1, &v), 0) << vmafhip_last_error(c.get());
        out.emplace_back(v, v + n);
    }
    return out;
}

// GPU equals the CPU reference (psnr, ADM, VIF, motion bit for bit;
// float_ssim <= 1e-6) for every chroma layout, bit depth and a set of odd
// sizes.
TEST(GpuStress, FormatsAndOddSizes)
{
    struct Case {
        int w, h, bpc;
        VmafHipChroma chroma;
        const char *features = kEverything;
    };
    const Case cases[] = {
        {64, 48, 10, VMAFHIP_CHROMA_420},  {64, 48, 12, VMAFHIP_CHROMA_420},
        {96, 64, 8, VMAFHIP_CHROMA_422},   {96, 64, 10, VMAFHIP_CHROMA_444},
        {80, 72, 8, VMAFHIP_CHROMA_400},   {80, 72, 12, VMAFHIP_CHROMA_400},
        {33, 33, 8, VMAFHIP_CHROMA_420},   {35, 37, 10, VMAFHIP_CHROMA_420},
        {321, 241, 8, VMAFHIP_CHROMA_420}, {1921, 1081, 10, VMAFHIP_CHROMA_422},
        {97, 61, 12, VMAFHIP_CHROMA_444},  {127, 255, 8, VMAFHIP_CHROMA_420},
        // adm stops at 12 bits (libvmaf's DWT overflows at 16): the others
        {64, 48, 16, VMAFHIP_CHROMA_420, kEverythingButAdm},
    };
    std::mt19937 rng(1234);
    for (const Case &c : cases) {
        std::vector<Picture> ref, dis;
        for (int i = 0; i < 3; i++) {
            ref.emplace_back(c.w, c.h, c.bpc, c.chroma, rng);
            dis.emplace_back(c.w, c.h, c.bpc, c.chroma, rng, &ref.back(), 3 + 4 * i);
        }
        VmafHipSettings s = testfx::settings(c.w, c.h, c.bpc, c.chroma, c.features);
        testfx::set_backend(&s, VMAFHIP_BACKEND_CPU);
        const auto cpu = score(s, ref, dis);
        testfx::set_backend(&s, VMAFHIP_BACKEND_HIP);
        const auto gpu = score(s, ref, dis);
        ASSERT_EQ(cpu.size(), gpu.size());
        Ctx names_ctx = open_ctx(s);
        const char *const *names;
        vmafhip_feature_names(names_ctx.get(), &names);
        for (size_t i = 0; i < cpu.size(); i++)
            for (size_t k = 0; k < cpu[i].size(); k++) {
                const std::string name = names[k];
                if (name.rfind("float_ssim", 0) == 0)
                    EXPECT_NEAR(gpu[i][k], cpu[i][k], 1e-6) << c.w << "x" << c.h << " " << name;
                else
                    EXPECT_EQ(gpu[i][k], cpu[i][k]) << c.w << "x" << c.h << "@" << c.bpc << " " << name;
            }
    }
}

// 1,000 frames of changing content: every repeat of a pair gives the same
// scores (no drift), and neither device nor host memory grows.
TEST(GpuStress, ThousandFramesNoDriftNoGrowth)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_mpeg2q28");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    // Motion compares neighbours, so a repeated pair is not scored alike at
    // the seams of the cycle: the per-frame extractors only.
    VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, "adm|vif|psnr|float_ssim");
    testfx::set_backend(&s, VMAFHIP_BACKEND_HIP);
    Ctx c = open_ctx(s);
    ASSERT_TRUE(c);
    const char *const *names;
    const int n = vmafhip_feature_names(c.get(), &names);
    size_t free0 = 0, total = 0, rss0 = 0;
    const int frames = 1000;
    for (int i = 0; i < frames; i++) {
        const int k = i % f.frames;
        const VmafHipPicture r = ref.picture(k), d = dis.picture((k * 3) % f.frames);
        ASSERT_EQ(vmafhip_submit(c.get(), &d, &r), i) << vmafhip_last_error(c.get());
        if (i == 50) { // after warm-up
            ASSERT_EQ(vmafhip::gpu_memory_info(&free0, &total), 0);
            rss0 = resident_kib();
        }
    }
    ASSERT_EQ(vmafhip_flush(c.get()), 0);
    size_t free1 = 0;
    ASSERT_EQ(vmafhip::gpu_memory_info(&free1, &total), 0);
    EXPECT_EQ(free1, free0) << "device memory changed during the run";
    // Results of 1,000 frames (a few doubles each) are the only host growth.
    EXPECT_LT(resident_kib(), rss0 + 4096) << "host memory grew by more than 4 MiB";
    for (int i = f.frames; i < frames; i++) {
        const double *a, *b;
        ASSERT_EQ(vmafhip_frame_scores(c.get(), static_cast<unsigned>(i), 1, &a), 0);
        ASSERT_EQ(vmafhip_frame_scores(c.get(), static_cast<unsigned>(i % f.frames), 1, &b), 0);
        for (int j = 0; j < n; j++)
            ASSERT_EQ(a[j], b[j]) << "frame " << i << " " << names[j];
    }
}

// Two contexts (two filter instances) on one GPU, driven from two threads.
TEST(GpuStress, TwoContextsTwoThreads)
{
    const testfx::Fixture &fa = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Fixture &fb = testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32");
    auto run = [](const testfx::Fixture &f, VmafHipBackend backend, int repeats) {
        const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
        VmafHipSettings s = fixture_settings(f);
        testfx::set_backend(&s, backend);
        Ctx c = open_ctx(s);
        std::vector<double> all;
        if (!c)
            return all;
        for (int i = 0; i < f.frames * repeats; i++) {
            const VmafHipPicture r = ref.picture(i % f.frames), d = dis.picture(i % f.frames);
            EXPECT_EQ(vmafhip_submit(c.get(), &d, &r), i);
        }
        EXPECT_EQ(vmafhip_flush(c.get()), 0);
        const char *const *names;
        const int n = vmafhip_feature_names(c.get(), &names);
        for (unsigned i = 0; i < static_cast<unsigned>(f.frames * repeats); i++) {
            const double *v;
            EXPECT_EQ(vmafhip_frame_scores(c.get(), i, 1, &v), 0);
            for (int k = 0; k < n; k++)
                if (std::strncmp(names[k], "float_ssim", 10)) // ssim: 1e-6, checked elsewhere
                    all.push_back(v[k]);
        }
        return all;
    };
    const auto want_a = run(fa, VMAFHIP_BACKEND_CPU, 5), want_b = run(fb, VMAFHIP_BACKEND_CPU, 5);
    std::vector<double> got_a, got_b;
    std::thread ta([&] { got_a = run(fa, VMAFHIP_BACKEND_HIP, 5); });
    std::thread tb([&] { got_b = run(fb, VMAFHIP_BACKEND_HIP, 5); });
    ta.join();
    tb.join();
    EXPECT_EQ(got_a, want_a);
    EXPECT_EQ(got_b, want_b);
}

// A frame the device cannot hold: a clear -ENOMEM, and the process (and the
// device) stay usable.
TEST(GpuStress, FrameTooLargeForTheDevice)
{
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    s.width = 32768;
    s.height = 32768;
    s.bitdepth = 12;
    s.chroma = VMAFHIP_CHROMA_444;
    s.features = kAll;
    s.models = nullptr;
    s.queue_depth = 16;
    testfx::set_backend(&s, VMAFHIP_BACKEND_HIP);
    VmafHipContext *c = nullptr;
    EXPECT_EQ(vmafhip_open(&c, &s), -ENOMEM);
    EXPECT_EQ(c, nullptr);
    const std::string msg = vmafhip_last_error(nullptr);
    EXPECT_NE(msg.find("GPU memory"), std::string::npos) << msg;
    std::printf("message: %s\n", msg.c_str());
    // Still usable: a normal context scores.
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const testfx::Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    VmafHipSettings ok = fixture_settings(f);
    testfx::set_backend(&ok, VMAFHIP_BACKEND_HIP);
    Ctx good = open_ctx(ok);
    const VmafHipPicture r = ref.picture(0), d = dis.picture(0);
    EXPECT_EQ(vmafhip_submit(good.get(), &d, &r), 0);
    EXPECT_EQ(vmafhip_flush(good.get()), 0);
}

} // namespace
