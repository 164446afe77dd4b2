// SpEED per-sample arithmetic (docs/speed.md §2.1, §5.1 to §5.4), shared by
// the CPU code and the GPU kernels, and the POD dimensions both take.
//
// Both backends run the pixel work of a plane side (conversion or temporal
// difference, prescale, anti-alias filter at the decimated samples, local
// mean removal, the 25 means and the covariance matrix) through these
// functions, each value in the page's order of float and double operations;
// kernels/speed/speed_solve.h takes it from there.
//
// Device-code rules for this header: float, double and int arithmetic only
// (each +, -, *, / correctly rounded; the builds have no contraction), no
// std:: calls and no namespace-scope tables: taps and resampling tables are
// pointers the caller passes.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "kernels/hd.h"
#include "kernels/picture_sample.h"

namespace vmafhip {

constexpr int SPEED_NE = 25; ///< positions of a 5x5 block (§5.4)

/// The sizes of one plane's pass (§3) and its filters (§5.2), host-built.
struct SpeedDims {
    int32_t ow, oh;     ///< plane size (§2.2)
    int32_t sw, sh;     ///< scaled size (§3)
    int32_t opw, oph;   ///< operating size (§3)
    int32_t tw, th;     ///< truncated size (§3)
    int32_t subw, subh; ///< covariance window (§5.4)
    int32_t resample;   ///< §5.1 runs (sizes differ and the prescale is not within 1e-3 of 1)
    int32_t normalise;  ///< lanczos4: divide by the sum of the weights (§5.1)
    int32_t tx, ty;     ///< resample: taps per output column and row (§5.1)
    int32_t wa, wl;     ///< anti-alias and low-pass filter widths (§5.2)
};

/// §2.1: one sample on the 8-bit scale, centred on 0 (exact at every depth).
VMAFHIP_HD float speed_sample(uint32_t s, int bpc)
{
    return picture_sample(s, bpc, -128);
}

/// A float image as the filters below read it: (row, column).
struct SpeedImage {
    const float *data;
    int stride; ///< floats per row
    VMAFHIP_HD float operator()(int y, int x) const { return data[static_cast<size_t>(y) * stride + x]; }
};

/// §5.2: reflect-101 (the edge sample is not repeated).
VMAFHIP_HD int speed_mirror(int t, int n) { return t < 0 ? -t : (t >= n ? 2 * n - t - 2 : t); }

/// §5.1: one scaled sample (x, y) of src(row, column): rows outer, columns
/// inner, each term the product of the two weights times the sample, summed
/// in float from 0; lanczos4 divides by the sum of the weights. xi, xw: the
/// tx source columns and weights of column x; yi, yw likewise for row y.
template <typename Src>
VMAFHIP_HD float speed_resample_at(const Src &src, const int *xi, const float *xw, int tx,
                                   const int *yi, const float *yw, int ty, bool normalise)
{
    float acc = 0.0f, wsum = 0.0f;
    for (int j = 0; j < ty; j++)
        for (int i = 0; i < tx; i++) {
            const float w = xw[i] * yw[j];
            wsum = wsum + w;
            acc = acc + src(yi[j], xi[i]) * w;
        }
    return normalise ? acc / wsum : acc;
}

/// §5.2: one pass of the separable filter f (width fw) at position c of a
/// line of n samples line(t): Σ_q f[q] * line(mirror(c - r + q)), in float
/// from 0, q ascending. A vertical pass reads a column, a horizontal pass a
/// row (float_motion and float_vif run the two passes with it,
/// speed_filter_at() both).
template <typename Line>
VMAFHIP_HD float speed_filter_1d(const Line &line, const float *f, int fw, int n, int c)
{
    const int r = fw / 2;
    float acc = 0.0f;
    for (int q = 0; q < fw; q++)
        acc = acc + f[q] * line(speed_mirror(c - r + q, n));
    return acc;
}

/// Column col of src(row, column), as speed_filter_1d() reads a line.
template <typename Src> struct SpeedColumn {
    const Src &src;
    int col;
    VMAFHIP_HD float operator()(int y) const { return src(y, col); }
};

/// A row held in memory, as speed_filter_1d() reads a line.
struct SpeedRow {
    const float *t;
    VMAFHIP_HD float operator()(int x) const { return t[x]; }
};

/// §5.2: the vertical pass at row i, column col of an h-row image src(row, column).
template <typename Src>
VMAFHIP_HD float speed_filter_col(const Src &src, const float *f, int fw, int h, int i, int col)
{
    return speed_filter_1d(SpeedColumn<Src>{src, col}, f, fw, h, i);
}

/// The vertical pass at row i of each column of src, as a line of columns.
template <typename Src> struct SpeedVerticalPass {
    const Src &src;
    const float *f;
    int fw, h, i;
    VMAFHIP_HD float operator()(int col) const { return speed_filter_col(src, f, fw, h, i, col); }
};

/// §5.2: the separable filter f (width fw) at sample (i, j) of a w x h image
/// src(row, column): each vertical sum, then the horizontal one, q ascending,
/// accumulated in float from 0.
template <typename Src>
VMAFHIP_HD float speed_filter_at(const Src &src, const float *f, int fw, int w, int h, int i, int j)
{
    return speed_filter_1d(SpeedVerticalPass<Src>{src, f, fw, h, i}, f, fw, w, j);
}

/// §5.4: the mean of the subw x subh window of e (stride) at position p of
/// the 5x5 block; float, i outer, j inner, from 0.
VMAFHIP_HD float speed_mean(const float *e, int stride, int p, int subw, int subh)
{
    const float *base = e + (p / 5) * stride + p % 5;
    float s = 0.0f;
    for (int i = 0; i < subh; i++)
        for (int j = 0; j < subw; j++)
            s = s + base[i * stride + j];
    return s / static_cast<float>(subw * subh);
}

/// §5.4: the first sample of position p of the 5 x 5 neighbourhood in e.
VMAFHIP_HD const float *speed_position(const float *e, int stride, int p)
{
    return e + (p / 5) * stride + p % 5;
}

/// §5.4: one term of a covariance sum: double differences from the means,
/// their double product.
VMAFHIP_HD double speed_covariance_term(float x, double mx, float y, double my)
{
    return (static_cast<double>(x) - mx) * (static_cast<double>(y) - my);
}

/// §5.4: a covariance from its double sum of subw x subh terms, rounded to float.
VMAFHIP_HD float speed_covariance_of(double acc, int subw, int subh)
{
    return static_cast<float>(acc / static_cast<double>(subw * subh));
}

/// §5.4: covariance entry (a, b) from the means ma, mb of positions a, b;
/// the terms summed in double from 0, i outer, j inner.
VMAFHIP_HD float speed_covariance(const float *e, int stride, int a, int b, float ma, float mb,
                                  int subw, int subh)
{
    const float *x = speed_position(e, stride, a), *y = speed_position(e, stride, b);
    double acc = 0.0;
    for (int i = 0; i < subh; i++)
        for (int j = 0; j < subw; j++)
            acc = acc + speed_covariance_term(x[i * stride + j], ma, y[i * stride + j], mb);
    return speed_covariance_of(acc, subw, subh);
}

} // namespace vmafhip
