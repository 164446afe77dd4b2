// float_ssim on the CPU: the Gaussian passes and the per-pixel SSIM along a
// row (docs/ssim.md §5) as the kernels of a table, one table per instruction
// set: the plain C++ one (ssim_cpu.cpp), the reference, and the AVX2 one
// (ssim_cpu_avx2.cpp), which gives the same floats and doubles to the last
// bit: it runs each output's operations in the same order and precision,
// eight outputs at a time.
#pragma once

#include <cstddef>

#include "extractors/frame_view.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

class ThreadPool;

/// Five planes of floats (mu1, mu2, e11, e22, e12: the order of SsimMoments).
using SsimPlanes = float *const[5];

/// The per-pixel terms of a run of map pixels, one array each.
struct SsimPixelRow {
    double *l, *c, *s, *ssim;
};

struct SsimKernels {
    /// §5.1, horizontal: outputs x in [0, n) of the five planes from the
    /// samples r[x .. x + 10] and d[x .. x + 10] (ssim_hpass5).
    void (*hpass)(const float *r, const float *d, int n, SsimPlanes out);
    /// §5.1, vertical, then §5.2: the SSIM terms of pixels x in [0, n) from
    /// in[p][x + u * stride], u = 0..10 (ssim_filter11, ssim_pixel).
    void (*vpass_pixel)(const float *const in[5], ptrdiff_t stride, int n, const SsimPixelRow &out);
};

/// The plain C++ kernels: the reference every other table is tested against.
const SsimKernels &ssim_kernels_scalar();
/// The AVX2 table, or nullptr when this is not an x86-64 build or the CPU
/// has no AVX2 (a plain CPU check: callers keep the answer).
const SsimKernels *ssim_kernels_avx2();

/// The map sums of one frame's luma planes (what Ssim::cpu computes; tests).
void ssim_cpu_sums(const SsimParams &p, int bpc, const PlaneView &ref, const PlaneView &dis,
                   const SsimKernels &k, ThreadPool &pool, SsimAccum *out);

/// §2 and §4: a luma plane as a dense float plane of dw x dh, decimated by f
/// (1: the normalised samples as they are).
void ssim_cpu_load(const PlaneView &p, int bpc, int f, int dw, int dh, float *out, ThreadPool &pool);

/// §5 and the sums of §6 over two dense w x h float planes (row stride w),
/// at least 11x11: libvmaf's _iqa_ssim with the default arguments, which
/// float_ms_ssim runs at each of its scales too.
void ssim_cpu_map_sums(const float *ref, const float *dis, int w, int h, const SsimKernels &k,
                       ThreadPool &pool, SsimAccum *out);

} // namespace vmafhip
