// A thread that runs tasks one at a time in the order they were queued, so
// that the caller need not wait for the work: the GPU backend stages the
// pictures a caller keeps for it on one (the copy into pinned memory and the
// GPU launches), off the caller's thread. Tasks are numbered 0, 1, ... in
// queue order; the caller waits for a task's end before it reads what the
// task wrote.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

namespace vmafhip {

class TaskThread {
public:
    /// @param name the thread's name (base/thread_name.h), kept by pointer: a literal
    explicit TaskThread(const char *name = "vmafhip-task") : name_(name) {}
    /// Drops the tasks not started and waits for the running one.
    ~TaskThread();
    TaskThread(const TaskThread &) = delete;
    TaskThread &operator=(const TaskThread &) = delete;

    /// Queue a task (the thread starts with the first); returns its number.
    /// A task must not throw: it reports through what it writes.
    /// Throws std::system_error when there can be no thread, std::bad_alloc.
    uint64_t queue(std::function<void()> task);

    /// Whether tasks [0, n) have all ended (run, or dropped by abandon()).
    bool ended(uint64_t n);
    /// Waits until tasks [0, n) have all ended.
    void wait_ended(uint64_t n);
    /// Waits until every task queued so far has ended.
    void wait_all();

    /// Drops the tasks not started, and every later one, and waits for the
    /// running one: once this returns no task runs any more.
    void abandon();

private:
    void run();

    std::mutex mutex_;
    std::condition_variable wake_, ended_cv_;
    std::deque<std::function<void()>> tasks_; ///< not started, under mutex_
    uint64_t queued_ = 0;                     ///< tasks queued, under mutex_
    uint64_t ended_ = 0;                      ///< tasks ended, under mutex_
    bool abandoned_ = false;                  ///< under mutex_
    const char *name_;
    std::thread thread_;
};

} // namespace vmafhip
