// Frames of one input read ahead, in order, into pictures the context lends
// (pinned memory on the GPU: submit copies them with DMA and no host copy),
// while the main thread scores. A regular file is read by position on
// several threads at once, since one thread copying from the page cache
// delivers far fewer frames than the GPU scores; a pipe is read in order by
// one thread. Only the planes the context reads are read. A frame holds its
// picture until it is dropped, after its submit.
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
    uint8_t *buf_ = nullptr;     ///< the frame's first byte, in lent_ or own_
    // A positional read: where, and how it went (under the reader's mutex).
    long long index_ = 0, offset_ = 0;
    bool loaded_ = false;
    std::string err_;            ///< the read failed
};

class FrameReader {
public:
    /// Start reading `in` (started with fmt): up to `limit` frames (0: to
    /// the end), of each the planes ctx reads.
    FrameReader(VmafHipContext *ctx, Input &in, const Format &fmt, long long limit);
    /// Stops reading (after the reads under way) and waits for the threads.
    ~FrameReader();

    /// The next frame into *out. @return 1, 0 at the end, or -1 with *err set
    /// (the input's read error).
    int next(std::unique_ptr<Frame> *out, std::string *err);

    /// Frames delivered by next() so far (after it returned 0: all the input
    /// holds, up to the limit).
    long long frames_read() const;

private:
    void run();
    void load();
    void stop();
    std::unique_ptr<Frame> new_frame();

    VmafHipContext *ctx_;
    Input &in_;
    Format fmt_;
    size_t frame_bytes_, read_bytes_; ///< a frame; the part of it read by position
    long long limit_;
    size_t ahead_;                    ///< frames read ahead at most
    bool positional_;                 ///< located by run(), read by the loaders

    mutable std::mutex m_;
    std::condition_variable cv_;
    std::deque<std::unique_ptr<Frame>> ready_; ///< in order; positional ones maybe not loaded yet
    std::deque<Frame *> to_load_;              ///< positional reads not started
    long long located_ = 0, delivered_ = 0;
    bool ended_ = false, stop_ = false;
    std::string err_; ///< set when reading ended on an error (ended_ too)
    std::thread thread_;
    std::vector<std::thread> loaders_;
};

} // namespace cli
