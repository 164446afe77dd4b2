// The instruction sets the CPU code may use, as the bits of libvmaf's x86
// CPU flags, so that a libvmaf --cpumask means the same here: a bit set in
// the mask turns that set off (16: no AVX-512; 63: plain code only). The
// metrics have plain C++ kernels, the reference, and AVX2 kernels; the other
// bits are accepted for libvmaf's masks and select nothing.
#pragma once

namespace vmafhip {

enum CpuFlag : unsigned {
    CPU_FLAG_SSE2 = 1u << 0,
    CPU_FLAG_SSSE3 = 1u << 1,
    CPU_FLAG_SSE41 = 1u << 2,
    CPU_FLAG_AVX2 = 1u << 3,
    CPU_FLAG_AVX512 = 1u << 4,
};

/// The flags of this CPU that the library has code for: CPU_FLAG_AVX2 on
/// an x86-64 CPU (and OS) with AVX2, else 0. Checked once. A plain check,
/// not an ifunc: ThreadSanitizer cannot run ifuncs.
inline unsigned cpu_flags()
{
#if defined(__x86_64__)
    static const unsigned flags = __builtin_cpu_supports("avx2") ? CPU_FLAG_AVX2 : 0u;
    return flags;
#else
    return 0;
#endif
}

} // namespace vmafhip
