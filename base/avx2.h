// AVX2 code beside the baseline build: a function marked VMAFHIP_AVX2 is
// compiled for AVX2 whatever the build's target, and is called only where
// cpu_has_avx2() says so (base/cpu_flags.h). Also the lane helpers the
// metrics' AVX2 kernels share. x86-64 only.
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>

#include "base/cpu_flags.h"

#define VMAFHIP_AVX2 __attribute__((target("avx2")))

namespace vmafhip {

/// Whether this CPU runs AVX2 (checked once).
inline bool cpu_has_avx2()
{
    return cpu_flags() & CPU_FLAG_AVX2;
}

/// 32 unaligned bytes.
VMAFHIP_AVX2 inline __m256i avx2_load(const void *p)
{
    return _mm256_loadu_si256(static_cast<const __m256i *>(p));
}

/// Every int32 lane holding lo in its low 16 bits and hi in its high 16 bits
/// (each taken mod 2^16): the pairs vpmaddwd multiplies, e.g. two filter taps.
VMAFHIP_AVX2 inline __m256i avx2_pairs(int lo, int hi)
{
    // Unsigned: a negative int shifted left is undefined.
    const uint32_t bits = static_cast<uint32_t>(static_cast<uint16_t>(hi)) << 16 | static_cast<uint16_t>(lo);
    return _mm256_set1_epi32(static_cast<int32_t>(bits));
}

/// The sum of the 4 int64 lanes of v (mod 2^64).
VMAFHIP_AVX2 inline uint64_t avx2_sum64(__m256i v)
{
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return static_cast<uint64_t>(_mm_cvtsi128_si64(s)) + static_cast<uint64_t>(_mm_extract_epi64(s, 1));
}

} // namespace vmafhip
#endif // defined(__x86_64__)
