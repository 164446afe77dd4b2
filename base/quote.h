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
    // Appended, not "'" + value: GCC 12 warns falsely on that in C++20 (-Wrestrict).
    std::string q(1, '\'');
    if (value.size() <= max)
        return q.append(value).append(1, '\'');
    return q.append(value, 0, head)
        .append("...")
        .append(value, value.size() - tail, tail)
        .append("' (")
        .append(std::to_string(value.size()))
        .append(" bytes)");
}

} // namespace vmafhip
