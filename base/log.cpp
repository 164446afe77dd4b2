#include "base/log.h"

#include <cstdio>
#include <vector>

namespace vmafhip {

void Logger::vlog(VmafHipLogLevel level, const char *fmt, va_list vl) const
{
    if (level > level_)
        return;
    if (cb_) {
        cb_(cookie_, level, fmt, vl);
        return;
    }
    static const char *const prefix[] = {"error", "warning", "info", "debug"};
    std::fprintf(stderr, "vmafhip %s: ", prefix[level]);
    std::vfprintf(stderr, fmt, vl);
}

void Logger::log(VmafHipLogLevel level, const char *fmt, ...) const
{
    va_list vl;
    va_start(vl, fmt);
    vlog(level, fmt, vl);
    va_end(vl);
}

std::string strprintf(const char *fmt, ...)
{
    va_list vl, vl2;
    va_start(vl, fmt);
    va_copy(vl2, vl);
    const int n = std::vsnprintf(nullptr, 0, fmt, vl);
    va_end(vl);
    std::string out;
    if (n > 0) {
        std::vector<char> buf(static_cast<size_t>(n) + 1);
        std::vsnprintf(buf.data(), buf.size(), fmt, vl2);
        out.assign(buf.data(), static_cast<size_t>(n));
    }
    va_end(vl2);
    return out;
}

} // namespace vmafhip
