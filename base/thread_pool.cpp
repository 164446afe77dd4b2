#include "base/thread_pool.h"

#include <algorithm>
#include <chrono>

#include "base/thread_name.h"

namespace vmafhip {

namespace {

// Workers and the caller poll briefly before sleeping: frames arrive every
// few hundred microseconds when streaming, and a condition-variable wake of
// every worker costs tens of microseconds, as much as copying a frame.
constexpr auto kSpin = std::chrono::microseconds(50);

inline void cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif // x86
}

// Polls cond() until it holds or kSpin has passed; returns its last value.
template <typename F> bool spin_until(F cond)
{
    const auto end = std::chrono::steady_clock::now() + kSpin;
    while (!cond()) {
        if (std::chrono::steady_clock::now() >= end)
            return false;
        cpu_relax();
    }
    return true;
}

} // namespace

ThreadPool::ThreadPool(int threads, const char *name)
{
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    try {
        for (int i = 1; i < threads; i++)
            workers_.emplace_back([this, name] { worker_loop(name); });
    } catch (...) {
        // No memory or no thread: stop the workers that did start (the
        // destructor does not run for a half-made pool), then report it.
        stop_workers();
        throw;
    }
}

ThreadPool::~ThreadPool() { stop_workers(); }

void ThreadPool::stop_workers()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto &t : workers_)
        t.join();
    workers_.clear();
}

// Takes the next chunk of the current job, if any, and runs it unlocked.
// The job is only read under the mutex, and parallel_for clears it under the
// mutex once every chunk is done, so a late worker never sees a stale job.
bool ThreadPool::run_one_chunk()
{
    std::unique_lock<std::mutex> lock(mutex_);
    if (!job_ || next_ >= n_)
        return false;
    const int begin = next_;
    const int end = std::min(n_, begin + chunk_);
    next_ = end;
    const auto *job = job_;
    lock.unlock();
    try {
        (*job)(begin, end);
    } catch (...) {
        // Keep the first; skip what is left (parallel_for rethrows it).
        lock.lock();
        if (!error_)
            error_ = std::current_exception();
        const int skipped = (n_ - next_ + chunk_ - 1) / chunk_;
        next_ = n_;
        pending_.fetch_sub(skipped, std::memory_order_acq_rel);
        lock.unlock();
    }
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        lock.lock();
        done_.notify_all();
    }
    return true;
}

void ThreadPool::worker_loop(const char *name)
{
    name_this_thread(name);
    unsigned seen = 0;
    for (;;) {
        if (!spin_until([&] { return generation_.load(std::memory_order_acquire) != seen; })) {
            std::unique_lock<std::mutex> lock(mutex_);
            sleeping_++;
            wake_.wait(lock, [&] { return stop_ || generation_.load(std::memory_order_acquire) != seen; });
            sleeping_--;
            if (stop_)
                return;
        }
        seen = generation_.load(std::memory_order_acquire);
        while (run_one_chunk()) {
        }
        std::lock_guard<std::mutex> lock(mutex_);
        if (stop_)
            return;
    }
}

void ThreadPool::parallel_for(int n, int min_chunk, const std::function<void(int, int)> &fn)
{
    if (n <= 0)
        return;
    const int threads = size();
    int chunk = std::max(min_chunk, (n + threads * 4 - 1) / (threads * 4));
    chunk = std::max(chunk, 1);
    if (threads == 1 || chunk >= n) {
        fn(0, n);
        return;
    }
    bool wake;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &fn;
        n_ = n;
        chunk_ = chunk;
        next_ = 0;
        pending_.store((n + chunk - 1) / chunk, std::memory_order_relaxed);
        generation_.fetch_add(1, std::memory_order_release);
        wake = sleeping_ > 0;
    }
    if (wake)
        wake_.notify_all();
    while (run_one_chunk()) {
    }
    if (!spin_until([&] { return pending_.load(std::memory_order_acquire) == 0; })) {
        std::unique_lock<std::mutex> lock(mutex_);
        done_.wait(lock, [&] { return pending_.load(std::memory_order_acquire) == 0; });
    }
    std::exception_ptr error;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = nullptr;
        std::swap(error, error_);
    }
    if (error)
        std::rethrow_exception(error);
}

} // namespace vmafhip
