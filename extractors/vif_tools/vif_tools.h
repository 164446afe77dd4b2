// What libvmaf's vif_tools.c and picture_copy() give both the float VIF
// (float_vif) and SpEED (speed_chroma, speed_temporal): luma or chroma
// samples as floats centred on 0, the 21 accepted kernel scales, the
// Gaussian filters a kernel scale makes, and the prescale resamplers. The
// arithmetic is written down in docs/speed.md §2.1, §1.3, §5.1 and §5.2
// (docs/float_vif.md refers to those sections).
#pragma once

#include <vector>

#include "extractors/frame_view.h"

namespace vmafhip {

class ThreadPool;

/// Plane pv converted to float, 8-bit scale, minus 128 (libvmaf's
/// picture_copy with offset -128; docs/speed.md §2.1) into out (w x h, row-major).
void float_plane(const PlaneView &pv, int bpc, std::vector<float> *out);

/// Whether libvmaf accepts kernel scale ks: (float)ks within 1e-3 of one of
/// its 21 values (docs/speed.md §1.3).
bool kernelscale_valid(double ks);

/// The accepted kernel scales, as messages list them.
extern const char *const KERNELSCALES_ACCEPTED;

/// Width of the Gaussian filter of scale s (0 to 4) and kernel scale k
/// (docs/speed.md §5.2): max(odd_up(ceil(n_s * k)), 3), n_s = 2^(4-s) + 1.
int gaussian_width(int s, float k);

/// The normalised taps of a width-w, sigma-s Gaussian (docs/speed.md §5.2).
std::vector<float> gaussian_taps(int w, float s);

/// libvmaf's prescale methods (docs/speed.md §5.1), in the order of their names.
enum class Scaler { Nearest, Bilinear, Bicubic, Lanczos4 };

/// The names of Scaler's methods, nullptr-terminated (an Enum option's choices).
extern const char *const SCALER_NAMES[];

/// One axis of a resampling: for each scaled position, scaler_taps() source
/// indices (mirrored) and weights.
struct ScaleAxis {
    std::vector<int> idx;
    std::vector<float> w;
};

/// Source samples per scaled sample along one axis.
int scaler_taps(Scaler method);

/// The taps of one axis, n source samples scaled to m (n != m).
ScaleAxis scale_axis(Scaler method, int n, int m);

/// A scaled size: (int)(n * ps + 0.5).
int scaled_size(int n, double ps);

/// A resampling of a w x h plane to sw x sh (docs/speed.md §5.1): the taps
/// of both axes, built once.
struct Resampling {
    int w = 0, h = 0, sw = 0, sh = 0;
    int taps = 0;           ///< source samples per scaled sample along an axis
    bool normalise = false; ///< lanczos4 divides by the weights' sum
    ScaleAxis ax, ay;
};

/// The resampling of a w x h plane to sw x sh (sizes that differ) by method m.
Resampling resampling(Scaler m, int w, int h, int sw, int sh);

/// src (r.w x r.h, row-major) resampled into out (r.sw x r.sh), rows in parallel.
void resample(const Resampling &r, const float *src, float *out, ThreadPool &pool);

} // namespace vmafhip
