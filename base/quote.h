// A value quoted in a message, cut in the middle when it is long (a path of
// 100 kB would push the reason after it out of a log line).
#pragma once

#include <string>

namespace vmafhip {

/// 'value', or its first 100 and last 40 bytes around "..." when it is
/// longer than 160.
inline std::string quote_cut(const std::string &value)
{
    constexpr size_t head = 100, tail = 40, max = 160;
    if (value.size() <= max)
        return "'" + value + "'";
    return "'" + value.substr(0, head) + "..." + value.substr(value.size() - tail) + "' (" +
           std::to_string(value.size()) + " bytes)";
}

} // namespace vmafhip
