// The process's resident host memory, for tests that check nothing grows.
#pragma once

#include <cstddef>
#include <fstream>
#include <string>

namespace testfx {

/// VmRSS of this process in KiB (0 where /proc does not tell).
inline size_t resident_kib()
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while (std::getline(f, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stoul(line.substr(6));
    return 0;
}

} // namespace testfx
