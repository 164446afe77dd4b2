#include "reader.h"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <system_error>

#include <pthread.h>
#include <signal.h>

namespace cli {

namespace {

// Threads per input copying from the page cache. A quarter of the cores
// keeps two inputs below half of them, leaving the rest to the caller and
// the GPU runtime; four saturate what one input needs.
int loader_threads()
{
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::clamp(cores / 4, 1, 4);
}

// A pipe or a device may never end (/dev/zero, a FIFO whose writer keeps it
// open): a read blocked there is interrupted by a signal whose handler does
// nothing, installed without SA_RESTART so that the read fails with EINTR
// (stdio reports it as a read error, which a stopped reader ignores). SIGURG
// is ignored by default, so the handler changes nothing else.
constexpr int interrupt_signal = SIGURG;

void ignore_signal(int) {}

void install_interrupt_handler()
{
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa = {};
        sa.sa_handler = ignore_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(interrupt_signal, &sa, nullptr);
    });
}

} // namespace

FrameReader::FrameReader(VmafHipContext *ctx, Input &in, const Format &fmt, long long limit)
    : ctx_(ctx), in_(in), fmt_(fmt), frame_bytes_(frame_bytes(fmt)),
      read_bytes_(leading_planes_bytes(fmt, vmafhip_planes_read(ctx))), limit_(limit)
{
    try {
        if (in.positional())
            for (int i = loader_threads(); i > 0; i--)
                loaders_.emplace_back([this] { load(); });
    } catch (const std::system_error &) {
        // Fewer threads than wished (none: read in order).
    }
    positional_ = !loaders_.empty();
    // Two frames per loader keep each busy while the main thread takes one.
    ahead_ = std::max<size_t>(4, 2 * loaders_.size());
    try {
        thread_ = std::thread([this] { run(); });
    } catch (...) {
        stop();
        throw;
    }
}

void FrameReader::stop()
{
    {
        std::lock_guard<std::mutex> lock(m_);
        stop_ = true;
    }
    cv_.notify_all();
    if (thread_.joinable() && !positional_) {
        // Until run() has ended: a read it is blocked in never returns by
        // itself. A signal sent just before the read starts is lost, so
        // send it again until the thread has ended.
        install_interrupt_handler();
        std::unique_lock<std::mutex> lock(m_);
        while (!cv_.wait_for(lock, std::chrono::milliseconds(10), [&] { return ended_; }))
            pthread_kill(thread_.native_handle(), interrupt_signal);
    }
    if (thread_.joinable())
        thread_.join();
    for (auto &t : loaders_)
        t.join();
}

FrameReader::~FrameReader() { stop(); }

// A frame in a lent picture laid out as the file's frames (rows packed: one
// read fills it), or in memory of its own when the context lends no more
// (every picture borrowed, or no pinned memory left).
std::unique_ptr<Frame> FrameReader::new_frame()
{
    auto f = std::make_unique<Frame>();
    if (!vmafhip_picture_borrow(ctx_, 1, &f->lent_) && f->lent_.size == frame_bytes_) {
        f->buf_ = static_cast<uint8_t *>(f->lent_.data[0]);
    } else {
        f->own_.resize(frame_bytes_);
        f->buf_ = f->own_.data();
    }
    f->pic_ = frame_picture(fmt_, f->buf_);
    return f;
}

// Takes frames in order: a pipe's are read here; a file's are located here
// (y4m FRAME lines) and read by the loaders.
void FrameReader::run()
{
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return stop_ || ready_.size() < ahead_; });
            if (stop_ || (limit_ && located_ == limit_))
                break;
        }
        int ret;
        std::unique_ptr<Frame> f;
        std::string err;
        try {
            f = new_frame();
            if (positional_) {
                ret = in_.locate(&f->offset_, &err);
                f->index_ = located_;
            } else {
                ret = in_.read(f->buf_, &err);
                f->loaded_ = true;
            }
        } catch (const std::bad_alloc &) {
            err = "out of memory (frame buffers of the given size)";
            ret = -1;
        }
        std::lock_guard<std::mutex> lock(m_);
        if (ret < 0)
            err_ = err;
        if (ret <= 0)
            break;
        if (positional_)
            to_load_.push_back(f.get());
        ready_.push_back(std::move(f));
        located_++;
        cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(m_);
    ended_ = true;
    cv_.notify_all();
}

// A loader: the frames run() located, in the order it located them.
void FrameReader::load()
{
    std::unique_lock<std::mutex> lock(m_);
    for (;;) {
        cv_.wait(lock, [&] { return stop_ || !to_load_.empty(); });
        if (stop_)
            return;
        Frame *f = to_load_.front();
        to_load_.pop_front();
        lock.unlock();
        std::string err;
        const bool ok = !in_.read_at(f->index_, f->offset_, f->buf_, read_bytes_, &err);
        lock.lock();
        if (!ok)
            f->err_ = err;
        f->loaded_ = true;
        cv_.notify_all();
    }
}

int FrameReader::next(std::unique_ptr<Frame> *out, std::string *err)
{
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] {
        return ready_.empty() ? ended_ : ready_.front()->loaded_;
    });
    if (ready_.empty()) {
        if (err_.empty())
            return 0;
        *err = err_;
        return -1;
    }
    if (!ready_.front()->err_.empty()) {
        *err = ready_.front()->err_;
        return -1;
    }
    *out = std::move(ready_.front());
    ready_.pop_front();
    delivered_++;
    cv_.notify_all();
    return 1;
}

long long FrameReader::frames_read() const
{
    std::lock_guard<std::mutex> lock(m_);
    return delivered_;
}

} // namespace cli
