#include "input.h"

#include "quote.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

namespace cli {

namespace {

const char y4m_signature[] = "YUV4MPEG2 ";
constexpr size_t y4m_signature_len = sizeof(y4m_signature) - 1;

bool has_y4m_extension(const std::string &path)
{
    return path.size() >= 4 && !strcasecmp(path.c_str() + path.size() - 4, ".y4m");
}

} // namespace

void Input::read_error(std::string *err) const
{
    *err = "cannot read " + label_ + ": " + std::strerror(errno);
}

int Input::finish_read(size_t got, std::string *err)
{
    if (got == frame_bytes_) {
        index_++;
        return 1;
    }
    if (std::ferror(f_.get()))
        read_error(err);
    else
        truncated_error(index_, got, err);
    return -1;
}

long long Input::file_size() const
{
    struct stat st;
    if (!fstat(fileno(f_.get()), &st) && S_ISREG(st.st_mode))
        return static_cast<long long>(st.st_size);
    return -1;
}

void Input::find_size()
{
    size_ = file_size();
}

int Input::read_at(long long index, long long offset, uint8_t *buf, size_t bytes,
                   std::string *err) const
{
    const int fd = fileno(f_.get());
    size_t got = 0;
    while (got < bytes) {
        // pread moves at most about 2 GiB per call on Linux.
        const ssize_t r = pread(fd, buf + got, std::min<size_t>(bytes - got, size_t(1) << 30),
                                static_cast<off_t>(offset + static_cast<long long>(got)));
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            read_error(err);
            return -1;
        }
        if (!r) {
            // The file shrank after locate() saw the frame whole.
            truncated_error(index, got, err);
            return -1;
        }
        got += static_cast<size_t>(r);
    }
    return 0;
}

std::unique_ptr<Input> open_input(const std::string &path, const char *role, std::string *err)
{
    const std::string label = std::string(role) + " " + cli::quote_cut(path);
    File f(std::fopen(path.c_str(), "rb"));
    if (!f) {
        *err = "cannot open " + label + ": " + std::strerror(errno);
        return nullptr;
    }
    // fopen() opens a folder for reading on Linux; the first read would fail.
    struct stat st;
    if (!fstat(fileno(f.get()), &st) && S_ISDIR(st.st_mode)) {
        *err = "cannot read " + label + ": it is a folder";
        return nullptr;
    }
    char head[y4m_signature_len];
    const size_t n = std::fread(head, 1, sizeof(head), f.get());
    if (std::ferror(f.get())) {
        *err = "cannot read " + label + ": " + std::strerror(errno);
        return nullptr;
    }
    if (n == y4m_signature_len && !std::memcmp(head, y4m_signature, n))
        return make_y4m_input(std::move(f), label, err);
    if (has_y4m_extension(path)) {
        *err = "bad y4m header in " + label + ": the file does not start with \"YUV4MPEG2 \"";
        return nullptr;
    }
    return make_yuv_input(std::move(f), label, std::string(head, n));
}

} // namespace cli
