// .y4m input (YUV4MPEG2): a header line whose W, H and C tags set the
// format, then frames, each a "FRAME" line and the planes in FFmpeg's layout.
#include "input.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>

namespace cli {

namespace {

// The C tags FFmpeg's y4m muxer writes for the formats vmafhip scores
// (libavformat/yuv4mpegenc.c); no C tag means 420jpeg.
const struct {
    const char *tag;
    VmafHipChroma chroma;
    int bpc;
} colorspaces[] = {
    {"420jpeg", VMAFHIP_CHROMA_420, 8},  {"420paldv", VMAFHIP_CHROMA_420, 8},
    {"420mpeg2", VMAFHIP_CHROMA_420, 8}, {"420", VMAFHIP_CHROMA_420, 8},
    {"422", VMAFHIP_CHROMA_422, 8},      {"444", VMAFHIP_CHROMA_444, 8},
    {"mono", VMAFHIP_CHROMA_400, 8},     {"420p10", VMAFHIP_CHROMA_420, 10},
    {"422p10", VMAFHIP_CHROMA_422, 10},  {"444p10", VMAFHIP_CHROMA_444, 10},
    {"mono10", VMAFHIP_CHROMA_400, 10},  {"420p12", VMAFHIP_CHROMA_420, 12},
    {"422p12", VMAFHIP_CHROMA_422, 12},  {"444p12", VMAFHIP_CHROMA_444, 12},
    {"mono12", VMAFHIP_CHROMA_400, 12},  {"420p16", VMAFHIP_CHROMA_420, 16},
    {"422p16", VMAFHIP_CHROMA_422, 16},  {"444p16", VMAFHIP_CHROMA_444, 16},
    {"mono16", VMAFHIP_CHROMA_400, 16},
};

// Header and FRAME lines are short; the cap stops a raw file that happens to
// start with the signature from being read whole as a line.
constexpr size_t max_line = 4096;

enum LineResult { LINE_OK, LINE_EOF, LINE_CUT, LINE_TOO_LONG, LINE_ERROR };

// One line without its '\n'. LINE_EOF: the input ended before any byte.
LineResult read_line(FILE *f, std::string *line)
{
    line->clear();
    for (;;) {
        const int c = std::getc(f);
        if (c == '\n')
            return LINE_OK;
        if (c == EOF)
            return std::ferror(f) ? LINE_ERROR : line->empty() ? LINE_EOF : LINE_CUT;
        if (line->size() == max_line)
            return LINE_TOO_LONG;
        line->push_back(static_cast<char>(c));
    }
}

bool parse_size(const std::string &text, int *out)
{
    char *end = nullptr;
    errno = 0;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || errno || v < 1 || v > INT_MAX)
        return false;
    *out = static_cast<int>(v);
    return true;
}

class Y4mInput : public Input {
public:
    Y4mInput(File f, std::string label) : Input(std::move(f), std::move(label)) {}

    /// Parse the header after the signature. @return 0 or -1 with *err.
    int parse_header(std::string *err)
    {
        std::string line;
        const LineResult r = read_line(f_.get(), &line);
        if (r == LINE_ERROR) {
            read_error(err);
            return -1;
        }
        if (r != LINE_OK)
            return header_error(r == LINE_TOO_LONG ? "its first line is longer than 4096 bytes"
                                                   : "the file ends inside it",
                                err);
        fmt_.chroma = VMAFHIP_CHROMA_420;
        fmt_.bpc = 8;
        bool have_w = false, have_h = false;
        for (size_t pos = 0; pos < line.size();) {
            size_t end = line.find(' ', pos);
            if (end == std::string::npos)
                end = line.size();
            const std::string tok = line.substr(pos, end - pos);
            pos = end + 1;
            if (tok.empty())
                continue;
            const std::string val = tok.substr(1);
            if (tok[0] == 'W' && !(have_w = parse_size(val, &fmt_.w)))
                return header_error("width W" + val + " is not a positive whole number", err);
            if (tok[0] == 'H' && !(have_h = parse_size(val, &fmt_.h)))
                return header_error("height H" + val + " is not a positive whole number", err);
            if (tok[0] == 'C' && set_colorspace(val) < 0)
                return header_error("colorspace C" + val +
                                        " is not supported: accepted are 420jpeg, 420paldv, "
                                        "420mpeg2, 420, 422, 444, mono, and 420p10, 422p10, "
                                        "444p10, mono10 and their 12- and 16-bit forms",
                                    err);
            // F (rate), I (interlacing), A (aspect) and X (extensions) do not
            // change the samples the metrics read.
        }
        if (!have_w || !have_h)
            return header_error(std::string("it has no ") + (have_w ? "H (height)" : "W (width)") +
                                    " tag",
                                err);
        return 0;
    }

    const Format *declared() const override { return &fmt_; }

    int start(const Format &fmt, std::string *) override
    {
        frame_bytes_ = frame_bytes(fmt);
        find_size();
        return 0;
    }

    int read(uint8_t *buf, std::string *err) override
    {
        const int r = frame_line(err);
        if (r <= 0)
            return r;
        return finish_read(std::fread(buf, 1, frame_bytes_, f_.get()), err);
    }

    // The FRAME line is read from the stream as in read(); the samples are
    // skipped, once the file's size shows they are all there.
    int locate(long long *offset, std::string *err) override
    {
        const int r = frame_line(err);
        if (r <= 0)
            return r;
        const long long at = ftello(f_.get());
        if (at < 0) {
            read_error(err);
            return -1;
        }
        if (size_ - at < static_cast<long long>(frame_bytes_)) {
            truncated_error(index_, static_cast<size_t>(std::max(0LL, size_ - at)), err);
            return -1;
        }
        if (fseeko(f_.get(), static_cast<off_t>(frame_bytes_), SEEK_CUR)) {
            read_error(err);
            return -1;
        }
        *offset = at;
        index_++;
        return 1;
    }

private:
    // The FRAME line of frame index_. @return 1, 0 at the end, -1 with *err.
    int frame_line(std::string *err)
    {
        std::string line;
        const LineResult r = read_line(f_.get(), &line);
        if (r == LINE_EOF)
            return 0;
        if (r == LINE_ERROR) {
            read_error(err);
            return -1;
        }
        if (r != LINE_OK || line.compare(0, 5, "FRAME") || (line.size() > 5 && line[5] != ' ')) {
            *err = "bad y4m frame in " + label_ + ": frame " + std::to_string(index_) +
                   " (counted from 0) does not start with a FRAME line";
            return -1;
        }
        return 1;
    }

    void truncated_error(long long index, size_t got, std::string *err) const override
    {
        *err = "truncated y4m frame in " + label_ + ": frame " + std::to_string(index) +
               " (counted from 0) has " + std::to_string(got) + " of its " +
               std::to_string(frame_bytes_) + " bytes";
    }

    int header_error(const std::string &what, std::string *err) const
    {
        *err = "bad y4m header in " + label_ + ": " + what;
        return -1;
    }

    int set_colorspace(const std::string &tag)
    {
        for (const auto &c : colorspaces)
            if (tag == c.tag) {
                fmt_.chroma = c.chroma;
                fmt_.bpc = c.bpc;
                return 0;
            }
        return -1;
    }

    Format fmt_;
};

} // namespace

std::unique_ptr<Input> make_y4m_input(File f, std::string label, std::string *err)
{
    auto in = std::make_unique<Y4mInput>(std::move(f), std::move(label));
    if (in->parse_header(err) < 0)
        return nullptr;
    return in;
}

} // namespace cli
