// A value the CLI quotes in a message, cut in the middle when it is long, by
// the rule the library's own messages follow (the first 100 and last 40
// bytes of a value over 160): the CLI reaches the library through its C API
// only, so it keeps its own copy of that rule, as the FFmpeg filter does.
#pragma once

#include <string>

namespace cli {

inline std::string quote_cut(const std::string &value)
{
    constexpr size_t head = 100, tail = 40, max = 160;
    std::string q(1, '\'');
    if (value.size() <= max)
        q += value;
    else
        q += value.substr(0, head) + "..." + value.substr(value.size() - tail);
    q += '\'';
    if (value.size() > max)
        q += " (" + std::to_string(value.size()) + " bytes)";
    return q;
}

} // namespace cli
