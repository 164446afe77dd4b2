// The AVX2 row kernels of motion and psnr against the plain ones
// (extractors/motion/motion_cpu_rows.h, extractors/psnr/psnr_cpu_rows.h): each kernel
// at every width around its vector steps with random and extreme values,
// and whole frames at odd sizes from the smallest up to 1921x1081, every
// bit depth, random and extreme content. The goldens cover few sizes; these
// tests would catch a lane, tail or overflow mistake anywhere. Skipped where
// the CPU has no AVX2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <utility>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/motion/motion_cpu_rows.h"
#include "extractors/psnr/psnr_cpu_rows.h"
#include "tests/common/avx2_kernels.h"
#include "tests/common/test_planes.h"

using namespace vmafhip;
using namespace testfx;

namespace {

/// Random int16 values in [lo, hi], the ends included often.
std::vector<int16_t> random_row(size_t n, int lo, int hi, std::mt19937 &rng)
{
    std::vector<int16_t> v(n);
    for (auto &x : v) {
        const unsigned k = rng() % 8;
        x = static_cast<int16_t>(k == 0 ? lo : k == 1 ? hi : std::uniform_int_distribution<int>(lo, hi)(rng));
    }
    return v;
}

using MotionAvx2 = Avx2Kernels<MotionKernels, motion_kernels_avx2, motion_kernels_scalar>;
using PsnrAvx2 = Avx2Kernels<PsnrKernels, psnr_kernels_avx2, psnr_kernels_scalar>;

} // namespace

// ---------------------------------------------------------------------------
// Motion

TEST_F(MotionAvx2, Differences)
{
    std::mt19937 rng(1);
    for (int w = 0; w <= 100; w++)
        for (int bpc : kDepths) {
            const int top = bpc == 8 ? 255 : 65535; // diff16 reads any 16-bit value
            std::vector<uint16_t> p(static_cast<size_t>(w) + 1), c(p.size());
            for (size_t j = 0; j < p.size(); j++) {
                p[j] = static_cast<uint16_t>(rng() % 4 ? rng() % (1u << bpc) : top);
                c[j] = static_cast<uint16_t>(rng() % 4 ? rng() % (1u << bpc) : 0);
            }
            std::vector<int16_t> da(p.size() + MOTION_ROW_SLACK, 7), db(da);
            if (bpc == 8) {
                const std::vector<uint8_t> p8(p.begin(), p.end()), c8(c.begin(), c.end());
                k.diff8(p8.data(), c8.data(), w, da.data());
                plain.diff8(p8.data(), c8.data(), w, db.data());
            } else {
                EXPECT_EQ(k.diff16(p.data(), c.data(), w, da.data()), plain.diff16(p.data(), c.data(), w, db.data()))
                    << w << " " << bpc;
            }
            // Columns [0, w) written, the one after untouched.
            EXPECT_TRUE(std::equal(da.begin(), da.begin() + w + 1, db.begin())) << w << " " << bpc;
            EXPECT_EQ(da[static_cast<size_t>(w)], 7) << w;
        }
}

TEST_F(MotionAvx2, Vertical)
{
    std::mt19937 rng(2);
    for (int bpc : {8, 10, 12})
        for (int w = 1; w <= 100; w++) {
            const int top = (1 << bpc) - 1;
            std::vector<int16_t> rows[5];
            const int16_t *d[5];
            for (int t = 0; t < 5; t++) {
                rows[t] = random_row(static_cast<size_t>(w) + MOTION_ROW_SLACK, -top, top, rng);
                d[t] = rows[t].data();
            }
            const size_t n = static_cast<size_t>(w) + MOTION_ROW_SLACK;
            std::vector<int16_t> ha(n), la(n), hb(n), lb(n);
            k.vert(d, w, bpc, ha.data(), la.data());
            plain.vert(d, w, bpc, hb.data(), lb.data());
            EXPECT_TRUE(std::equal(ha.begin(), ha.begin() + w, hb.begin())) << w << " " << bpc;
            EXPECT_TRUE(std::equal(la.begin(), la.begin() + w, lb.begin())) << w << " " << bpc;
        }
}

TEST_F(MotionAvx2, Horizontal)
{
    std::mt19937 rng(3);
    // |yv| < 2^23 (the contract), and the in-range |yv| <= 65535.
    for (int hi_max : {32767, 255})
        for (int w : {3, 4, 5, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1023, 1024, 1025, 1040, 2049, 4099}) {
            const size_t n = static_cast<size_t>(w) + 2 * MOTION_PAD + MOTION_ROW_SLACK;
            const std::vector<int16_t> hi = random_row(n, -hi_max - 1, hi_max, rng);
            const std::vector<int16_t> lo = random_row(n, 0, 255, rng);
            EXPECT_EQ(k.hori_sad(hi.data() + MOTION_PAD, lo.data() + MOTION_PAD, w),
                      plain.hori_sad(hi.data() + MOTION_PAD, lo.data() + MOTION_PAD, w))
                << w << " " << hi_max;
            for (int16_t v : {static_cast<int16_t>(-hi_max - 1), static_cast<int16_t>(hi_max)}) {
                const std::vector<int16_t> flat(n, v), low(n, 255);
                EXPECT_EQ(k.hori_sad(flat.data() + MOTION_PAD, low.data() + MOTION_PAD, w),
                          plain.hori_sad(flat.data() + MOTION_PAD, low.data() + MOTION_PAD, w))
                    << w << " " << v;
            }
        }
}

TEST_F(MotionAvx2, FramesEverySizeAndDepth)
{
    ThreadPool pool(2);
    int frames = 0, nonzero = 0;
    for_each_frame([&](const Plane &prev, const Plane &cur, Content) {
        if (prev.w < MOTION_MIN_SIZE || prev.h < MOTION_MIN_SIZE)
            return;
        const MotionParams p{prev.w, prev.h, prev.bpc, 0};
        // Both orders: the floor shifts are not symmetric in the sign.
        for (int order = 0; order < 2; order++) {
            const PlaneView a = (order ? cur : prev).view(), b = (order ? prev : cur).view();
            const uint64_t want = motion_cpu_sad(p, a, b, plain, pool);
            EXPECT_EQ(motion_cpu_sad(p, a, b, k, pool), want) << "order " << order;
            nonzero += want != 0;
            frames++;
        }
    });
    EXPECT_GT(nonzero, frames / 2);
    std::printf("[ motion kernels ] %d frames: AVX2 and plain SADs equal\n", frames);
}

// ---------------------------------------------------------------------------
// psnr

TEST_F(PsnrAvx2, Rows)
{
    uint32_t seed = 0;
    for (int bpc : kDepths)
        for (int w : {0, 1, 2, 15, 16, 17, 31, 32, 33, 47, 63, 64, 65, 100, 1023, 1024, 1025, 1040, 2047, 2048,
                      2049, 4111, 32768})
            for (Content c : kContents) {
                if (c == Content::AboveDepth)
                    continue; // the core never scores such pictures
                const auto rows = make_planes(w, 1, bpc, c, seed++);
                const uint8_t *a = rows.first.stored.data(), *b = rows.second.stored.data();
                const uint64_t want = bpc > 8 ? plain.sse16(rows.first.v.data(), rows.second.v.data(), w, bpc)
                                              : plain.sse8(a, b, w);
                const uint64_t got = bpc > 8 ? k.sse16(rows.first.v.data(), rows.second.v.data(), w, bpc)
                                             : k.sse8(a, b, w);
                EXPECT_EQ(got, want) << w << " " << bpc << " bits, content " << static_cast<int>(c);
            }
}

TEST_F(PsnrAvx2, FramesEverySizeAndDepth)
{
    ThreadPool pool(2);
    int frames = 0;
    for_each_frame([&](const Plane &ref, const Plane &dis, Content c) {
        if (c == Content::AboveDepth)
            return;
        // Three planes of 4:2:0 sizes (libvmaf's floor chroma), the chroma
        // planes the top left of the luma ones, as strided views.
        FrameView f;
        for (int p = 0; p < 3; p++) {
            const int w = p ? ref.w / 2 : ref.w, h = p ? ref.h / 2 : ref.h;
            f.ref[p] = ref.view();
            f.dis[p] = dis.view();
            f.ref[p].w = f.dis[p].w = w;
            f.ref[p].h = f.dis[p].h = h;
        }
        PsnrAccum want, got;
        psnr_cpu_sse(f, 3, ref.bpc, plain, pool, &want);
        psnr_cpu_sse(f, 3, ref.bpc, k, pool, &got);
        for (int p = 0; p < 3; p++)
            EXPECT_EQ(got.sse[p], want.sse[p]) << "plane " << p;
        frames++;
    });
    std::printf("[ psnr kernels ] %d frames: AVX2 and plain sums equal\n", frames);
}
