// The AVX2 row kernels of float_ssim against the plain ones
// (extractors/ssim/ssim_cpu_rows.h), bit for bit: each kernel at every width
// around its 8-column steps with random, flat and extreme values, and the
// map sums of whole frames at odd sizes up to 1921x1081, every bit depth
// and downscale factor 1 to 4. Skipped where the CPU has no AVX2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/ssim/ssim_cpu_rows.h"
#include "tests/common/avx2_kernels.h"
#include "tests/common/bits.h"
#include "tests/common/test_planes.h"

using namespace vmafhip;
using namespace testfx;

namespace {

using SsimAvx2 = Avx2Kernels<SsimKernels, ssim_kernels_avx2, ssim_kernels_scalar>;

/// n floats on the 8-bit scale (what the normalised planes hold): random,
/// flat runs, and the ends of the range.
std::vector<float> random_samples(size_t n, std::mt19937 &rng)
{
    std::vector<float> v(n);
    std::uniform_int_distribution<int> kind(0, 9), code(0, 65535);
    float run = 0.0f;
    for (auto &x : v) {
        const int k = kind(rng);
        if (k < 3)
            x = run; // flat stretches: zero variances, rounding below zero
        else if (k == 3)
            x = 0.0f;
        else if (k == 4)
            x = 65535.0f / 256.0f; // the largest 16-bit sample
        else
            x = run = static_cast<float>(code(rng)) / 256.0f;
    }
    return v;
}

} // namespace

TEST_F(SsimAvx2, HorizontalPass)
{
    std::mt19937 rng(3);
    for (int n = 0; n <= 70; n++)
        for (int rep = 0; rep < 4; rep++) {
            const auto r = random_samples(n + 10, rng), d = random_samples(n + 10, rng);
            std::vector<float> want(5 * static_cast<size_t>(n) + 5), got(want.size());
            float *const pw[5] = {&want[0], &want[n + 1], &want[2 * (n + 1)], &want[3 * (n + 1)], &want[4 * (n + 1)]};
            float *const pg[5] = {&got[0], &got[n + 1], &got[2 * (n + 1)], &got[3 * (n + 1)], &got[4 * (n + 1)]};
            plain.hpass(r.data(), d.data(), n, pw);
            k.hpass(r.data(), d.data(), n, pg);
            for (size_t i = 0; i < want.size(); i++)
                ASSERT_EQ(bits(got[i]), bits(want[i])) << "n " << n << ", element " << i;
        }
}

TEST_F(SsimAvx2, VerticalPassAndPixel)
{
    std::mt19937 rng(4);
    for (int n = 0; n <= 70; n++)
        for (int rep = 0; rep < 4; rep++) {
            // Five planes of 11 rows; the moments as the horizontal pass
            // makes them (from samples), so the variances are ones SSIM sees.
            const ptrdiff_t stride = n + 3;
            std::vector<float> planes(5 * 11 * static_cast<size_t>(stride));
            for (int u = 0; u < 11; u++) {
                const auto r = random_samples(n + 10, rng), d = random_samples(n + 10, rng);
                float *const row[5] = {&planes[(0 * 11 + u) * stride], &planes[(1 * 11 + u) * stride],
                                       &planes[(2 * 11 + u) * stride], &planes[(3 * 11 + u) * stride],
                                       &planes[(4 * 11 + u) * stride]};
                plain.hpass(r.data(), d.data(), n, row);
            }
            const float *const in[5] = {&planes[0], &planes[11 * stride], &planes[22 * stride],
                                        &planes[33 * stride], &planes[44 * stride]};
            std::vector<double> want(4 * static_cast<size_t>(n) + 4, -1.0), got(want.size(), -1.0);
            const auto row_of = [n](std::vector<double> &v) {
                return SsimPixelRow{&v[0], &v[n + 1], &v[2 * (n + 1)], &v[3 * (n + 1)]};
            };
            plain.vpass_pixel(in, stride, n, row_of(want));
            k.vpass_pixel(in, stride, n, row_of(got));
            for (size_t i = 0; i < want.size(); i++)
                ASSERT_EQ(bits(got[i]), bits(want[i])) << "n " << n << ", element " << i;
        }
}

TEST_F(SsimAvx2, FramesEverySizeDepthAndScale)
{
    ThreadPool pool(2);
    int frames = 0;
    for_each_frame([&](const Plane &ref, const Plane &dis, Content c) {
        if (c == Content::AboveDepth)
            return; // the core never scores such pictures
        for (int f = 1; f <= 4; f++) {
            SsimParams p;
            p.scale = f;
            p.dec_w = ssim_decimated_size(ref.w, f);
            p.dec_h = ssim_decimated_size(ref.h, f);
            p.map_w = p.dec_w - (SSIM_TAPS - 1);
            p.map_h = p.dec_h - (SSIM_TAPS - 1);
            if (p.dec_w < SSIM_MIN_SIZE || p.dec_h < SSIM_MIN_SIZE)
                continue;
            SsimAccum want, got;
            ssim_cpu_sums(p, ref.bpc, ref.view(), dis.view(), plain, pool, &want);
            ssim_cpu_sums(p, ref.bpc, ref.view(), dis.view(), k, pool, &got);
            EXPECT_EQ(bits(got.ssim), bits(want.ssim)) << "scale " << f;
            EXPECT_EQ(bits(got.l), bits(want.l)) << "scale " << f;
            EXPECT_EQ(bits(got.c), bits(want.c)) << "scale " << f;
            EXPECT_EQ(bits(got.s), bits(want.s)) << "scale " << f;
            frames++;
        }
    });
    EXPECT_GT(frames, 100);
    std::printf("[ ssim kernels ] %d frames: AVX2 and plain map sums equal\n", frames);
}
