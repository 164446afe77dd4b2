// The per-pixel and per-row arithmetic of float_psnr, float_moment and
// float_ansnr (docs/float_psnr.md §2-§4), shared by the CPU reference and
// the GPU kernels, and the accumulator blocks both write (the same bytes on
// the CPU and the GPU). The samples themselves are libvmaf's picture_copy
// (kernels/picture_sample.h, §1). Every § below is a section of
// docs/float_psnr.md.
#pragma once

#include <stddef.h>

#include "kernels/hd.h"

namespace vmafhip {

/// §2.1: the sum of the squared differences (float32 squares added into a
/// double, in libvmaf's row-major order).
struct FloatPsnrAccum {
    double noise;
};

/// §4: the sums of the samples and of their float32 squares, as doubles in
/// libvmaf's row-major order: ref and dis.
struct FloatMomentAccum {
    double ref1, dis1, ref2, dis2;
};

/// §3.3: the float32 sums of libvmaf's ansnr_mse (each held exactly in a
/// double): the filtered reference's squares and the squared differences.
struct FloatAnsnrAccum {
    double sig, noise;
};

/// §2.1: one term of float_psnr's noise: the float32 square of the float32
/// difference (widened to double only when added).
VMAFHIP_HD float float_psnr_term(float ref, float dis)
{
    const float diff = ref - dis;
    return diff * diff;
}

/// §4: one term of float_moment's second moment: the float32 square.
VMAFHIP_HD float float_moment_square(float v) { return v * v; }

/// §3.1: float_ansnr's two square filters, 3x3 (reference) and 5x5
/// (distorted), row-major; each tap is weight / divisor rounded from double
/// to float32, as libvmaf's initialisers do.
struct AnsnrTaps {
    float ref[3 * 3];
    float dis[5 * 5];
};

/// §3.1: the taps, made on the host (the CPU code uses them directly; the
/// GPU gets these bytes as its constants).
constexpr AnsnrTaps ansnr_taps()
{
    constexpr int ref_weights[3 * 3] = {1, 2, 1, 2, 4, 2, 1, 2, 1};
    constexpr int dis_weights[5 * 5] = {2,  7,  12,  7,  2,  //
                                        7,  31, 52,  31, 7,  //
                                        12, 52, 127, 52, 12, //
                                        7,  31, 52,  31, 7,  //
                                        2,  7,  12,  7,  2};
    AnsnrTaps t{};
    for (int i = 0; i < 3 * 3; i++)
        t.ref[i] = static_cast<float>(ref_weights[i] / 16.0);
    for (int i = 0; i < 5 * 5; i++)
        t.dis[i] = static_cast<float>(dis_weights[i] / 571.0);
    return t;
}

/// §3.2: libvmaf's border: -i above and left, 2n - i - 1 below and right
/// (the top and left edges are not repeated, the bottom and right ones are).
VMAFHIP_HD int ansnr_mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

/// §3.2: sample (x, y) of plane (w x h, row stride w) filtered by the N x N
/// taps: per tap row a float32 sum of the products left to right, the tap
/// rows' sums added top to bottom. w and h are at least 3 (§3.4), so every
/// mirrored index lies inside the plane.
template <int N>
VMAFHIP_HD float ansnr_filter_pixel(const float *tap, const float *plane, int w, int h, int x,
                                    int y)
{
    const int half = N / 2;
    float acc = 0;
    for (int v = 0; v < N; v++) {
        const float *row = plane + static_cast<size_t>(ansnr_mirror(y - half + v, h)) * w;
        float inner = 0;
        for (int u = 0; u < N; u++)
            inner += tap[v * N + u] * row[ansnr_mirror(x - half + u, w)];
        acc += inner;
    }
    return acc;
}

/// §3.3: the float32 sums of one row of the filtered planes, left to right:
/// the reference's squares and the squared differences.
VMAFHIP_HD void ansnr_row_sums(const float *ref, const float *dis, int w, float *sig, float *noise)
{
    float s = 0, n = 0;
    for (int x = 0; x < w; x++) {
        s += ref[x] * ref[x];
        n += (ref[x] - dis[x]) * (ref[x] - dis[x]);
    }
    *sig = s;
    *noise = n;
}

/// §3.3: the rows' sums added top to bottom into float32 totals, stored in
/// the accumulators (exactly: a double holds every float).
VMAFHIP_HD void ansnr_total(const float *row_sig, const float *row_noise, int h, FloatAnsnrAccum *a)
{
    float sig = 0, noise = 0;
    for (int y = 0; y < h; y++) {
        sig += row_sig[y];
        noise += row_noise[y];
    }
    a->sig = sig;
    a->noise = noise;
}

} // namespace vmafhip
