// The bit pattern of a double, for bit-exact comparisons that also tell
// -0 from +0 and compare NaN with itself.
#pragma once

#include <cstdint>
#include <cstring>

namespace testfx {

inline uint64_t bits(double v)
{
    uint64_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

} // namespace testfx
