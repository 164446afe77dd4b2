// The CPU backend's frame workers (core/backend_cpu.cpp): frames scored
// several at once, finishing in any order, give every frame the accumulator
// block that one frame at a time gives it, byte for byte: at every split of
// threads and depth, with motion reading two earlier frames and
// speed_temporal an earlier distorted luma, with frames
// left unscored (n_subsample), and for a stream taken over mid-way.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "core/metrics.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/frame_view.h"

using namespace vmafhip;

namespace {

// Motion with its two-frame look-behind, speed_temporal reading the previous
// distorted luma too, float_motion the previous reference chroma, and the
// other extractors.
const char *const kFeatures =
    "psnr|float_ssim|adm|vif|motion=motion_five_frame_window=true|speed_chroma|speed_temporal|"
    "float_motion=motion_add_scale1=true:motion_add_uv=true";

using Blocks = std::vector<std::vector<uint8_t>>;

struct Stream {
    testfx::Fixture f;
    testfx::Clip ref, dis;
    Metrics m;

    explicit Stream(const std::string &fixture)
        : f(testfx::fixture(fixture)), ref(f.ref, f.w, f.h, f.bpc, f.chroma),
          dis(f.dis, f.w, f.h, f.bpc, f.chroma)
    {
        const VmafHipSettings s = testfx::settings(f.w, f.h, f.bpc, f.chroma, kFeatures);
        std::string err;
        EXPECT_EQ(metrics_create(s, Logger(), &m, &err), 0) << err;
    }

    FrameView view(unsigned i) const
    {
        return testfx::view_of(m.g, ref.picture(static_cast<int>(i)), dis.picture(static_cast<int>(i)),
                               m.planes, i);
    }
};

// Frames [first, end) of st through b, with at most b.depth() in flight;
// frame i is scored when scored(i), else only its every-frame extractors run.
template <typename Scored> Blocks run(const Stream &st, Backend &b, unsigned first, unsigned end, Scored scored)
{
    Blocks out;
    std::string err;
    unsigned collected = first;
    auto collect_one = [&] {
        out.emplace_back(st.m.accum_bytes);
        EXPECT_EQ(b.collect(true, out.back().data(), &err), 0) << err;
        collected++;
    };
    for (unsigned i = first; i < end; i++) {
        while (i - collected >= static_cast<unsigned>(b.depth()))
            collect_one();
        EXPECT_EQ(b.submit(st.view(i), scored(i), kNotLent, &err), 0) << err;
    }
    while (collected < end)
        collect_one();
    return out;
}

void expect_same(const Blocks &got, const Blocks &want, const std::string &what)
{
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); i++)
        EXPECT_EQ(std::memcmp(got[i].data(), want[i].data(), want[i].size()), 0) << what << ", frame " << i;
}

const auto every = [](unsigned) { return true; };
const auto every_third = [](unsigned i) { return i % 3 == 0; };

} // namespace

TEST(CpuFrameWorkers, SameBlocksAsOneFrameAtATime)
{
    for (const char *fixture : {"natural1_576x324_yuv420p__ref_vs_x264crf38",
                                "natural2_352x288_yuv420p10le__ref_vs_x265crf32"}) {
        const Stream st(fixture);
        const unsigned n = static_cast<unsigned>(st.f.frames);
        auto one = make_cpu_backend(st.m, 1, 1);
        const Blocks want = run(st, *one, 0, n, every);
        auto one_sub = make_cpu_backend(st.m, 1, 1);
        const Blocks want_sub = run(st, *one_sub, 0, n, every_third);
        // (threads, depth): fewer workers than frames in flight, as many,
        // pools of 1 to 4 threads, and the automatic depth.
        for (const auto &[threads, depth] : {std::pair{2, 4}, {4, 2}, {8, 5}, {16, 16}, {32, 16}, {7, 0}}) {
            const std::string what = std::string(fixture) + ", threads " + std::to_string(threads) +
                                     ", depth " + std::to_string(depth);
            auto b = make_cpu_backend(st.m, threads, depth);
            EXPECT_EQ(b->depth(), depth ? depth : 5) << what; // 3 workers of 2 threads, 2 more
            expect_same(run(st, *b, 0, n, every), want, what);
            auto sub = make_cpu_backend(st.m, threads, depth);
            expect_same(run(st, *sub, 0, n, every_third), want_sub, what + ", every third frame scored");
        }
    }
}

// Frames 0..k-1 on one backend, the rest on frame workers that take the
// stream over with the look-behind planes (reference luma and chroma,
// distorted luma) of the frames before k.
TEST(CpuFrameWorkers, TakeOverMidStream)
{
    const Stream st("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const unsigned n = static_cast<unsigned>(st.f.frames);
    auto one = make_cpu_backend(st.m, 1, 1);
    const Blocks want = run(st, *one, 0, n, every);
    for (unsigned k = 1; k < n; k++) {
        auto b = make_cpu_backend(st.m, 4, 3);
        EarlierPictures earlier;
        earlier.n = std::min<int>(st.m.lookbehind, static_cast<int>(k));
        for (int j = 0; j < earlier.n; j++) {
            const FrameView v = st.view(k - 1 - static_cast<unsigned>(j));
            earlier.ref[j] = v.ref[0];
            earlier.ref_chroma[j][0] = v.ref[1];
            earlier.ref_chroma[j][1] = v.ref[2];
            earlier.dis[j] = v.dis[0];
        }
        ASSERT_TRUE(st.m.lookbehind_dis);    // speed_temporal
        ASSERT_TRUE(st.m.lookbehind_chroma); // float_motion
        std::string err;
        ASSERT_EQ(b->take_over(k, earlier, &err), 0) << err;
        const Blocks got = run(st, *b, k, n, every);
        expect_same(got, Blocks(want.begin() + k, want.end()), "taken over at frame " + std::to_string(k));
    }
}

TEST(CpuFrameWorkers, AutomaticDepth)
{
    const Stream st("natural1_576x324_yuv420p__ref_vs_x264crf38");
    EXPECT_EQ(make_cpu_backend(st.m, 1, 0)->depth(), 1);  // scored inside submit
    EXPECT_EQ(make_cpu_backend(st.m, 2, 0)->depth(), 4);  // two workers of a thread, two more frames
    EXPECT_EQ(make_cpu_backend(st.m, 3, 0)->depth(), 5);  // three of a thread
    EXPECT_EQ(make_cpu_backend(st.m, 4, 0)->depth(), 4);  // two of two threads
    EXPECT_EQ(make_cpu_backend(st.m, 16, 0)->depth(), 10); // 8 workers
    EXPECT_EQ(make_cpu_backend(st.m, 64, 0)->depth(), kMaxQueueDepth);
}
