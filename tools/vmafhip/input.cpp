#include "input.h"

#include <cerrno>
#include <cstring>
#include <strings.h>
#include <sys/stat.h>

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

std::unique_ptr<Input> open_input(const std::string &path, const char *role, std::string *err)
{
    const std::string label = std::string(role) + " '" + path + "'";
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
