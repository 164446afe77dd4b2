// The CPU reference backend. With one frame in flight it scores each frame
// inside submit(), straight from the caller's planes (from planar copies of
// semi-planar ones), rows split over every thread, and keeps copies of the
// last reference lumas for extractors that read earlier frames (motion), and
// of the last distorted lumas for those that read them too (speed_temporal).
// With more, submit() copies the planes into a ring of owned buffers and
// frame workers score several frames at once, each frame's rows split over
// the worker's share of the threads, so callers (the FFmpeg filter) get the
// same asynchronous behaviour as on the GPU. Whole frames scale over cores
// far better than one frame's rows: a frame has stages too small to split
// (coarse scales, per-row sums), and every split waits for its slowest row.
// Frames finish in any order and are collected in order; the ring is longer
// by the look-behind, so earlier frames' copies are still there when a
// frame reads them (a slot is reused only once every frame that may read it
// is collected). Both rings are indexed by frame number, so a stream may
// start at any frame (take_over()).
#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

#include "base/avx2.h"
#include "base/thread_name.h"
#include "base/thread_pool.h"
#include "core/backend.h"
#include "core/plane_copy.h"

namespace vmafhip {

namespace {

// Largest of n samples: a plain reduction, which the compiler vectorises
// (std::max_element, which returns a position, is not).
inline uint16_t row_max(const uint16_t *r, int n)
{
    uint16_t m = 0;
    for (int x = 0; x < n; x++)
        m = r[x] > m ? r[x] : m;
    return m;
}

using RowMax = uint16_t (*)(const uint16_t *r, int n);

uint16_t row_max_plain(const uint16_t *r, int n) { return row_max(r, n); }

#if defined(__x86_64__)
// The same loop vectorised for AVX2, where the context's CPU flags allow it.
VMAFHIP_AVX2 uint16_t row_max_avx2(const uint16_t *r, int n) { return row_max(r, n); }
#endif

RowMax choose_row_max(unsigned flags)
{
#if defined(__x86_64__)
    if (flags & CPU_FLAG_AVX2)
        return row_max_avx2;
#endif
    (void)flags;
    return row_max_plain;
}

// Largest sample of a plane; only needed above 8 bits (values beyond
// 2^bpc - 1 are rejected, never scored).
uint32_t plane_max(const PlaneView &p, RowMax row_max_of, ThreadPool &pool)
{
    std::vector<uint16_t> rows(static_cast<size_t>(p.h), 0);
    pool.parallel_for(p.h, 64, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++)
            rows[y] = row_max_of(p.row<uint16_t>(y), p.w);
    });
    return rows.empty() ? 0 : *std::max_element(rows.begin(), rows.end());
}

void score(const Metrics &m, const FrameView &f, bool scored, ThreadPool &pool, uint8_t *accum)
{
    std::memset(accum, 0, m.accum_bytes);
    FrameHeader h{};
    if (m.g.range_checked()) {
        const RowMax row_max_of = choose_row_max(m.cpu_flags);
        for (int p = 0; p < m.planes; p++)
            h.max_sample = std::max({h.max_sample, plane_max(f.ref[p], row_max_of, pool),
                                     plane_max(f.dis[p], row_max_of, pool)});
        std::memcpy(accum, &h, sizeof h);
        if (h.max_sample > m.g.max_sample())
            return; // the core reports the range error; nothing to score
    }
    for (const Instance &x : m.ext)
        if (scored || x.ext->every_frame())
            x.ext->cpu(f, accum + x.accum_offset, pool);
}

/// g as the metrics read its pictures: planar, samples in the low bits.
Geometry planar_geometry(Geometry g)
{
    g.layout = VMAFHIP_LAYOUT_PLANAR;
    return g;
}

// Frames scored at once: from 4 threads on, one per two threads, each
// frame's rows split over its two (on 16 cores, 8 frames of two threads
// score 1080p as fast as 16 of one, and 4K a quarter faster: half as much
// scratch competes for caches and memory bandwidth); below, one per thread
// (on 2 cores, two frames of one thread score 1080p 8-bit vmaf_v0.6.1 5 %
// and vmaf_v1.0.16_3d0h 30 % faster than one frame of two: a frame has
// serial stages, CAMBI's most). No more than frames in flight, nor than 16
// (each holds its own scratch, some 40 MB at 4K).
int frame_workers(int threads, int depth)
{
    return std::clamp(threads < 4 ? threads : threads / 2, 1, std::min(depth, 16));
}

// queue_depth 0: one thread scores inside submit(); more keep a frame per
// worker in flight and two more, so that no worker waits for the caller.
int cpu_auto_depth(int threads)
{
    return threads == 1 ? 1 : std::min(frame_workers(threads, kMaxQueueDepth) + 2, kMaxQueueDepth);
}

class CpuBackend final : public Backend {
public:
    CpuBackend(const Metrics &m, int threads, int depth)
        : m_(m), depth_(depth), jobs_(static_cast<size_t>(depth > 1 ? depth + m.lookbehind : 1))
    {
        for (Job &j : jobs_)
            j.accum.resize(m.accum_bytes);
        if (depth == 1) {
            pool_ = std::make_unique<ThreadPool>(threads, "vmafhip-cpu");
            history_.resize(static_cast<size_t>(m.lookbehind));
            return;
        }
        const int n = frame_workers(threads, depth);
        try {
            for (int i = 0; i < n; i++) {
                pools_.push_back(std::make_unique<ThreadPool>(std::max(1, threads / n), "vmafhip-cpu"));
                workers_.emplace_back([this, p = pools_.back().get()] { work(*p); });
            }
        } catch (...) {
            stop_workers();
            throw;
        }
    }

    ~CpuBackend() override { stop_workers(); }

    const std::string &name() const override { return name_; }
    int depth() const override { return depth_; }

    int submit(const FrameView &f, bool scored, void *const *, std::string *) override
    {
        Job &j = jobs_[f.index % jobs_.size()];
        if (workers_.empty()) {
            FrameView v = f;
            if (m_.g.semi_planar()) { // the metrics read planar pictures
                converted_[0].assign(f.ref, m_.g, m_.planes, v.ref);
                converted_[1].assign(f.dis, m_.g, m_.planes, v.dis);
            }
            for (int k = 0; k < m_.lookbehind; k++)
                if (f.index > static_cast<unsigned>(k)) {
                    history_[(f.index - 1 - k) % history_.size()].views(
                        &v.prev_ref[k], v.prev_ref_chroma[k], &v.prev_dis[k]);
                }
            score(m_, v, scored, *pool_, j.accum.data());
            // v is planar already: kept as it is, semi-planar chroma not split again.
            if (!history_.empty())
                history_[f.index % history_.size()].assign(v.ref, v.dis[0], planar_,
                                                           m_.lookbehind_chroma, m_.lookbehind_dis);
            return 0;
        }
        own_copy(f, &j);
        for (int k = 0; k < m_.lookbehind; k++)
            if (f.index > static_cast<unsigned>(k)) {
                const FrameView &e = jobs_[(f.index - 1 - k) % jobs_.size()].view;
                j.view.prev_ref[k] = e.ref[0];
                if (m_.lookbehind_chroma)
                    for (int c = 0; c < 2; c++)
                        j.view.prev_ref_chroma[k][c] = e.ref[1 + c];
                j.view.prev_dis[k] = e.dis[0];
            }
        {
            std::lock_guard<std::mutex> lock(mutex_);
            j.scored = scored;
            j.state = Job::QUEUED;
        }
        wake_.notify_all();
        return 0;
    }

    int take_over(unsigned index, const EarlierPictures &earlier, std::string *) override
    {
        const int bps = m_.g.bytes_per_sample();
        tail_ = index;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            next_ = index;
        }
        for (int k = 0; k < earlier.n; k++) {
            const unsigned i = index - 1 - static_cast<unsigned>(k);
            if (workers_.empty()) {
                const PlaneView ref[3] = {earlier.ref[k], earlier.ref_chroma[k][0],
                                          earlier.ref_chroma[k][1]};
                history_[i % history_.size()].assign(ref, earlier.dis[k], planar_,
                                                     m_.lookbehind_chroma, m_.lookbehind_dis);
                continue;
            }
            // Handed over only where an extractor reads them: the other
            // planes stay empty.
            Job &j = jobs_[i % jobs_.size()];
            j.ref.p[0].assign(earlier.ref[k], bps);
            j.view.ref[0] = j.ref.p[0].view;
            if (m_.lookbehind_chroma)
                for (int c = 0; c < 2; c++) {
                    j.ref.p[1 + c].assign(earlier.ref_chroma[k][c], bps);
                    j.view.ref[1 + c] = j.ref.p[1 + c].view;
                }
            j.view.dis[0] = PlaneView{};
            if (m_.lookbehind_dis) {
                j.dis.p[0].assign(earlier.dis[k], bps);
                j.view.dis[0] = j.dis.p[0].view;
            }
        }
        return 0;
    }

    int collect(bool wait, uint8_t *accum, std::string *err) override
    {
        Job &j = jobs_[tail_ % jobs_.size()];
        if (!workers_.empty()) {
            std::unique_lock<std::mutex> lock(mutex_);
            if (!wait && j.state != Job::DONE)
                return -EAGAIN;
            done_.wait(lock, [&] { return j.state == Job::DONE; });
            j.state = Job::FREE;
            if (j.failed) {
                *err = strprintf("out of host memory while scoring frame %u on the CPU", tail_);
                return -ENOMEM;
            }
        }
        std::memcpy(accum, j.accum.data(), m_.accum_bytes);
        tail_++;
        return 0;
    }

private:
    struct Job {
        enum State { FREE, QUEUED, RUNNING, DONE } state = FREE;
        PictureCopy ref, dis; ///< owned planar copies of the pictures
        FrameView view;
        bool scored = true;
        bool failed = false; ///< scoring ran out of memory (a worker's own scratch)
        std::vector<uint8_t> accum;
    };

    // Copies the planes of f into j's buffers (allocated on first use).
    void own_copy(const FrameView &f, Job *j)
    {
        j->view = FrameView{};
        j->view.index = f.index;
        j->ref.assign(f.ref, m_.g, m_.planes, j->view.ref);
        j->dis.assign(f.dis, m_.g, m_.planes, j->view.dis);
    }

    // A frame worker: takes the oldest queued frame, scores it on its pool.
    void work(ThreadPool &pool)
    {
        name_this_thread("vmafhip-frame");
        for (;;) {
            Job *j;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || jobs_[next_ % jobs_.size()].state == Job::QUEUED; });
                if (stop_)
                    return;
                j = &jobs_[next_ % jobs_.size()];
                j->state = Job::RUNNING;
                next_++;
            }
            bool failed = false;
            try {
                score(m_, j->view, j->scored, pool, j->accum.data());
            } catch (const std::bad_alloc &) {
                failed = true; // collect() reports it, in frame order
            }
            {
                std::lock_guard<std::mutex> lock(mutex_);
                j->failed = failed;
                j->state = Job::DONE;
            }
            done_.notify_all();
        }
    }

    void stop_workers()
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread &t : workers_)
            t.join();
    }

    const Metrics &m_;
    const int depth_;
    std::vector<Job> jobs_;
    std::unique_ptr<ThreadPool> pool_; ///< every thread, on one frame (one frame in flight)
    std::vector<KeptPlanes> history_;  ///< the last frames' planes the metrics read (one frame in flight)
    const Geometry planar_ = planar_geometry(m_.g); ///< how the metrics read the pictures
    PictureCopy converted_[2];         ///< [ref, dis] made planar (one frame in flight)
    unsigned tail_ = 0;                ///< the next frame to collect
    unsigned next_ = 0;                ///< the next frame a worker starts, under mutex_
    std::vector<std::unique_ptr<ThreadPool>> pools_; ///< one per frame worker
    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    bool stop_ = false;
    const std::string name_ = "cpu";
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend(const Metrics &m, int threads, int depth)
{
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    if (depth <= 0)
        depth = cpu_auto_depth(threads);
    return std::make_unique<CpuBackend>(m, threads, depth);
}

} // namespace vmafhip
