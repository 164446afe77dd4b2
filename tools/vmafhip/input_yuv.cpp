// Raw .yuv input: frames back to back in FFmpeg's planar layout, no header;
// the format comes from the command line (-w, -h, -p, -b).
#include "input.h"

#include <algorithm>
#include <cstring>

namespace cli {

namespace {

class YuvInput : public Input {
public:
    YuvInput(File f, std::string label, std::string head)
        : Input(std::move(f), std::move(label)), head_(std::move(head))
    {
    }

    const Format *declared() const override { return nullptr; }

    int start(const Format &fmt, std::string *err) override
    {
        frame_bytes_ = frame_bytes(fmt);
        // Pipes and devices have no size: they are checked frame by frame.
        find_size();
        if (size_ < 0)
            return 0;
        const unsigned long long size = static_cast<unsigned long long>(size_);
        if (!size) {
            *err = label_ + " is empty";
            return -1;
        }
        if (size % frame_bytes_) {
            *err = label_ + " is " + std::to_string(size) +
                   " bytes, not a whole number of frames: one " + describe(fmt) + " frame is " +
                   std::to_string(frame_bytes_) +
                   " bytes (FFmpeg's planar layout); check -w, -h, -p and -b";
            return -1;
        }
        frames_ = static_cast<long long>(size / frame_bytes_);
        return 0;
    }

    int read(uint8_t *buf, std::string *err) override
    {
        // The bytes open_input() read come first (a frame can be smaller).
        const size_t from_head = std::min(head_.size() - head_pos_, frame_bytes_);
        std::memcpy(buf, head_.data() + head_pos_, from_head);
        head_pos_ += from_head;
        const size_t got = from_head + std::fread(buf + from_head, 1, frame_bytes_ - from_head,
                                                  f_.get());
        if (!got && !std::ferror(f_.get()))
            return 0;
        return finish_read(got, err);
    }

    // start() found the file to hold whole frames only.
    int locate(long long *offset, std::string *) override
    {
        if (index_ == frames_)
            return 0;
        *offset = index_++ * static_cast<long long>(frame_bytes_);
        return 1;
    }

private:
    void truncated_error(long long index, size_t got, std::string *err) const override
    {
        *err = label_ + " ends inside frame " + std::to_string(index) + " (counted from 0): " +
               std::to_string(got) + " of " + std::to_string(frame_bytes_) +
               " bytes; check -w, -h, -p and -b";
    }

    std::string head_;
    size_t head_pos_ = 0;
};

} // namespace

std::unique_ptr<Input> make_yuv_input(File f, std::string label, std::string head)
{
    return std::make_unique<YuvInput>(std::move(f), std::move(label), std::move(head));
}

} // namespace cli
