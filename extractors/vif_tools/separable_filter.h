// The separable float filter libvmaf's float extractors share in two
// implementations of the same arithmetic (vif_tools.c's vif_filter1d_s and
// common/convolution.c's convolution_y_c_s then convolution_x_c_s): a
// vertical pass per row, then a horizontal pass per column, each a float sum
// from 0 of tap times sample, taps ascending, reflect-101 edges
// (docs/speed.md §5.2, docs/float_motion.md §2). float_vif and float_motion
// use it; the tap loops are kernels/speed/speed_ops.h's, which the kernels run.
#pragma once

#include <vector>

#include "kernels/speed/speed_ops.h"

namespace vmafhip {

/// The vertical pass of row i at every column j < w of an h-row image:
/// Σ_q f[q] * v(mirror(i - r + q), j), float from 0, q ascending.
template <typename Sample>
void filter_vertical(const std::vector<float> &f, int w, int h, int i, Sample v, float *out)
{
    for (int j = 0; j < w; j++)
        out[j] = speed_filter_col(v, f.data(), static_cast<int>(f.size()), h, i, j);
}

/// The horizontal pass at column j of a row t of w samples (a vertical pass).
inline float filter_horizontal(const std::vector<float> &f, int w, const float *t, int j)
{
    return speed_filter_1d(SpeedRow{t}, f.data(), static_cast<int>(f.size()), w, j);
}

} // namespace vmafhip
