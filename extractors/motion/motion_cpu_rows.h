// integer motion on the CPU: the loops along a row (docs/motion.md §2) as
// the kernels of a table, one table per instruction set: the plain C++ one
// (motion_cpu_scalar.cpp), the reference, and the AVX2 one
// (motion_cpu_avx2.cpp), which gives the same integers. motion_cpu.cpp
// walks the rows with either.
//
// Between the passes a row of vertical outputs yv (|yv| < 2^23, §2.3) is
// held as two int16 arrays, hi = yv >> 8 and lo = yv & 255, so that a
// vectorised horizontal pass can multiply 16-bit values: its 64-bit sum
// Σ f yv = 256 Σ f hi + Σ f lo has two parts below 2^31 (§2.4).
#pragma once

#include <cstdint>

#include "extractors/frame_view.h"
#include "kernels/motion/motion_ops.h"

namespace vmafhip {

class ThreadPool;

/// Columns every row buffer of the kernels may be read or written past its
/// last column (whole vectors; the values there are never used).
constexpr int MOTION_ROW_SLACK = 32;
/// Columns before column 0 of a hi/lo row: its mirrored columns -2 and -1.
constexpr int MOTION_PAD = 2;

/// yv as the hi/lo arrays hold it, and back.
inline void motion_split(int32_t yv, int16_t *hi, int16_t *lo)
{
    *hi = static_cast<int16_t>(yv >> 8);
    *lo = static_cast<int16_t>(yv & 255);
}
inline int32_t motion_join(int16_t hi, int16_t lo) { return hi * 256 + lo; }

struct MotionKernels {
    /// d[j] = prev[j] - cur[j] for j in [0, w): the differences the
    /// vertical pass filters, exact in int16 for samples of up to 12 bits.
    /// diff16 returns the OR of all the samples it read, so the caller can
    /// tell whether they were within the bit depth.
    void (*diff8)(const uint8_t *prev, const uint8_t *cur, int w, int16_t *d);
    uint32_t (*diff16)(const uint16_t *prev, const uint16_t *cur, int w, int16_t *d);
    /// §2.3 of columns [0, w) from the difference rows d[k] = rows
    /// m(i - 2 + k), samples within bpc <= 12 bits: hi/lo of yv.
    void (*vert)(const int16_t *const d[5], int w, int bpc, int16_t *hi, int16_t *lo);
    /// §2.4: Σ |z| over columns [0, w) of a hi/lo row whose columns -2, -1,
    /// w and w + 1 hold the mirrored ones (|yv| < 2^23).
    uint64_t (*hori_sad)(const int16_t *hi, const int16_t *lo, int w);
};

/// The plain C++ kernels: the reference every other table is tested against.
const MotionKernels &motion_kernels_scalar();
/// The AVX2 table, or nullptr when this is not an x86-64 build or the CPU
/// has no AVX2 (a plain CPU check: callers keep the answer).
const MotionKernels *motion_kernels_avx2();

/// §2.3 of columns [0, w) straight from the rows p[k], c[k] of the two
/// pictures, for what does not fit the int16 differences: 16-bit samples,
/// or 10- and 12-bit rows holding a sample above the bit depth (a picture
/// the core refused, read again as the previous one). Plain C++ only.
void motion_vert_wide(const uint16_t *const p[5], const uint16_t *const c[5], int w, int bpc,
                      int16_t *hi, int16_t *lo);

/// §2: the SAD of the blurred difference prev - cur with the given kernels,
/// rows split over the pool (what Motion::cpu computes; tests).
uint64_t motion_cpu_sad(const MotionParams &p, const PlaneView &prev, const PlaneView &cur,
                        const MotionKernels &k, ThreadPool &pool);

} // namespace vmafhip
