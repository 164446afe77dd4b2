// A fixed pool of worker threads that splits a range of rows among them.
// Integer per-row reductions make results independent of the split.
#pragma once

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace vmafhip {

class ThreadPool {
public:
    /// @param threads total threads including the caller; <= 0: one per core
    /// @param name the workers' thread name (base/thread_name.h), kept by pointer: a literal
    explicit ThreadPool(int threads, const char *name = "vmafhip-pool");
    ~ThreadPool();
    ThreadPool(const ThreadPool &) = delete;
    ThreadPool &operator=(const ThreadPool &) = delete;

    int size() const { return static_cast<int>(workers_.size()) + 1; }

    /// Run fn(begin, end) over [0, n) in contiguous chunks of at least
    /// min_chunk items, on the pool and the calling thread; returns when all
    /// chunks are done. Not reentrant: fn must not call parallel_for.
    /// An exception a chunk throws (std::bad_alloc) is rethrown here once
    /// every chunk has ended; the chunks not started by then are skipped.
    void parallel_for(int n, int min_chunk, const std::function<void(int, int)> &fn);

private:
    void worker_loop(const char *name);
    void stop_workers();
    bool run_one_chunk();

    std::vector<std::thread> workers_;
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int, int)> *job_ = nullptr; ///< under mutex_
    int n_ = 0, chunk_ = 1, next_ = 0;                   ///< under mutex_
    int sleeping_ = 0;                                   ///< workers in wake_.wait, under mutex_
    bool stop_ = false;                                  ///< under mutex_
    std::exception_ptr error_;                           ///< first exception of the job, under mutex_
    std::atomic<int> pending_{0};          ///< chunks of the current job not finished
    std::atomic<unsigned> generation_{0};  ///< bumped per job; polled by idle workers
};

} // namespace vmafhip
