#include "core/thread_pool.h"

#include <algorithm>

namespace vmafhip {

ThreadPool::ThreadPool(int threads)
{
    if (threads <= 0)
        threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    for (int i = 1; i < threads; i++)
        workers_.emplace_back([this] { worker_loop(); });
}

ThreadPool::~ThreadPool()
{
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    for (auto &t : workers_)
        t.join();
}

// Takes the next chunk of the current job, if any, and runs it unlocked.
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
    (*job)(begin, end);
    lock.lock();
    if (--pending_ == 0)
        done_.notify_all();
    return true;
}

void ThreadPool::worker_loop()
{
    unsigned seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
            if (stop_)
                return;
            seen = generation_;
        }
        while (run_one_chunk()) {
        }
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
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = &fn;
        n_ = n;
        chunk_ = chunk;
        next_ = 0;
        pending_ = (n + chunk - 1) / chunk;
        generation_++;
    }
    wake_.notify_all();
    while (run_one_chunk()) {
    }
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    job_ = nullptr;
}

} // namespace vmafhip
