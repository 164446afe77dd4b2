// Lent pictures (vmafhip_picture_borrow()): their layout, the pool's limits,
// their lifetime past close, and that scoring from them (asynchronous copies
// on the GPU, blocks reused once their copy is done) gives exactly the scores
// of the caller's own memory, also when reader threads fill them while the
// context scores. Built for the CPU (suite unit) and the GPU (suite gpu).
#include <gtest/gtest.h>

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace {

using testfx::Ctx;
using testfx::open_ctx;

VmafHipSettings small(int w, int h, int bpc, VmafHipChroma chroma)
{
    VmafHipSettings s = testfx::settings(w, h, bpc, chroma, "psnr");
    testfx::set_backend(&s, TEST_BACKEND);
    return s;
}

struct Plane {
    size_t row;
    int rows;
};

// Stored plane sizes (FFmpeg's: ceil for subsampled chroma).
std::vector<Plane> planes_of(int w, int h, int bpc, VmafHipChroma c)
{
    const int bps = bpc > 8 ? 2 : 1;
    const int sx = c == VMAFHIP_CHROMA_420 || c == VMAFHIP_CHROMA_422, sy = c == VMAFHIP_CHROMA_420;
    std::vector<Plane> p{{static_cast<size_t>(w) * bps, h}};
    if (c != VMAFHIP_CHROMA_400)
        for (int i = 0; i < 2; i++)
            p.push_back({static_cast<size_t>((w + sx) >> sx) * bps, (h + sy) >> sy});
    return p;
}

TEST(LentPictures, PackedLayoutIsARawFrame)
{
    struct Case {
        int w, h, bpc;
        VmafHipChroma c;
    } cases[] = {{33, 17, 8, VMAFHIP_CHROMA_420}, {33, 17, 10, VMAFHIP_CHROMA_422},
                 {32, 18, 12, VMAFHIP_CHROMA_444}, {31, 9, 16, VMAFHIP_CHROMA_400}};
    for (const Case &k : cases) {
        const Ctx ctx = open_ctx(small(k.w, k.h, k.bpc, k.c));
        ASSERT_TRUE(ctx);
        VmafHipLentPicture pic;
        ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &pic), 0);
        const std::vector<Plane> planes = planes_of(k.w, k.h, k.bpc, k.c);
        size_t off = 0;
        for (size_t p = 0; p < 3; p++) {
            if (p >= planes.size()) {
                EXPECT_EQ(pic.data[p], nullptr);
                continue;
            }
            EXPECT_EQ(static_cast<uint8_t *>(pic.data[p]), static_cast<uint8_t *>(pic.data[0]) + off);
            EXPECT_EQ(pic.stride[p], static_cast<ptrdiff_t>(planes[p].row));
            off += planes[p].row * planes[p].rows;
        }
        EXPECT_EQ(pic.size, off) << k.w << "x" << k.h << " " << k.bpc << "-bit";
        std::memset(pic.data[0], 0xff, pic.size); // all of it is writable
        vmafhip_picture_release(pic.handle);
    }
}

TEST(LentPictures, AlignedRowsAndPlanes)
{
    const Ctx ctx = open_ctx(small(33, 17, 10, VMAFHIP_CHROMA_420));
    ASSERT_TRUE(ctx);
    for (int align : {2, 64, 4096}) {
        VmafHipLentPicture pic;
        ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), align, &pic), 0);
        const std::vector<Plane> planes = planes_of(33, 17, 10, VMAFHIP_CHROMA_420);
        for (int p = 0; p < 3; p++) {
            EXPECT_EQ(reinterpret_cast<uintptr_t>(pic.data[p]) % align, 0u) << align;
            EXPECT_EQ(pic.stride[p] % align, 0) << align;
            EXPECT_GE(static_cast<size_t>(pic.stride[p]), planes[p].row);
            if (p) {
                EXPECT_GE(static_cast<uint8_t *>(pic.data[p]),
                          static_cast<uint8_t *>(pic.data[p - 1]) + pic.stride[p - 1] * planes[p - 1].rows);
            }
        }
        EXPECT_GE(static_cast<uint8_t *>(pic.data[0]) + pic.size,
                  static_cast<uint8_t *>(pic.data[2]) + pic.stride[2] * planes[2].rows);
        std::memset(pic.data[0], 0, pic.size);
        vmafhip_picture_release(pic.handle);
    }
}

TEST(LentPictures, BadArguments)
{
    const Ctx ctx = open_ctx(small(32, 32, 8, VMAFHIP_CHROMA_420));
    ASSERT_TRUE(ctx);
    VmafHipLentPicture pic;
    for (int align : {0, -64, 3, 96, 8192})
        EXPECT_EQ(vmafhip_picture_borrow(ctx.get(), align, &pic), -EINVAL) << align;
    EXPECT_EQ(vmafhip_picture_borrow(nullptr, 1, &pic), -EINVAL);
    EXPECT_EQ(vmafhip_picture_borrow(ctx.get(), 1, nullptr), -EINVAL);
    vmafhip_picture_release(nullptr);
}

// At most 64 blocks: the 65th borrow says so, and a released block is lent again.
TEST(LentPictures, AtMost64)
{
    const Ctx ctx = open_ctx(small(16, 16, 8, VMAFHIP_CHROMA_420));
    ASSERT_TRUE(ctx);
    std::vector<VmafHipLentPicture> lent(64);
    for (auto &p : lent)
        ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &p), 0);
    VmafHipLentPicture more;
    EXPECT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &more), -EAGAIN);
    vmafhip_picture_release(lent[17].handle);
    ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &more), 0);
    EXPECT_EQ(more.data[0], lent[17].data[0]);
    lent[17] = more;
    for (auto &p : lent)
        vmafhip_picture_release(p.handle);
}

// Beyond two blocks, lent memory stays under 1 GiB: 8192x8192 16-bit 4:4:4
// is 384 MiB a picture. CPU only: the point is the pool's rule, not 1 GiB of
// pinned memory.
TEST(LentPictures, AtMostOneGiBBeyondTwo)
{
    VmafHipSettings s = small(8192, 8192, 16, VMAFHIP_CHROMA_444);
    testfx::set_backend(&s, VMAFHIP_BACKEND_CPU);
    const Ctx ctx = open_ctx(s);
    ASSERT_TRUE(ctx);
    VmafHipLentPicture a, b, c;
    ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &a), 0);
    ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &b), 0);
    EXPECT_EQ(vmafhip_picture_borrow(ctx.get(), 1, &c), -EAGAIN);
    vmafhip_picture_release(a.handle);
    vmafhip_picture_release(b.handle);
}

// A lent picture outlives the context that lent it.
TEST(LentPictures, ReleasedAfterClose)
{
    VmafHipContext *c = nullptr;
    const VmafHipSettings s = small(64, 48, 8, VMAFHIP_CHROMA_420);
    ASSERT_EQ(vmafhip_open(&c, &s), 0);
    VmafHipLentPicture pic;
    ASSERT_EQ(vmafhip_picture_borrow(c, 1, &pic), 0);
    vmafhip_close(&c);
    std::memset(pic.data[0], 1, pic.size);
    vmafhip_picture_release(pic.handle);
}

// Frame i of a clip into a lent picture; bottom_up: the rows stored upside
// down, and the picture to submit is the bottom-up view of them.
VmafHipPicture fill(const testfx::Clip &clip, int i, const VmafHipLentPicture &lent,
                    const std::vector<Plane> &planes, bool bottom_up)
{
    const VmafHipPicture src = clip.picture(i);
    VmafHipPicture out = {};
    for (size_t p = 0; p < planes.size(); p++) {
        uint8_t *dst = static_cast<uint8_t *>(lent.data[p]);
        const int rows = planes[p].rows;
        for (int y = 0; y < rows; y++)
            std::memcpy(dst + (bottom_up ? rows - 1 - y : y) * lent.stride[p],
                        static_cast<const uint8_t *>(src.data[p]) + y * src.stride[p], planes[p].row);
        out.data[p] = bottom_up ? dst + (rows - 1) * lent.stride[p] : dst;
        out.stride[p] = bottom_up ? -lent.stride[p] : lent.stride[p];
    }
    return out;
}

/// Every frame's scores as bit patterns: exact, NaN included.
using Scores = std::vector<std::vector<uint64_t>>;

Scores all_scores(VmafHipContext *ctx)
{
    EXPECT_EQ(vmafhip_flush(ctx), 0) << vmafhip_last_error(ctx);
    const char *const *names;
    const int n = vmafhip_feature_names(ctx, &names);
    Scores out;
    for (unsigned i = 0; i < vmafhip_frame_count(ctx); i++) {
        const double *v = nullptr;
        EXPECT_EQ(vmafhip_frame_scores(ctx, i, 1, &v), 0) << vmafhip_last_error(ctx);
        std::vector<uint64_t> bits(v ? n : 0);
        if (v)
            std::memcpy(bits.data(), v, bits.size() * sizeof(double));
        out.push_back(std::move(bits));
    }
    return out;
}

class LentScores : public ::testing::TestWithParam<testfx::Fixture> {
protected:
    void SetUp() override
    {
        const testfx::Fixture &f = GetParam();
        s_ = testfx::settings_for(f);
        testfx::set_backend(&s_, TEST_BACKEND);
        ref_ = std::make_unique<testfx::Clip>(f.ref, f.w, f.h, f.bpc, f.chroma);
        dis_ = std::make_unique<testfx::Clip>(f.dis, f.w, f.h, f.bpc, f.chroma);
        planes_ = planes_of(f.w, f.h, f.bpc, f.chroma);
        const Ctx ctx = open_ctx(s_);
        ASSERT_TRUE(ctx);
        for (int i = 0; i < ref_->frames(); i++) {
            const VmafHipPicture r = ref_->picture(i), d = dis_->picture(i);
            ASSERT_GE(vmafhip_submit(ctx.get(), &d, &r), 0) << vmafhip_last_error(ctx.get());
        }
        expected_ = all_scores(ctx.get());
    }

    VmafHipSettings s_;
    std::unique_ptr<testfx::Clip> ref_, dis_;
    std::vector<Plane> planes_;
    Scores expected_;
};

// Both pictures lent, released right after submit (so blocks come back while
// their copies may still run), in every layout: packed, aligned, bottom-up;
// and only one of the two lent.
TEST_P(LentScores, SameAsOwnMemory)
{
    struct Way {
        const char *what;
        int align;
        bool bottom_up, lend_dis;
    } ways[] = {{"packed", 1, false, true},
                {"64-aligned", 64, false, true},
                {"bottom-up", 64, true, true},
                {"reference only", 1, false, false}};
    for (const Way &w : ways) {
        const Ctx ctx = open_ctx(s_);
        ASSERT_TRUE(ctx);
        for (int i = 0; i < ref_->frames(); i++) {
            VmafHipLentPicture lr, ld;
            ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), w.align, &lr), 0);
            ASSERT_EQ(vmafhip_picture_borrow(ctx.get(), w.align, &ld), 0);
            const VmafHipPicture r = fill(*ref_, i, lr, planes_, w.bottom_up);
            const VmafHipPicture d = w.lend_dis ? fill(*dis_, i, ld, planes_, w.bottom_up)
                                                : dis_->picture(i);
            ASSERT_GE(vmafhip_submit(ctx.get(), &d, &r), 0) << vmafhip_last_error(ctx.get());
            vmafhip_picture_release(lr.handle);
            vmafhip_picture_release(ld.handle);
        }
        EXPECT_EQ(all_scores(ctx.get()), expected_) << w.what;
    }
}

// The CLI's way: a reader thread per input fills lent pictures and queues
// them; the scoring thread submits and releases.
TEST_P(LentScores, ReaderThreads)
{
    const Ctx ctx = open_ctx(s_);
    ASSERT_TRUE(ctx);
    struct Queue {
        std::mutex m;
        std::condition_variable cv;
        std::deque<std::pair<VmafHipLentPicture, VmafHipPicture>> q;
    } queues[2];
    const testfx::Clip *clips[2] = {ref_.get(), dis_.get()};
    std::vector<std::thread> readers;
    for (int k = 0; k < 2; k++)
        readers.emplace_back([&, k] {
            for (int i = 0; i < clips[k]->frames(); i++) {
                VmafHipLentPicture lent;
                int ret;
                while ((ret = vmafhip_picture_borrow(ctx.get(), 1, &lent)) == -EAGAIN)
                    std::this_thread::yield();
                ASSERT_EQ(ret, 0);
                const VmafHipPicture pic = fill(*clips[k], i, lent, planes_, false);
                std::lock_guard<std::mutex> lock(queues[k].m);
                queues[k].q.emplace_back(lent, pic);
                queues[k].cv.notify_one();
            }
        });
    auto pop = [&](Queue &q) {
        std::unique_lock<std::mutex> lock(q.m);
        q.cv.wait(lock, [&] { return !q.q.empty(); });
        const auto item = q.q.front();
        q.q.pop_front();
        return item;
    };
    for (int i = 0; i < ref_->frames(); i++) {
        const auto r = pop(queues[0]), d = pop(queues[1]);
        EXPECT_GE(vmafhip_submit(ctx.get(), &d.second, &r.second), 0) << vmafhip_last_error(ctx.get());
        vmafhip_picture_release(r.first.handle);
        vmafhip_picture_release(d.first.handle);
    }
    for (auto &t : readers)
        t.join();
    EXPECT_EQ(all_scores(ctx.get()), expected_);
}

std::vector<testfx::Fixture> scored_fixtures()
{
    std::vector<testfx::Fixture> out;
    for (const auto &f : testfx::fixtures()) {
        VmafHipSettings s = testfx::settings_for(f);
        testfx::set_backend(&s, VMAFHIP_BACKEND_CPU);
        VmafHipContext *c = nullptr;
        if (vmafhip_open(&c, &s) == 0)
            out.push_back(f);
        vmafhip_close(&c);
    }
    return out;
}

INSTANTIATE_TEST_SUITE_P(Fixtures, LentScores, ::testing::ValuesIn(scored_fixtures()),
                         [](const auto &info) { return info.param.name; });

} // namespace
