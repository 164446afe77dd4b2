// psnr on the CPU: the sum of squared differences along a row (docs/psnr.md
// §4.1) as the kernels of a table, one table per instruction set: the plain
// C++ one (psnr_cpu.cpp), the reference, and the AVX2 one
// (psnr_cpu_avx2.cpp), which gives the same integers.
#pragma once

#include <cstdint>

#include "extractors/frame_view.h"
#include "extractors/psnr/psnr.h"

namespace vmafhip {

class ThreadPool;

struct PsnrKernels {
    /// Σ (a[x] - b[x])^2 over x in [0, w), exact.
    uint64_t (*sse8)(const uint8_t *a, const uint8_t *b, int w);
    /// The same for samples within bpc bits (10, 12 or 16; the core refuses
    /// pictures with samples above the bit depth before scoring them).
    uint64_t (*sse16)(const uint16_t *a, const uint16_t *b, int w, int bpc);
};

/// The plain C++ kernels: the reference every other table is tested against.
const PsnrKernels &psnr_kernels_scalar();
/// The AVX2 table, or nullptr when this is not an x86-64 build or the CPU
/// has no AVX2 (a plain CPU check: callers keep the answer).
const PsnrKernels *psnr_kernels_avx2();

/// §4.1: the SSE of planes [0, planes) of f (ref against dis) into a->sse,
/// rows of every plane split over the pool in one job (what Psnr::cpu
/// computes; tests). The other entries of a->sse are set to 0.
void psnr_cpu_sse(const FrameView &f, int planes, int bpc, const PsnrKernels &k, ThreadPool &pool,
                  PsnrAccum *a);

} // namespace vmafhip
