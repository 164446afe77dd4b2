// float_motion per-sample arithmetic (docs/float_motion.md §2, §3.1), shared
// by the CPU code and the GPU kernels: the blur's two passes of the converted
// luma (speed_sample(), kernels/speed/speed_ops.h) through speed_filter_1d(),
// and the mean absolute difference's sums, each in the page's order of float
// operations.
//
// Device-code rules for this header: float and int arithmetic only (each +,
// -, * and / correctly rounded; the builds have no contraction), fabsf (a
// sign bit), no namespace-scope tables.
#pragma once

#include <math.h>
#include <stddef.h>

#include "kernels/hd.h"
#include "kernels/speed/speed_ops.h"

namespace vmafhip {

/// The widest blur (§2): 5 taps.
constexpr int FMOTION_MAX_TAPS = 5;

/// Column j of a w-wide float plane: the line the vertical pass reads.
struct FmotionColumn {
    const float *p;
    int w, j;
    VMAFHIP_HD float operator()(int i) const { return p[static_cast<size_t>(i) * w + j]; }
};

/// §2: the vertical pass at (i, j) of a w x h float plane (the converted
/// luma), taps (fw of them) ascending.
VMAFHIP_HD float fmotion_vertical(const float *plane, const float *taps, int fw, int w, int h,
                                  int i, int j)
{
    return speed_filter_1d(FmotionColumn{plane, w, j}, taps, fw, h, i);
}

/// §2: the horizontal pass at column j of a row t of w vertical sums.
VMAFHIP_HD float fmotion_horizontal(const float *t, const float *taps, int fw, int w, int j)
{
    return speed_filter_1d(SpeedRow{t}, taps, fw, w, j);
}

/// §3.4: the row pitch, in floats, of libvmaf's buffers of a w-wide plane:
/// w * 4 bytes rounded up to 32.
VMAFHIP_HD int fmotion_libvmaf_pitch(int w) { return (w + 7) / 8 * 8; }

/// §3.4: sample (y, x) of a blurred w-wide plane (packed, row-major) as
/// libvmaf's half-size step reads it with motion_add_uv: rows own_pitch
/// floats apart in a buffer whose rows are buffer_pitch floats apart (the
/// luma's), the columns from w on being the buffer's never written padding,
/// read as 0. With equal pitches (luma, 4:4:4) it is sample (y, x) itself.
VMAFHIP_HD float fmotion_scale1_sample(const float *plane, int w, int own_pitch, int buffer_pitch,
                                       int y, int x)
{
    const size_t k = static_cast<size_t>(y) * own_pitch + x;
    const size_t row = k / buffer_pitch;
    const int col = static_cast<int>(k % buffer_pitch);
    return col < w ? plane[row * w + col] : 0.0f;
}

/// §3.4: a blurred plane as libvmaf's half-size step reads it (the
/// resampler's source).
struct FmotionScale1Reads {
    const float *plane;
    int w, own_pitch, buffer_pitch;
    VMAFHIP_HD float operator()(int y, int x) const
    {
        return fmotion_scale1_sample(plane, w, own_pitch, buffer_pitch, y, x);
    }
};

/// §3.1: Σ |a[x] - b[x]| of one row of w floats, in float from 0, x ascending.
VMAFHIP_HD float fmotion_row_sad(const float *a, const float *b, int w)
{
    float s = 0.0f;
    for (int x = 0; x < w; x++)
        s = s + ::fabsf(a[x] - b[x]);
    return s;
}

/// §3.1: the h rows' sums added in float from 0, top to bottom, divided by
/// (float)(w * h).
VMAFHIP_HD float fmotion_mean(const float *rows, int w, int h)
{
    float total = 0.0f;
    for (int y = 0; y < h; y++)
        total = total + rows[y];
    return total / static_cast<float>(w * h);
}

/// §3: the frame's score from the row sums of the w x h pictures and, with
/// motion_add_scale1 (half_rows not null), those of the sw x sh half-size
/// ones, the two means added in float (§3.2).
VMAFHIP_HD float fmotion_score(const float *rows, int w, int h, const float *half_rows, int sw,
                               int sh)
{
    const float s = fmotion_mean(rows, w, h);
    return half_rows ? s + fmotion_mean(half_rows, sw, sh) : s;
}

} // namespace vmafhip
