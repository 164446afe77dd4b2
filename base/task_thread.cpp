#include "base/task_thread.h"

#include <utility>

#include "base/thread_name.h"

namespace vmafhip {

TaskThread::~TaskThread()
{
    abandon(); // the thread sees it and ends
    if (thread_.joinable())
        thread_.join();
}

uint64_t TaskThread::queue(std::function<void()> task)
{
    std::unique_lock<std::mutex> lock(mutex_);
    if (abandoned_) {
        ended_++;
        return queued_++;
    }
    tasks_.push_back(std::move(task));
    if (!thread_.joinable()) {
        try {
            thread_ = std::thread([this] { run(); });
        } catch (...) {
            tasks_.pop_back();
            throw;
        }
    }
    const uint64_t n = queued_++;
    lock.unlock();
    wake_.notify_one();
    return n;
}

bool TaskThread::ended(uint64_t n)
{
    std::lock_guard<std::mutex> lock(mutex_);
    return ended_ >= n;
}

void TaskThread::wait_ended(uint64_t n)
{
    std::unique_lock<std::mutex> lock(mutex_);
    ended_cv_.wait(lock, [&] { return ended_ >= n; });
}

void TaskThread::wait_all()
{
    std::unique_lock<std::mutex> lock(mutex_);
    ended_cv_.wait(lock, [&] { return ended_ == queued_; });
}

void TaskThread::abandon()
{
    std::unique_lock<std::mutex> lock(mutex_);
    abandoned_ = true;
    ended_ += tasks_.size();
    tasks_.clear();
    wake_.notify_all();
    ended_cv_.notify_all();
    lock.unlock();
    wait_all(); // the running one
}

void TaskThread::run()
{
    name_this_thread(name_);
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return abandoned_ || !tasks_.empty(); });
        if (tasks_.empty())
            return; // abandoned
        std::function<void()> task = std::move(tasks_.front());
        tasks_.pop_front();
        lock.unlock();
        task();
        task = nullptr;
        lock.lock();
        ended_++;
        ended_cv_.notify_all();
    }
}

} // namespace vmafhip
