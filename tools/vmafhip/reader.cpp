#include "reader.h"

namespace cli {

FrameReader::FrameReader(VmafHipContext *ctx, Input &in, const Format &fmt, long long limit)
    : ctx_(ctx), in_(in), fmt_(fmt), frame_bytes_(frame_bytes(fmt)), limit_(limit)
{
    thread_ = std::thread([this] { run(); });
}

FrameReader::~FrameReader()
{
    {
        std::lock_guard<std::mutex> lock(m_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

// A frame into a lent picture laid out as the file's frames (rows packed:
// one read fills it), or into memory of its own when the context lends no
// more (every picture borrowed, or no pinned memory left).
std::unique_ptr<Frame> FrameReader::read_one(int *ret)
{
    auto f = std::make_unique<Frame>();
    uint8_t *buf;
    if (!vmafhip_picture_borrow(ctx_, 1, &f->lent_) && f->lent_.size == frame_bytes_) {
        buf = static_cast<uint8_t *>(f->lent_.data[0]);
    } else {
        f->own_.resize(frame_bytes_);
        buf = f->own_.data();
    }
    std::string err;
    *ret = in_.read(buf, &err);
    if (*ret < 0) {
        std::lock_guard<std::mutex> lock(m_);
        err_ = err;
    }
    f->pic_ = frame_picture(fmt_, buf);
    return f;
}

void FrameReader::run()
{
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_);
            cv_.wait(lock, [&] { return stop_ || ready_.size() < kAhead; });
            if (stop_ || (limit_ && read_ == limit_))
                break;
        }
        int ret;
        std::unique_ptr<Frame> f;
        try {
            f = read_one(&ret);
        } catch (const std::bad_alloc &) {
            std::lock_guard<std::mutex> lock(m_);
            err_ = "out of memory (frame buffers of the given size)";
            ret = -1;
        }
        std::lock_guard<std::mutex> lock(m_);
        if (ret <= 0)
            break;
        ready_.push_back(std::move(f));
        read_++;
        cv_.notify_all();
    }
    std::lock_guard<std::mutex> lock(m_);
    ended_ = true;
    cv_.notify_all();
}

int FrameReader::next(std::unique_ptr<Frame> *out, std::string *err)
{
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return ended_ || !ready_.empty(); });
    if (ready_.empty()) {
        if (err_.empty())
            return 0;
        *err = err_;
        return -1;
    }
    *out = std::move(ready_.front());
    ready_.pop_front();
    cv_.notify_all();
    return 1;
}

long long FrameReader::frames_read() const
{
    std::lock_guard<std::mutex> lock(m_);
    return read_;
}

} // namespace cli
