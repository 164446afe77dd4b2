// The bit pattern of a double or a float, for bit-exact comparisons that
// also tell -0 from +0 and compare NaN with itself.
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

inline uint32_t bits(float v)
{
    uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    return u;
}

} // namespace testfx
