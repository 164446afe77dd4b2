// A thread per input: frames are read ahead, in order, into pictures the
// context lends (pinned memory on the GPU: submit copies them with DMA and
// no host copy), while the main thread scores. A frame holds its picture
// until it is dropped, after its submit.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "format.h"
#include "input.h"
#include "vmafhip.h"

namespace cli {

/// One frame read by a FrameReader.
class Frame {
public:
    Frame() = default;
    Frame(const Frame &) = delete;
    Frame &operator=(const Frame &) = delete;
    ~Frame() { vmafhip_picture_release(lent_.handle); }

    const VmafHipPicture &picture() const { return pic_; }

private:
    friend class FrameReader;
    VmafHipLentPicture lent_{};  ///< the frame's memory, when lent
    std::vector<uint8_t> own_;   ///< else this (no picture left to lend)
    VmafHipPicture pic_{};
};

class FrameReader {
public:
    /// Start reading `in` (started with fmt) on a thread of its own: up to
    /// `limit` frames (0: to the end).
    FrameReader(VmafHipContext *ctx, Input &in, const Format &fmt, long long limit);
    /// Stops reading (after the read under way) and waits for the thread.
    ~FrameReader();

    /// The next frame into *out. @return 1, 0 at the end, or -1 with *err set
    /// (the input's read error).
    int next(std::unique_ptr<Frame> *out, std::string *err);

    /// Frames read so far (after next() returned 0: all the input holds, up
    /// to the limit).
    long long frames_read() const;

private:
    void run();
    std::unique_ptr<Frame> read_one(int *ret);

    static constexpr size_t kAhead = 4; ///< frames read ahead at most

    VmafHipContext *ctx_;
    Input &in_;
    Format fmt_;
    size_t frame_bytes_;
    long long limit_;

    mutable std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::unique_ptr<Frame>> ready_;
    long long read_ = 0;
    bool ended_ = false, stop_ = false;
    std::string err_; ///< set when the read failed (ended_ too)
    std::thread thread_;
};

} // namespace cli
