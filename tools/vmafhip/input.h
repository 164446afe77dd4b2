// Video inputs of the vmafhip CLI: raw .yuv (FFmpeg's planar layout) and
// .y4m, read frame by frame into a buffer the caller reuses, so memory stays
// constant whatever the length.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "format.h"

namespace cli {

struct FileCloser {
    void operator()(FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

class Input {
public:
    virtual ~Input() = default;

    /// e.g. "reference 'ref.yuv'", for messages.
    const std::string &label() const { return label_; }

    /// The format a .y4m header declares; nullptr for raw .yuv.
    virtual const Format *declared() const = 0;

    /// Fix the frame format before the first read (raw .yuv: checks that
    /// the file holds whole frames of it). @return 0, or -1 with *err set.
    virtual int start(const Format &fmt, std::string *err) = 0;

    /// Frames in the input, or -1 when only reading to the end tells
    /// (.y4m, pipes). Valid after start().
    long long frame_count() const { return frames_; }

    /// Read the next frame (frame_bytes() of the format) into buf.
    /// @return 1, 0 at the end of the input, or -1 with *err set.
    virtual int read(uint8_t *buf, std::string *err) = 0;

    /// Bytes of a regular file, -1 for pipes and devices.
    long long file_size() const;

    /// Regular files are also read by position, several frames at once
    /// (locate() then read_at()); pipes only by read(). Valid after start().
    bool positional() const { return size_ >= 0; }

    /// Where the next frame's samples start in the file, checking what
    /// precedes them (a y4m FRAME line) and that the file holds them all.
    /// Called in order, from one thread, instead of read().
    /// @return 1, 0 at the end of the input, or -1 with *err set.
    virtual int locate(long long *offset, std::string *err) = 0;

    /// The first `bytes` bytes of frame `index`, whose samples start at
    /// `offset` (from locate()), into buf. Thread-safe.
    /// @return 0, or -1 with *err set.
    int read_at(long long index, long long offset, uint8_t *buf, size_t bytes,
                std::string *err) const;

protected:
    Input(File f, std::string label) : f_(std::move(f)), label_(std::move(label)) {}

    /// *err for a failed read of the file.
    void read_error(std::string *err) const;

    /// *err for frame `index` cut short after `got` of its bytes.
    virtual void truncated_error(long long index, size_t got, std::string *err) const = 0;

    /// The end of read(): `got` bytes of frame index_ came from the stream.
    /// @return 1 (the whole frame; index_ moves on), or -1 with *err set
    /// (the stream's error, or the frame cut short).
    int finish_read(size_t got, std::string *err);

    /// Sets size_ when the file is a regular one (positional reads).
    void find_size();

    File f_;
    std::string label_;
    size_t frame_bytes_ = 0;
    long long frames_ = -1;
    long long index_ = 0; ///< frames read (or located) so far
    long long size_ = -1; ///< bytes of a regular file, -1 for pipes and devices
};

/// Open `path` as the `role` input ("reference" or "distorted"). It is a
/// .y4m when it starts with "YUV4MPEG2 "; a name ending in .y4m without that
/// signature is an error; anything else is raw .yuv.
/// @return the input, or nullptr with *err set.
std::unique_ptr<Input> open_input(const std::string &path, const char *role, std::string *err);

/// The two kinds, for open_input(). `head` holds the bytes open_input()
/// already read to look for the signature.
std::unique_ptr<Input> make_yuv_input(File f, std::string label, std::string head);
std::unique_ptr<Input> make_y4m_input(File f, std::string label, std::string *err);

} // namespace cli
