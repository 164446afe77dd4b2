// float_adm's reciprocal estimate as a table (docs/float_adm.md §6.1): the
// host's rcpss for the 4096 significands fadm_rcp() (kernels/float_adm/
// float_adm_ops.h) indexes, and the one check per process that the table
// and fadm_rcp()'s exponent and edge rules give the processor's own rcpss
// bits, which the GPU then reproduces.
#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

#include <cstdint>
#include <cstring>
#include <mutex>
#include <string>

#include "base/log.h"
#include "extractors/float_adm/float_adm.h"

namespace vmafhip {

bool float_adm_uses_rcp()
{
#if defined(__SSE2__)
    return true;
#else
    return false;
#endif
}

#if defined(__SSE2__)

namespace {

uint32_t table_[FADM_RCP_ENTRIES];
std::string why_; // empty: the model holds
std::once_flag once_;

/// Four rcpss results of the processor against fadm_rcp(): the first input
/// that differs into *why, or false.
bool differs(const uint32_t in[4], std::string *why)
{
    float x[4];
    std::memcpy(x, in, sizeof x);
    uint32_t got[4];
    _mm_storeu_ps(reinterpret_cast<float *>(got), _mm_rcp_ps(_mm_loadu_ps(x)));
    for (int k = 0; k < 4; k++) {
        const uint32_t model = float_bits(fadm_rcp(x[k], table_));
        if (got[k] != model) {
            *why = strprintf("rcpss(0x%08x) is 0x%08x on this processor, the table model gives "
                             "0x%08x",
                             in[k], got[k], model);
            return true;
        }
    }
    return false;
}

/// Every input of the check, four at a time; stops at the first difference.
void check(std::string *why)
{
    uint32_t q[4];
    int n = 0;
    bool bad = false;
    const auto add = [&](uint32_t b) {
        if (bad)
            return;
        q[n++] = b;
        if (n == 4) {
            n = 0;
            bad = differs(q, why);
        }
    };
    // Every significand of [1, 2).
    for (uint32_t m = 0; m < (1u << 23); m++)
        add(0x3f800000u | m);
    // Every exponent and sign: each table index at its ends, and a
    // pseudo-random sample of significands.
    uint32_t r = 0x12345678u;
    for (uint32_t sign = 0; sign < 2; sign++)
        for (uint32_t e = 1; e < 255; e++) {
            const uint32_t top = sign << 31 | e << 23;
            for (uint32_t k = 0; k < FADM_RCP_ENTRIES; k++) {
                add(top | k << (23 - FADM_RCP_BITS));
                add(top | k << (23 - FADM_RCP_BITS) | ((1u << (23 - FADM_RCP_BITS)) - 1));
            }
            for (int k = 0; k < 512; k++) {
                r = r * 1664525u + 1013904223u;
                add(top | (r >> 9));
            }
        }
    // Zeros, subnormals, infinities, NaNs (quiet and signalling).
    for (uint32_t sign = 0; sign < 2; sign++) {
        const uint32_t s = sign << 31;
        for (uint32_t b : {0u, 1u, 2u, 0x3ffu, 0x400000u, 0x7ffffeu, 0x7fffffu, 0x7f800000u,
                           0x7f800001u, 0x7fa00000u, 0x7fbfffffu, 0x7fc00000u, 0x7fc00001u,
                           0x7fffffffu})
            add(s | b);
        for (int k = 0; k < 4096; k++) {
            r = r * 1664525u + 1013904223u;
            add(s | (r >> 9)); // a subnormal
            r = r * 1664525u + 1013904223u;
            add(s | 0x7f800000u | ((r >> 9) | 1u)); // a NaN
        }
    }
    while (n && !bad)
        add(0x3f800000u); // fill the last four
}

} // namespace

const uint32_t *float_adm_rcp_table(std::string *why)
{
    std::call_once(once_, [] {
        for (uint32_t k = 0; k < FADM_RCP_ENTRIES; k++) {
            const float x = bits_float(0x3f800000u | k << (23 - FADM_RCP_BITS));
            table_[k] = float_bits(_mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))));
        }
        check(&why_);
    });
    if (!why_.empty()) {
        *why = why_;
        return nullptr;
    }
    why->clear();
    return table_;
}

#else

const uint32_t *float_adm_rcp_table(std::string *why)
{
    why->clear();
    return nullptr;
}

#endif // defined(__SSE2__)

} // namespace vmafhip
