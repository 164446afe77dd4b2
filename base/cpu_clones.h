// Hot CPU loops built twice, for AVX2 and for the baseline x86-64 (SSE2),
// with the copy for the CPU at hand picked when the library is loaded
// (function multiversioning through an ELF ifunc; GCC and clang). Only for
// integer loops: their results cannot depend on the vector width. Function
// templates cannot be cloned (clang), so mark plain functions.
//
// Not under ThreadSanitizer: the ifunc resolver runs while the loader
// relocates, before the sanitizer's runtime is up, and its instrumented
// entry crashes there.
#pragma once

#if defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VMAFHIP_TSAN 1
#endif
#endif
#if defined(__SANITIZE_THREAD__)
#define VMAFHIP_TSAN 1
#endif

#if defined(__x86_64__) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(VMAFHIP_TSAN)
#define VMAFHIP_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VMAFHIP_CPU_CLONES
#endif
