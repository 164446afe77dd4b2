// float_ssim: libvmaf's float SSIM (float_ssim.c + iqa), spec ssim.md.
// Host side shared by both backends: names, automatic downscale and the
// final rounding of the map means. The arithmetic is in ssim_ops.h.
#pragma once

#include <string>
#include <vector>

#include "extractors/frame_view.h"
#include "vmafhip.h"

namespace vmafhip {

class ThreadPool;

/// Sums over the SSIM map (double); also the layout the GPU writes.
struct SsimAccum {
    double ssim, l, c, s;
};

class Ssim {
public:
    /// @return 0, or a negative errno with *msg: -ERANGE when the frame is
    ///         smaller than 11x11 after downscaling, -EINVAL for a bad option
    ///         or bit depth.
    static int check(const VmafHipSsimSettings &s, const Geometry &g, std::string *msg);

    /// Downscale factor libvmaf uses for a w x h luma plane (spec §4).
    static int auto_scale(int w, int h);

    Ssim(const VmafHipSsimSettings &s, const Geometry &g);

    int scale() const { return scale_; }   ///< downscale factor (1 = none)
    int dec_w() const { return dec_w_; }   ///< size after downscaling
    int dec_h() const { return dec_h_; }
    int map_w() const { return dec_w_ - 10; } ///< SSIM map size ("valid" 11x11 window)
    int map_h() const { return dec_h_ - 10; }
    double max_db() const { return max_db_; } ///< dB cap (+inf without clip_db)
    void names(std::vector<std::string> *out) const;
    /// Scores in names() order from the map sums.
    void finish(const SsimAccum &a, double *out) const;

private:
    VmafHipSsimSettings s_;
    int scale_, dec_w_, dec_h_;
    double max_db_;
};

/// CPU reference (libvmaf's operation order, sequential sums).
void ssim_cpu(const Ssim &m, const Geometry &g, const FrameView &f, SsimAccum *a, ThreadPool &pool);

} // namespace vmafhip
