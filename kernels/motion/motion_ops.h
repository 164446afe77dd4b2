// integer motion per-sample arithmetic (docs/motion.md §2), shared by the
// CPU reference and the GPU kernel, plus the POD parameter block and the
// per-frame accumulator both backends fill.
//
// The blur is applied to the difference of two reference luma pictures:
// a 5-tap vertical pass rounded by a floor shift of bpc bits, then a 5-tap
// horizontal pass rounded by a floor shift of 16 bits, both with the
// reflect-101 mirror. Every value is an exact integer, so the frame's sum of
// |z| is the same in any order and on any device.
//
// Device-code rules for this header: fixed-width integer arithmetic only, no
// std:: calls, no namespace-scope tables (the taps are written as constants).
#pragma once

#include <stdint.h>

#include "kernels/hd.h"

namespace vmafhip {

/// Smallest width and height: the mirror needs n >= 3 (docs/motion.md §6).
constexpr int MOTION_MIN_SIZE = 3;

/// Per-frame accumulator, the same bytes on the CPU and the GPU.
struct MotionAccum {
    uint64_t sad; ///< Σ |z| over the picture (docs/motion.md §2); 0 where no score is taken
};

/// What one launch (or one CPU call) needs; host-built by Motion::params().
struct MotionParams {
    int32_t w, h; ///< luma size in samples, both >= MOTION_MIN_SIZE
    int32_t bpc;  ///< 8, 10, 12 or 16: also the vertical floor shift
    int32_t prev; ///< previous picture compared: 0 (frame i-1) or 1 (frame i-2, five-frame window)
};

/// Filter taps, Q16 (sum 65536), symmetric: f = [F0, F1, F2, F1, F0].
constexpr int32_t MOTION_F0 = 3571;
constexpr int32_t MOTION_F1 = 16004;
constexpr int32_t MOTION_F2 = 26386;

/// Reflect-101 mirror (docs/motion.md §2.2): -1 -> 1, -2 -> 2, n -> n - 2,
/// n + 1 -> n - 3. Only p in [-2, n + 1] occurs; in range for n >= 3.
VMAFHIP_HD int motion_mirror(int p, int n) { return p < 0 ? -p : p >= n ? 2 * n - 2 - p : p; }

/// Σ f[k] * x_k over the five taps, exact in 64 bits for any bit depth.
VMAFHIP_HD int64_t motion_taps(int64_t x0, int64_t x1, int64_t x2, int64_t x3, int64_t x4)
{
    return MOTION_F0 * x0 + MOTION_F1 * x1 + MOTION_F2 * x2 + MOTION_F1 * x3 + MOTION_F0 * x4;
}

/// Vertical pass of the differences d_k = prev - cur of rows m(i-2) .. m(i+2)
/// (docs/motion.md §2.3): (Σ f d + 2^(bpc-1)) >> bpc, a floor shift. |result| < 2^17.
VMAFHIP_HD int32_t motion_vert(int32_t d0, int32_t d1, int32_t d2, int32_t d3, int32_t d4, int bpc)
{
    const int64_t acc = motion_taps(d0, d1, d2, d3, d4);
    return static_cast<int32_t>((acc + (static_cast<int64_t>(1) << (bpc - 1))) >> bpc);
}

/// Horizontal pass of the vertical values at columns m(j-2) .. m(j+2), and
/// its magnitude (docs/motion.md §2.4): |(Σ f y + 2^15) >> 16|, a floor shift.
VMAFHIP_HD uint32_t motion_hori_abs(int32_t y0, int32_t y1, int32_t y2, int32_t y3, int32_t y4)
{
    const int64_t acc = motion_taps(y0, y1, y2, y3, y4);
    const int32_t z = static_cast<int32_t>((acc + 32768) >> 16);
    return static_cast<uint32_t>(z < 0 ? -z : z);
}

} // namespace vmafhip
