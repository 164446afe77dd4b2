#include "tests/common/rcpss.h"

#include <string.h>

#if defined(__SSE2__)
#include <xmmintrin.h>
#endif

uint32_t rcpss_fingerprint(void)
{
#if defined(__SSE2__)
    uint32_t h = 2166136261u;
    for (uint32_t k = 0; k < 4096; k++) {
        const uint32_t in = 0x3f800000u | k << 11;
        float x;
        memcpy(&x, &in, sizeof x);
        const float r = _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x)));
        uint32_t out;
        memcpy(&out, &r, sizeof out);
        for (int b = 0; b < 4; b++)
            h = (h ^ (out >> (8 * b) & 0xffu)) * 16777619u;
    }
    return h;
#else
    return 0;
#endif
}
