// How long a clip is and what that decides (tools/vmafhip/clip.h): the frame
// pairs a run scores, with skips and --frame_cnt; and when the CLI waits for
// the GPU's start: from kGpuWaitSamples luma samples on, never for a clip of
// unknown length, without overflow for the largest clips.
#include <gtest/gtest.h>

#include "tools/vmafhip/clip.h"

namespace {

cli::Format format(int w, int h)
{
    cli::Format f;
    f.w = w;
    f.h = h;
    f.bpc = 8;
    return f;
}

TEST(FramesToScore, TheShorterInputAfterItsSkips)
{
    EXPECT_EQ(cli::frames_to_score(100, 120, 0, 0, 0), 100);
    EXPECT_EQ(cli::frames_to_score(100, 120, 10, 0, 0), 90);
    EXPECT_EQ(cli::frames_to_score(100, 120, 0, 30, 0), 90);
    EXPECT_EQ(cli::frames_to_score(100, 120, 5, 30, 0), 90);
    EXPECT_EQ(cli::frames_to_score(100, 120, 150, 0, 0), 0); // skip() then reports it
}

TEST(FramesToScore, AtMostFrameCnt)
{
    EXPECT_EQ(cli::frames_to_score(100, 120, 0, 0, 40), 40);
    EXPECT_EQ(cli::frames_to_score(100, 120, 70, 0, 40), 30);
    EXPECT_EQ(cli::frames_to_score(-1, -1, 0, 0, 40), 40);
}

TEST(FramesToScore, UnknownLengths)
{
    EXPECT_EQ(cli::frames_to_score(-1, -1, 0, 0, 0), -1);
    EXPECT_EQ(cli::frames_to_score(-1, 50, 3, 5, 0), 45); // a pipe beside a file: at most the file's
    EXPECT_EQ(cli::frames_to_score(50, -1, 3, 5, 0), 47);
}

TEST(GpuWait, FromTheThresholdOn)
{
    const cli::Format hd = format(1920, 1080); // 2,073,600 samples a frame
    EXPECT_FALSE(cli::wait_for_gpu(72, hd));   // 149.3 million
    EXPECT_TRUE(cli::wait_for_gpu(73, hd));    // 151.4 million
    EXPECT_TRUE(cli::wait_for_gpu(3000, hd));
    const cli::Format exact = format(1000, 1000);
    EXPECT_FALSE(cli::wait_for_gpu(cli::kGpuWaitSamples / 1000000 - 1, exact));
    EXPECT_TRUE(cli::wait_for_gpu(cli::kGpuWaitSamples / 1000000, exact));
}

TEST(GpuWait, ShortOrUnknownClipsScoreOnTheCpuMeanwhile)
{
    EXPECT_FALSE(cli::wait_for_gpu(3, format(576, 324))); // the filter tests' fixtures
    EXPECT_FALSE(cli::wait_for_gpu(-1, format(3840, 2160)));
    EXPECT_FALSE(cli::wait_for_gpu(0, format(3840, 2160)));
}

TEST(GpuWait, LargeClipsDoNotOverflow)
{
    const cli::Format huge = format(1 << 16, 1 << 16);
    EXPECT_TRUE(cli::wait_for_gpu(1, huge));
    EXPECT_TRUE(cli::wait_for_gpu(1LL << 40, huge));
    EXPECT_TRUE(cli::wait_for_gpu(1LL << 62, format(1, 1)));
}

} // namespace
