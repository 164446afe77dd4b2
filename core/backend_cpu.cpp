// The CPU reference backend. With one frame in flight it scores each frame
// inside submit(), straight from the caller's planes (from planar copies of
// semi-planar ones), and keeps copies of the last reference lumas for
// extractors that read earlier frames (motion).
// With more, submit() copies the planes into a ring of owned buffers and a
// worker thread scores them in order, so callers (the FFmpeg filter) get the
// same asynchronous behaviour as on the GPU; the ring is longer by the
// look-behind, so earlier frames' copies are still there when a frame reads
// them. Both rings are indexed by frame number, so a stream may start at any
// frame (take_over()). Rows of one frame are split over the thread pool
// either way.
#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "base/cpu_clones.h"
#include "base/thread_pool.h"
#include "core/backend.h"
#include "core/plane_copy.h"

namespace vmafhip {

namespace {

// Largest of n samples: a plain reduction, which the compiler vectorises
// (std::max_element, which returns a position, is not).
VMAFHIP_CPU_CLONES uint16_t row_max(const uint16_t *r, int n)
{
    uint16_t m = 0;
    for (int x = 0; x < n; x++)
        m = r[x] > m ? r[x] : m;
    return m;
}

// Largest sample of a plane; only needed above 8 bits (values beyond
// 2^bpc - 1 are rejected, never scored).
uint32_t plane_max(const PlaneView &p, ThreadPool &pool)
{
    std::vector<uint16_t> rows(static_cast<size_t>(p.h), 0);
    pool.parallel_for(p.h, 64, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++)
            rows[y] = row_max(p.row<uint16_t>(y), p.w);
    });
    return rows.empty() ? 0 : *std::max_element(rows.begin(), rows.end());
}

void score(const Metrics &m, const FrameView &f, bool scored, ThreadPool &pool, uint8_t *accum)
{
    std::memset(accum, 0, m.accum_bytes);
    FrameHeader h{};
    if (m.g.range_checked()) {
        for (int p = 0; p < m.planes; p++)
            h.max_sample = std::max({h.max_sample, plane_max(f.ref[p], pool), plane_max(f.dis[p], pool)});
        std::memcpy(accum, &h, sizeof h);
        if (h.max_sample > m.g.max_sample())
            return; // the core reports the range error; nothing to score
    }
    for (const Instance &x : m.ext)
        if (scored || x.ext->every_frame())
            x.ext->cpu(f, accum + x.accum_offset, pool);
}

class CpuBackend final : public Backend {
public:
    CpuBackend(const Metrics &m, int threads, int depth)
        : m_(m), pool_(threads), depth_(depth),
          jobs_(static_cast<size_t>(depth > 1 ? depth + m.lookbehind : 1))
    {
        for (Job &j : jobs_)
            j.accum.resize(m.accum_bytes);
        if (depth > 1)
            worker_ = std::thread([this] { work(); });
        else
            history_.resize(static_cast<size_t>(m.lookbehind));
    }

    ~CpuBackend() override
    {
        if (!worker_.joinable())
            return;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        worker_.join();
    }

    const std::string &name() const override { return name_; }
    int depth() const override { return depth_; }

    int submit(const FrameView &f, bool scored, void *const *, std::string *) override
    {
        Job &j = jobs_[f.index % jobs_.size()];
        if (!worker_.joinable()) {
            FrameView v = f;
            if (m_.g.semi_planar()) { // the metrics read planar pictures
                converted_[0].assign(f.ref, m_.g, m_.planes, v.ref);
                converted_[1].assign(f.dis, m_.g, m_.planes, v.dis);
            }
            for (int k = 0; k < m_.lookbehind; k++)
                if (f.index > static_cast<unsigned>(k))
                    v.prev_ref[k] = history_[(f.index - 1 - k) % history_.size()].view;
            score(m_, v, scored, pool_, j.accum.data());
            if (!history_.empty())
                history_[f.index % history_.size()].assign(v.ref[0], m_.g.bytes_per_sample());
            return 0;
        }
        own_copy(f, &j);
        for (int k = 0; k < m_.lookbehind; k++)
            if (f.index > static_cast<unsigned>(k))
                j.view.prev_ref[k] = jobs_[(f.index - 1 - k) % jobs_.size()].view.ref[0];
        {
            std::lock_guard<std::mutex> lock(mutex_);
            j.scored = scored;
            j.state = Job::QUEUED;
        }
        wake_.notify_all();
        return 0;
    }

    int take_over(unsigned index, const PlaneView *prev, int n, std::string *) override
    {
        const int bps = m_.g.bytes_per_sample();
        tail_ = index;
        {
            std::lock_guard<std::mutex> lock(mutex_);
            next_ = index;
        }
        for (int k = 0; k < n; k++) {
            const unsigned i = index - 1 - static_cast<unsigned>(k);
            if (!worker_.joinable()) {
                history_[i % history_.size()].assign(prev[k], bps);
                continue;
            }
            Job &j = jobs_[i % jobs_.size()];
            j.ref.p[0].assign(prev[k], bps);
            j.view.ref[0] = j.ref.p[0].view;
        }
        return 0;
    }

    int collect(bool wait, uint8_t *accum, std::string *) override
    {
        Job &j = jobs_[tail_ % jobs_.size()];
        if (worker_.joinable()) {
            std::unique_lock<std::mutex> lock(mutex_);
            if (!wait && j.state != Job::DONE)
                return -EAGAIN;
            done_.wait(lock, [&] { return j.state == Job::DONE; });
            j.state = Job::FREE;
        }
        std::memcpy(accum, j.accum.data(), m_.accum_bytes);
        tail_++;
        return 0;
    }

private:
    struct Job {
        enum State { FREE, QUEUED, DONE } state = FREE;
        PictureCopy ref, dis; ///< owned planar copies of the pictures
        FrameView view;
        bool scored = true;
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

    void work()
    {
        for (;;) {
            Job *j;
            {
                std::unique_lock<std::mutex> lock(mutex_);
                wake_.wait(lock, [&] { return stop_ || jobs_[next_ % jobs_.size()].state == Job::QUEUED; });
                if (stop_)
                    return;
                j = &jobs_[next_ % jobs_.size()];
            }
            score(m_, j->view, j->scored, pool_, j->accum.data());
            {
                std::lock_guard<std::mutex> lock(mutex_);
                j->state = Job::DONE;
                next_++;
            }
            done_.notify_all();
        }
    }

    const Metrics &m_;
    ThreadPool pool_;
    const int depth_;
    std::vector<Job> jobs_;
    std::vector<PlaneCopy> history_; ///< last reference lumas (one frame in flight)
    PictureCopy converted_[2];       ///< [ref, dis] made planar (one frame in flight)
    unsigned tail_ = 0;              ///< the next frame to collect
    unsigned next_ = 0;              ///< the next frame the worker scores, under mutex_
    std::thread worker_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    bool stop_ = false;
    const std::string name_ = "cpu";
};

} // namespace

std::unique_ptr<Backend> make_cpu_backend(const Metrics &m, int threads, int depth)
{
    return std::make_unique<CpuBackend>(m, threads, std::max(depth, 1));
}

} // namespace vmafhip
