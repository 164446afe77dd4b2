// The separable float filter libvmaf's float extractors share in two
// implementations of the same arithmetic (vif_tools.c's vif_filter1d_s and
// common/convolution.c's convolution_y_c_s then convolution_x_c_s): a
// vertical pass per row, then a horizontal pass per column, each a float sum
// from 0 of tap times sample, taps ascending, reflect-101 edges
// (docs/speed.md §5.2, docs/float_motion.md §2). float_vif and float_motion
// use it.
#pragma once

#include <vector>

#include "kernels/speed/speed_ops.h"

namespace vmafhip {

/// The vertical pass of row i at every column j < w of an h-row image:
/// Σ_q f[q] * v(mirror(i - r + q), j), float from 0, q ascending.
template <typename Sample>
void filter_vertical(const std::vector<float> &f, int w, int h, int i, Sample v, float *out)
{
    const int fw = static_cast<int>(f.size()), r = fw / 2;
    for (int j = 0; j < w; j++) {
        float acc = 0.0f;
        for (int q = 0; q < fw; q++)
            acc = acc + f[q] * v(speed_mirror(i - r + q, h), j);
        out[j] = acc;
    }
}

/// The horizontal pass at column j of a row t of w samples (a vertical pass).
inline float filter_horizontal(const std::vector<float> &f, int w, const float *t, int j)
{
    const int fw = static_cast<int>(f.size()), r = fw / 2;
    float acc = 0.0f;
    for (int q = 0; q < fw; q++)
        acc = acc + f[q] * t[speed_mirror(j - r + q, w)];
    return acc;
}

} // namespace vmafhip
