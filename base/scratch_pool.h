// Scratch memory of a const method that several threads may run at once (an
// extractor's CPU path scoring different frames): each running call takes a
// buffer of its own, and gives it back for later calls, so that a stream
// allocates as many as ran at once, once.
#pragma once

#include <cstddef>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace vmafhip {

template <typename T> class ScratchPool {
public:
    /// One call's buffer; given back to the pool when it ends.
    class Lease {
    public:
        Lease(ScratchPool &pool, std::shared_ptr<T> buf) : pool_(pool), buf_(std::move(buf)) {}
        ~Lease() { pool_.give_back(std::move(buf_)); }
        Lease(const Lease &) = delete;
        Lease &operator=(const Lease &) = delete;
        T &operator*() const { return *buf_; }

    private:
        ScratchPool &pool_;
        std::shared_ptr<T> buf_;
    };

    /// A free buffer, or make() (a std::shared_ptr<T>, so that T may be
    /// incomplete where the pool is declared) when none is free.
    template <typename Make> Lease take(Make make)
    {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            if (!free_.empty()) {
                std::shared_ptr<T> buf = std::move(free_.back());
                free_.pop_back();
                return Lease(*this, std::move(buf));
            }
            // Room for every buffer made, so that giving one back (in a
            // destructor) never allocates.
            free_.reserve(++made_);
        }
        return Lease(*this, make());
    }

private:
    void give_back(std::shared_ptr<T> buf)
    {
        std::lock_guard<std::mutex> lock(mutex_);
        free_.push_back(std::move(buf));
    }

    std::mutex mutex_;
    std::vector<std::shared_ptr<T>> free_; ///< under mutex_
    size_t made_ = 0;                      ///< under mutex_
};

} // namespace vmafhip
