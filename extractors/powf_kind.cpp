#include "extractors/powf_kind.h"

#include <math.h>

#include "kernels/float_bits.h"

namespace vmafhip {

namespace {

// (x, y) bits where glibc's two builds give different floats (found by
// comparing the two over every positive float x for these exponents).
struct Probe {
    uint32_t x, y;
};
constexpr Probe kProbes[] = {
    {0x2e70c856, 0x3ecccccd}, // y = 0.4
    {0x3dc5f525, 0x41a00000}, // y = 20
    {0x4145f525, 0x41a00000},
    {0x34d82cc1, 0x40966666}, // y = 4.7
    {0x40efd911, 0x40966666},
    {0x49287fcf, 0x40966666},
};

bool powf_is(bool fused)
{
    for (const Probe &p : kProbes) {
        // volatile: the compiler would otherwise compute powf itself, correctly rounded
        volatile float x = bits_float(p.x), y = bits_float(p.y);
        const float host = ::powf(x, y);
        if (float_bits(host) != float_bits(glibc_powf(x, y, fused)))
            return false;
    }
    return true;
}

} // namespace

PowfKind host_powf_kind()
{
    static const PowfKind kind = powf_is(true)    ? POWF_GLIBC_FUSED
                                 : powf_is(false) ? POWF_GLIBC
                                                  : POWF_ROUNDED_POW;
    return kind;
}

} // namespace vmafhip
