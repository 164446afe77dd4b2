// A stream handed over from the CPU backend to a backend made meanwhile
// (core/backend_handover.cpp), at every frame: each frame's scores are those
// of the backend that scored it, the look-behinds across the handover
// included (motion's reference lumas, speed_temporal's distorted ones too,
// float_motion's reference chroma). Built for the CPU suite (the next
// backend is another CPU backend) and, with TEST_BACKEND=VMAFHIP_BACKEND_HIP,
// for the GPU suite (the GPU backend).
#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <mutex>
#include <thread>

#include "core/backend.h"
#include "core/host_memory.h"
#include "core/lent_pictures.h"
#include "core/metrics.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/frame_view.h"
#include "tests/common/semi_planar.h"

using namespace vmafhip;

namespace {

/// The next backend's making begins with the handover backend.
constexpr std::chrono::milliseconds kNow{0};

// Motion with its two-frame look-behind, speed_temporal reading the previous
// distorted luma too, float_motion the previous reference chroma, the other
// extractors, and the model.
const char *const kFeatures =
    "psnr|float_ssim|adm|vif|motion=motion_five_frame_window=true|speed_chroma|speed_temporal|"
    "float_motion=motion_add_scale1=true:motion_add_uv=true";

/// The frames of a fixture pair, as given to the backends: planar, or
/// semi-planar with samples in the high bits (p010), where the first
/// backend keeps the look-behind lumas shifted down for the next one.
struct Stream {
    testfx::Fixture f;
    VmafHipSettings s;
    std::vector<VmafHipPicture> ref, dis;
    std::vector<std::unique_ptr<testfx::SemiPlanar>> keep;
    testfx::Clip ref_clip, dis_clip;

    Stream(const std::string &fixture, VmafHipLayout layout)
        : f(testfx::fixture(fixture)), s(testfx::settings(f.w, f.h, f.bpc, f.chroma, kFeatures)),
          ref_clip(f.ref, f.w, f.h, f.bpc, f.chroma), dis_clip(f.dis, f.w, f.h, f.bpc, f.chroma)
    {
        s.models = "version=vmaf_v0.6.1";
        s.layout = layout;
        std::mt19937 rng(3);
        for (int i = 0; i < f.frames; i++)
            for (int k = 0; k < 2; k++) {
                const VmafHipPicture planar = (k ? dis_clip : ref_clip).picture(i);
                if (layout != VMAFHIP_LAYOUT_PLANAR) {
                    keep.push_back(std::make_unique<testfx::SemiPlanar>(planar, f, 16 - f.bpc, 0, rng));
                    (k ? dis : ref).push_back(keep.back()->pic);
                } else {
                    (k ? dis : ref).push_back(planar);
                }
            }
    }
    int frames() const { return f.frames; }
};

const Stream &stream(int which)
{
    static const Stream planar("natural1_576x324_yuv420p__ref_vs_x264crf38", VMAFHIP_LAYOUT_PLANAR);
    static const Stream p010("natural2_352x288_yuv420p10le__ref_vs_x265crf32", VMAFHIP_LAYOUT_NV_MSB);
    return which ? p010 : planar;
}

/// The metrics of one run (finishing a frame updates extractor state).
std::unique_ptr<Metrics> metrics(const Stream &st)
{
    auto m = std::make_unique<Metrics>();
    std::string err;
    EXPECT_EQ(metrics_create(st.s, Logger(), m.get(), &err), 0) << err;
    return m;
}

/// The backend a handover hands over to in this suite.
std::unique_ptr<Backend> next_backend(const Stream &st, const Metrics &m,
                                      const std::atomic<bool> *cancel, int *ret, std::string *err)
{
    if (TEST_BACKEND == VMAFHIP_BACKEND_HIP)
        return make_hip_backend(m, st.s, Logger(), ret, err, HipTuning(), cancel);
    return make_cpu_backend(m, 2, 1);
}

/// Every frame's scores through backend b, as a context makes them; before
/// frame `handover_at`, open() and wait until b hands over there.
std::vector<std::vector<double>> run(const Stream &st, Metrics &m, Backend &b, int handover_at = -1,
                                     const std::function<void()> &open = nullptr)
{
    const int frames = st.frames();
    std::vector<std::vector<double>> rows(frames, std::vector<double>(m.names.size()));
    std::vector<uint8_t> accum(m.accum_bytes);
    std::string err;
    unsigned submitted = 0, collected = 0;
    auto collect_one = [&] {
        EXPECT_EQ(b.collect(true, accum.data(), &err), 0) << err;
        metrics_finish(m, collected, accum.data(), rows[collected].data());
        collected++;
    };
    for (int i = 0; i < frames; i++) {
        if (i == handover_at) {
            open();
            for (int t = 0; t < 20000 && !b.handover_ready(); t++)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            EXPECT_TRUE(b.handover_ready());
        }
        while (submitted - collected >= static_cast<unsigned>(b.depth()))
            collect_one();
        const FrameView f = testfx::view_of(m.g, st.ref[i], st.dis[i], m.planes, submitted);
        EXPECT_EQ(b.submit(f, true, kNotLent, &err), 0) << err;
        submitted++;
    }
    while (collected < submitted)
        collect_one();
    for (unsigned i = 0; i < submitted; i++)
        metrics_complete(m, i, submitted, rows[i].data());
    return rows;
}

/// Frame i of st through b, one frame in flight: submitted and collected.
void score_one(Backend &b, const Metrics &m, const Stream &st, unsigned i)
{
    std::string err;
    std::vector<uint8_t> accum(m.accum_bytes);
    ASSERT_EQ(b.submit(testfx::view_of(m.g, st.ref[i], st.dis[i], m.planes, i), true, kNotLent, &err), 0) << err;
    ASSERT_EQ(b.collect(true, accum.data(), &err), 0) << err;
}

/// Makes CPU backends, counting them.
BackendMaker counting_maker(const Metrics &m, std::atomic<int> &made)
{
    return [&m, &made](const std::atomic<bool> &, const Logger &, int *, std::string *) {
        made++;
        return make_cpu_backend(m, 1, 1);
    };
}

/// Holds the making of the next backend until released (or cancelled).
struct Gate {
    std::mutex m;
    std::condition_variable cv;
    bool open = false;

    void release()
    {
        std::lock_guard<std::mutex> lock(m);
        open = true;
        cv.notify_all();
    }
    void wake()
    {
        std::lock_guard<std::mutex> lock(m);
        cv.notify_all();
    }
    /// @return false when cancelled first
    bool pass(const std::atomic<bool> &cancel)
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return open || cancel.load(); });
        return open;
    }
};

/// A handover from a CPU backend with frames in flight to next_backend(),
/// made once the gate opens. The next backend runs extractors of their own
/// (m_next, made as m): the CPU backends keep scratch memory in them, and the
/// first one may still score while the next one does.
std::unique_ptr<Backend> handover(const Stream &st, const Metrics &m, const Metrics &m_next, Gate &gate)
{
    BackendMaker make = [&st, &m_next, &gate](const std::atomic<bool> &cancel, const Logger &,
                                              int *ret, std::string *err) -> std::unique_ptr<Backend> {
        if (!gate.pass(cancel)) {
            *ret = -ECANCELED;
            *err = "cancelled";
            return nullptr;
        }
        return next_backend(st, m_next, &cancel, ret, err);
    };
    return make_handover_backend(m, make_cpu_backend(m, 2, 4), make, [&gate] { gate.wake(); },
                                 Logger(), true, kNow);
}

/// The scores of every frame on the CPU alone and on the next backend alone.
struct Wanted {
    std::vector<std::vector<double>> cpu, next;
    std::string next_name;
};

const Wanted &wanted(int which)
{
    static std::map<int, Wanted> cache;
    auto it = cache.find(which);
    if (it != cache.end())
        return it->second;
    const Stream &st = stream(which);
    Wanted &r = cache[which];
    auto m_cpu = metrics(st), m_next = metrics(st);
    auto cpu = make_cpu_backend(*m_cpu, 2, 1);
    int ret = 0;
    std::string err;
    auto next = next_backend(st, *m_next, nullptr, &ret, &err);
    EXPECT_TRUE(next) << err;
    if (!next)
        return r;
    r.cpu = run(st, *m_cpu, *cpu);
    r.next = run(st, *m_next, *next);
    r.next_name = next->name();
    return r;
}

/// (stream, frame of the handover; the stream's length: never).
class HandoverAt : public ::testing::TestWithParam<std::tuple<int, int>> {};

TEST_P(HandoverAt, EachFrameScoredByOneBackend)
{
    const Stream &st = stream(std::get<0>(GetParam()));
    const int at = std::min(std::get<1>(GetParam()), st.frames());
    const Wanted &w = wanted(std::get<0>(GetParam()));
    ASSERT_FALSE(w.next.empty());
    auto m = metrics(st), m_handover_next = metrics(st);
    Gate gate;
    auto b = handover(st, *m, *m_handover_next, gate);
    const auto got = run(st, *m, *b, at, [&gate] { gate.release(); });
    for (int i = 0; i < st.frames(); i++) {
        const auto &want = i < at ? w.cpu[i] : w.next[i];
        for (size_t c = 0; c < m->names.size(); c++)
            EXPECT_EQ(std::memcmp(&got[i][c], &want[c], sizeof(double)), 0)
                << "frame " << i << " " << m->names[c] << ": " << got[i][c] << " against "
                << want[c] << " (handover at frame " << at << ")";
    }
    // Never released: the context closes while the next backend waits.
    EXPECT_EQ(b->name(), at < st.frames() ? w.next_name : "cpu while the GPU starts");
}

// 0: before the first frame; 1, 2: fewer earlier frames than motion's
// look-behind; 5: within; 99: never (the first backend scores all).
INSTANTIATE_TEST_SUITE_P(Frames, HandoverAt,
                         ::testing::Combine(::testing::Values(0, 1), ::testing::Values(0, 1, 2, 5, 99)));

// A next backend that cannot be made: required, the submit that would hand
// over fails with its error; otherwise one warning and the CPU scores on.
TEST(Handover, NextBackendFails)
{
    for (const bool required : {true, false}) {
        const Stream &st = stream(0);
        auto m = metrics(st);
        testfx::LogLines log;
        BackendMaker fail = [](const std::atomic<bool> &, const Logger &l, int *ret, std::string *err) {
            l.log(VMAFHIP_LOG_INFO, "trying\n");
            *ret = -ENODEV;
            *err = "no usable GPU: planted";
            return std::unique_ptr<Backend>();
        };
        auto b = make_handover_backend(*m, make_cpu_backend(*m, 2, 4), fail, [] {},
                                       Logger(testfx::collect_log, &log, VMAFHIP_LOG_DEBUG), required, kNow);
        for (int t = 0; t < 20000 && !b->handover_ready(); t++)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        ASSERT_TRUE(b->handover_ready());
        const FrameView f = testfx::view_of(m->g, st.ref[0], st.dis[0], m->planes, 0);
        std::string err;
        if (required) {
            EXPECT_EQ(b->submit(f, true, kNotLent, &err), -ENODEV);
            EXPECT_EQ(err, "no usable GPU: planted");
            continue;
        }
        ASSERT_EQ(b->submit(f, true, kNotLent, &err), 0) << err;
        EXPECT_FALSE(b->handover_ready());
        std::vector<uint8_t> accum(m->accum_bytes);
        EXPECT_EQ(b->collect(true, accum.data(), &err), 0) << err;
        ASSERT_EQ(log.lines.size(), 2u);
        EXPECT_EQ(log.lines[0], "trying\n"); // the maker's message, on this thread
        EXPECT_EQ(log.lines[1], "no GPU backend: no usable GPU: planted; scoring on the CPU instead\n");
        EXPECT_EQ(b->name(), "cpu while the GPU starts");
    }
}

// With a start delay, the next backend is not made for a stream whose frames
// all come within it (the GPU would not start for a short clip), and is made
// at the first submit after it.
TEST(Handover, MakingBeginsOnceTheStreamHasLasted)
{
    const Stream &st = stream(0);
    auto m = metrics(st);
    std::atomic<int> made{0};
    const auto delay = std::chrono::milliseconds(50);
    auto b = make_handover_backend(*m, make_cpu_backend(*m, 2, 4), counting_maker(*m, made), [] {}, Logger(),
                                   true, delay);
    const auto t0 = std::chrono::steady_clock::now();
    score_one(*b, *m, st, 0);
    const bool quick = std::chrono::steady_clock::now() - t0 < delay / 2;
    score_one(*b, *m, st, 1);
    // Time alone begins nothing: only a submit does.
    std::this_thread::sleep_for(delay);
    if (quick) { // else the second submit may have come after the delay
        EXPECT_EQ(made, 0);
    }
    score_one(*b, *m, st, 2); // begins the making, if the second submit did not
    // Ready, or (where the second submit began it) handed over already.
    const auto switched = [&] { return b->name() == "cpu"; };
    for (int t = 0; t < 20000 && !b->handover_ready() && !switched(); t++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(b->handover_ready() || switched());
    EXPECT_EQ(made, 1);
    score_one(*b, *m, st, 3); // on the next backend
    EXPECT_TRUE(switched());
}

// With one, a stream that ends within it never makes the next backend.
TEST(Handover, NoMakingForAStreamWithinTheDelay)
{
    const Stream &st = stream(0);
    auto m = metrics(st);
    std::atomic<int> made{0};
    {
        auto b = make_handover_backend(*m, make_cpu_backend(*m, 2, 4), counting_maker(*m, made), [] {},
                                       Logger(), true, std::chrono::hours(1));
        for (unsigned i = 0; i < 3; i++)
            score_one(*b, *m, st, i);
        EXPECT_FALSE(b->handover_ready());
        EXPECT_EQ(b->name(), "cpu while the GPU starts");
    }
    EXPECT_EQ(made, 0);
}

// What the next backend logs: while it is made, kept and logged on the
// caller's thread at the handover, with a line that says where it fell;
// after, straight to the caller's log.
TEST(Handover, NextBackendsMessagesReachTheCallersLog)
{
    // A CPU backend that logs at every submit through the logger it was made with.
    struct Talking final : Backend {
        std::unique_ptr<Backend> cpu;
        Logger log;
        Talking(const Metrics &m, const Logger &l) : cpu(make_cpu_backend(m, 1, 1)), log(l) {}
        const std::string &name() const override { return cpu->name(); }
        int depth() const override { return cpu->depth(); }
        int submit(const FrameView &f, bool s, void *const fence[2], std::string *e) override
        {
            log.log(VMAFHIP_LOG_INFO, "frame %u\n", f.index);
            return cpu->submit(f, s, fence, e);
        }
        int take_over(unsigned i, const EarlierPictures &p, std::string *e) override
        {
            return cpu->take_over(i, p, e);
        }
        int collect(bool w, uint8_t *a, std::string *e) override { return cpu->collect(w, a, e); }
    };
    const Stream &st = stream(0);
    auto m = metrics(st);
    testfx::LogLines log;
    Gate gate;
    BackendMaker make = [&m, &gate](const std::atomic<bool> &cancel, const Logger &l, int *, std::string *) {
        gate.pass(cancel);
        l.log(VMAFHIP_LOG_INFO, "made\n");
        return std::unique_ptr<Backend>(new Talking(*m, l));
    };
    auto b = make_handover_backend(*m, make_cpu_backend(*m, 2, 4), make, [&gate] { gate.wake(); },
                                   Logger(testfx::collect_log, &log, VMAFHIP_LOG_DEBUG), true, kNow);
    score_one(*b, *m, st, 0); // on the first backend
    gate.release();
    for (int t = 0; t < 20000 && !b->handover_ready(); t++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(b->handover_ready());
    EXPECT_TRUE(log.lines.empty()); // nothing from the making thread yet
    score_one(*b, *m, st, 1);
    score_one(*b, *m, st, 2);
    const std::vector<std::string> want = {"made\n",
                                           "frames 0 to 0 scored on cpu while the GPU starts; cpu from frame 1 on\n",
                                           "frame 1\n", "frame 2\n"};
    EXPECT_EQ(log.lines, want);
}

// Pictures lent before the handover come from the first backend's memory and
// are freed once given back afterwards; later ones come from the next
// backend's.
TEST(Handover, LentPicturesMoveToTheNextBackendsMemory)
{
    // Counts the blocks of one memory.
    struct Counted final : HostMemory {
        std::shared_ptr<HostMemory> plain = make_plain_host_memory();
        std::atomic<int> live{0}, made{0};
        uint8_t *alloc(size_t bytes) override
        {
            live++, made++;
            return plain->alloc(bytes);
        }
        void free(uint8_t *p) override
        {
            live--;
            plain->free(p);
        }
        int new_fence(void **fence) override { return plain->new_fence(fence); }
        void delete_fence(void *fence) override { plain->delete_fence(fence); }
        bool fence_done(void *fence, bool wait) override { return plain->fence_done(fence, wait); }
    };
    // A CPU backend lending from a Counted memory.
    struct Lending final : Backend {
        std::unique_ptr<Backend> cpu;
        std::shared_ptr<Counted> mem = std::make_shared<Counted>();
        explicit Lending(const Metrics &m) : cpu(make_cpu_backend(m, 1, 1)) {}
        const std::string &name() const override { return cpu->name(); }
        int depth() const override { return cpu->depth(); }
        int submit(const FrameView &f, bool s, void *const fence[2], std::string *e) override
        {
            return cpu->submit(f, s, fence, e);
        }
        int take_over(unsigned i, const EarlierPictures &p, std::string *e) override
        {
            return cpu->take_over(i, p, e);
        }
        std::shared_ptr<HostMemory> host_memory() const override { return mem; }
        int collect(bool w, uint8_t *a, std::string *e) override { return cpu->collect(w, a, e); }
    };
    auto m = metrics(stream(0));
    auto first = std::make_unique<Lending>(*m);
    std::shared_ptr<Counted> early = first->mem, late;
    Gate gate;
    BackendMaker make = [&](const std::atomic<bool> &cancel, const Logger &, int *, std::string *) {
        gate.pass(cancel);
        auto b = std::make_unique<Lending>(*m);
        late = b->mem;
        return std::unique_ptr<Backend>(std::move(b));
    };
    auto b = make_handover_backend(*m, std::move(first), make, [&gate] { gate.wake(); }, Logger(), true, kNow);
    auto pool = std::make_shared<LentPictures>(b->host_memory(), m->g);
    VmafHipLentPicture p1, p2;
    ASSERT_EQ(pool->borrow(1, &p1), 0);
    ASSERT_EQ(pool->borrow(1, &p2), 0);
    EXPECT_EQ(early->live, 2);
    gate.release();
    for (int t = 0; t < 20000 && !b->handover_ready(); t++)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ASSERT_TRUE(b->handover_ready());
    LentPictures::release(p1.handle);
    // p1's block is not reused: it goes, and the next backend's memory lends.
    VmafHipLentPicture p3;
    ASSERT_EQ(pool->borrow(1, &p3), 0);
    EXPECT_EQ(early->live, 1);
    EXPECT_EQ(late->made, 1);
    LentPictures::release(p2.handle);
    LentPictures::release(p3.handle);
    ASSERT_EQ(pool->borrow(1, &p1), 0);
    EXPECT_EQ(early->live, 0);
    EXPECT_EQ(late->made, 1); // p3's block again
    LentPictures::release(p1.handle);
}

} // namespace
