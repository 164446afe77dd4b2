// Scoring while the GPU starts. The GPU runtime's start takes a few hundred
// milliseconds, longer than a short clip takes on the CPU; so the frames
// submitted before the GPU backend is ready are scored by the CPU backend,
// and the GPU backend, made on a thread of its own, takes over at the first
// submit after it is ready. Its making begins once the stream has lasted a
// little (kGpuStartAfter): a process that ends while the driver starts
// waits for that start, so a clip that is over by then never starts it.
// Both backends give the same accumulators (they are bit-exact), so the
// scores do not depend on where the handover falls.
// The taker-over starts at that frame with the reference lumas of the frames
// before it (motion reads them), and their distorted lumas where an
// extractor reads those too (speed_temporal), which this side keeps while it
// scores.
//
// Messages of the making thread are kept and logged on the caller's thread
// at the handover (the log callback is only called from the caller's
// threads). Pictures the context lends come from plain memory until the GPU
// backend exists and from its pinned memory after; plain blocks are freed as
// they come back.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "core/backend.h"
#include "core/plane_copy.h"

namespace vmafhip {

namespace {

/// The first backend's host memory, then the next one's once it exists.
class HandoverMemory final : public HostMemory {
public:
    explicit HandoverMemory(std::shared_ptr<HostMemory> early) : early_(std::move(early)) {}

    void set_late(std::shared_ptr<HostMemory> late)
    {
        std::lock_guard<std::mutex> lock(m_);
        late_ = std::move(late);
    }

    uint8_t *alloc(size_t bytes) override
    {
        std::lock_guard<std::mutex> lock(m_);
        if (!late_)
            return early_->alloc(bytes);
        uint8_t *p = late_->alloc(bytes);
        if (p)
            late_blocks_.insert(p);
        return p;
    }
    void free(uint8_t *p) override
    {
        std::lock_guard<std::mutex> lock(m_);
        if (late_blocks_.erase(p))
            late_->free(p);
        else
            early_->free(p);
    }
    int new_fence(void **fence) override
    {
        std::lock_guard<std::mutex> lock(m_);
        if (!late_)
            return early_->new_fence(fence);
        const int ret = late_->new_fence(fence);
        if (ret == 0 && *fence)
            late_fences_.insert(*fence);
        return ret;
    }
    void delete_fence(void *fence) override { of_fence(fence)->delete_fence(fence); }
    bool fence_done(void *fence, bool wait) override { return of_fence(fence)->fence_done(fence, wait); }
    bool preferred(const uint8_t *p) const override
    {
        std::lock_guard<std::mutex> lock(m_);
        return !late_ || late_blocks_.count(p);
    }

private:
    HostMemory *of_fence(void *fence)
    {
        std::lock_guard<std::mutex> lock(m_);
        return late_fences_.count(fence) ? late_.get() : early_.get();
    }

    mutable std::mutex m_;
    std::shared_ptr<HostMemory> early_, late_;
    std::unordered_set<const uint8_t *> late_blocks_;
    std::unordered_set<void *> late_fences_;
};

/// Messages of the making thread, logged later on the caller's thread; once
/// they are, what the backend logs goes straight to the caller's log (it then
/// runs on the caller's threads only).
struct KeptLog {
    std::vector<std::pair<VmafHipLogLevel, std::string>> lines;
    const Logger *forward = nullptr;

    static void keep(void *cookie, VmafHipLogLevel level, const char *fmt, va_list vl)
    {
        KeptLog &k = *static_cast<KeptLog *>(cookie);
        if (k.forward) {
            k.forward->vlog(level, fmt, vl);
            return;
        }
        char buf[1024];
        std::vsnprintf(buf, sizeof buf, fmt, vl);
        k.lines.emplace_back(level, buf);
    }
};

class HandoverBackend final : public Backend {
public:
    HandoverBackend(const Metrics &m, std::unique_ptr<Backend> first, BackendMaker make,
                    std::function<void()> wake, const Logger &log, bool required,
                    std::chrono::milliseconds start_after)
        : m_(m), first_(std::move(first)), make_(std::move(make)), wake_(std::move(wake)), log_(log),
          required_(required), start_after_(start_after), name_(first_->name() + " while the GPU starts"),
          memory_(std::make_shared<HandoverMemory>(first_->host_memory())),
          history_(static_cast<size_t>(m.lookbehind))
    {
        if (start_after_.count() == 0)
            start_making();
    }

    ~HandoverBackend() override
    {
        if (!maker_.joinable())
            return;
        cancel_.store(true);
        wake_();
        maker_.join();
    }

    const std::string &name() const override { return switched_ ? next_->name() : name_; }

    int depth() const override
    {
        if (!switched_)
            return first_->depth();
        // The first backend's frames drain while the next one fills up.
        return next_->depth() + static_cast<int>(first_frames_ - std::min(tail_, first_frames_));
    }

    int submit(const FrameView &f, bool scored, void *const fence[2], std::string *err) override
    {
        return submit_to(f, scored, fence, false, err);
    }

    // The CPU reads kept pictures before it returns anyway (it copies them).
    int submit_kept(const FrameView &f, bool scored, void *const fence[2], std::string *err) override
    {
        return submit_to(f, scored, fence, true, err);
    }

    void abandon() override
    {
        if (switched_)
            next_->abandon();
    }

    std::shared_ptr<HostMemory> host_memory() const override { return memory_; }

    int collect(bool wait, uint8_t *accum, std::string *err) override
    {
        Backend &b = tail_ < first_frames_ ? *first_ : *next_;
        const int ret = b.collect(wait, accum, err);
        if (ret < 0)
            return ret;
        tail_++;
        drop_first();
        return 0;
    }

    bool handover_ready() const override
    {
        return !switched_ && !stay_ && ready_.load(std::memory_order_acquire);
    }

    bool stats(BackendStats *out) const override { return switched_ && next_->stats(out); }

private:
    // Frame f to the backend that scores it now, after starting the next
    // one's making or handing over to it when due.
    int submit_to(const FrameView &f, bool scored, void *const fence[2], bool kept, std::string *err)
    {
        if (!making_) {
            const auto now = std::chrono::steady_clock::now();
            if (!first_frames_)
                first_submit_ = now;
            else if (now - first_submit_ >= start_after_)
                start_making();
        }
        if (handover_ready()) {
            const int ret = hand_over(f.index, err);
            if (ret < 0)
                return ret;
        }
        if (switched_)
            return kept ? next_->submit_kept(f, scored, fence, err) : next_->submit(f, scored, fence, err);
        const int ret = first_->submit(f, scored, fence, err);
        if (ret < 0)
            return ret;
        if (!history_.empty())
            history_[f.index % history_.size()].assign(f.ref, f.dis[0], m_.g, m_.lookbehind_chroma,
                                                       m_.lookbehind_dis);
        first_frames_++;
        return 0;
    }

    // The next backend's making, on a thread of its own.
    void start_making()
    {
        making_ = true;
        auto run = [this] {
            const Logger kept(KeptLog::keep, &kept_, VMAFHIP_LOG_DEBUG);
            int ret = 0;
            std::string err;
            std::unique_ptr<Backend> b;
            try {
                b = make_(cancel_, kept, &ret, &err);
                if (b)
                    memory_->set_late(b->host_memory());
            } catch (const std::exception &e) { // no memory or no thread for it
                b.reset();
                ret = -ENOMEM;
                err = std::string("the GPU backend could not be made: ") + e.what();
            }
            next_ = std::move(b);
            made_ret_ = ret;
            made_err_ = std::move(err);
            ready_.store(true, std::memory_order_release);
        };
        try {
            maker_ = std::thread(run);
        } catch (const std::system_error &) {
            run(); // no thread to spare: made here, handed over at the next submit
        }
    }

    // At frame `index`: the next backend's messages, then the next backend
    // takes over, or the first one stays.
    int hand_over(unsigned index, std::string *err)
    {
        if (maker_.joinable())
            maker_.join();
        for (const auto &l : kept_.lines)
            log_.log(l.first, "%s", l.second.c_str());
        kept_.lines.clear();
        kept_.forward = &log_;
        if (!next_) {
            if (required_) {
                *err = made_err_;
                return made_ret_;
            }
            log_cpu_fallback(log_, made_err_);
            stay_ = true;
            return 0;
        }
        EarlierPictures earlier;
        earlier.n = static_cast<int>(std::min<unsigned>(static_cast<unsigned>(m_.lookbehind), index));
        for (int k = 0; k < earlier.n; k++) {
            history_[(index - 1 - static_cast<unsigned>(k)) % history_.size()].views(
                &earlier.ref[k], earlier.ref_chroma[k], &earlier.dis[k]);
        }
        const int ret = next_->take_over(index, earlier, err);
        if (ret < 0)
            return ret;
        if (index)
            log_.log(VMAFHIP_LOG_DEBUG, "frames 0 to %u scored on %s; %s from frame %u on\n",
                     index - 1, name_.c_str(), next_->name().c_str(), index);
        switched_ = true;
        history_.clear();
        drop_first();
        return 0;
    }

    // Once the next backend scores and the first one's frames are all
    // collected, its threads and buffers can go.
    void drop_first()
    {
        if (switched_ && tail_ >= first_frames_)
            first_.reset();
    }

    const Metrics &m_;
    // Before the backends: the next one logs through it until it is gone.
    KeptLog kept_;
    std::unique_ptr<Backend> first_, next_;
    BackendMaker make_;
    std::function<void()> wake_;
    Logger log_;
    const bool required_;
    const std::chrono::milliseconds start_after_;
    const std::string name_;
    std::shared_ptr<HandoverMemory> memory_;
    std::vector<KeptPlanes> history_; ///< the planes read of the first backend's last frames

    // The making thread's results: written before ready_ is set, read after.
    std::thread maker_;
    std::atomic<bool> ready_{false}, cancel_{false};
    int made_ret_ = 0;
    std::string made_err_;

    bool making_ = false;      ///< the making has begun
    std::chrono::steady_clock::time_point first_submit_;
    bool switched_ = false;    ///< frames from first_frames_ on go to next_
    bool stay_ = false;        ///< the next backend failed: first_ scores on
    unsigned first_frames_ = 0; ///< frames submitted to first_
    unsigned tail_ = 0;        ///< the next frame to collect
};

} // namespace

std::unique_ptr<Backend> make_handover_backend(const Metrics &m, std::unique_ptr<Backend> first,
                                               BackendMaker make, std::function<void()> wake,
                                               const Logger &log, bool required,
                                               std::chrono::milliseconds start_after)
{
    return std::make_unique<HandoverBackend>(m, std::move(first), std::move(make), std::move(wake),
                                             log, required, start_after);
}

} // namespace vmafhip
