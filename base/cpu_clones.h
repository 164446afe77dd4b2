// Hot CPU loops built twice, for AVX2 and for the baseline x86-64 (SSE2),
// with the copy for the CPU at hand picked when the library is loaded
// (function multiversioning through an ELF ifunc; GCC and clang). Only for
// integer loops: their results cannot depend on the vector width. Function
// templates cannot be cloned (clang), so mark plain functions.
#pragma once

#if defined(__x86_64__) && defined(__ELF__) && (defined(__GNUC__) || defined(__clang__))
#define VMAFHIP_CPU_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define VMAFHIP_CPU_CLONES
#endif
