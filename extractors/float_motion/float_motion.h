// float_motion: libvmaf's float motion (float_motion.c, motion.c,
// common/convolution.c), docs/float_motion.md; § numbers in this folder are
// its sections. Per frame, the mean absolute difference of the blurred
// reference luma of this frame and the previous one (§2, §3); once the next
// frame is known, motion2 and motion3 (§4). The per-frame score runs on the
// CPU (float_motion_cpu.cpp) or the GPU (float_motion_gpu.cpp), the same bits.
#pragma once

#include <deque>
#include <string>
#include <vector>

#include "extractors/extractor.h"
#include "extractors/vif_tools/vif_tools.h"

namespace vmafhip {

/// Option values (float_motion_extractor's OptionSpec table, libvmaf's order), §1.2.
struct FloatMotionOptions {
    int debug;           ///< debug: also write motion (default true)
    int force_zero;      ///< motion_force_zero: every score is 0
    double fps_weight;   ///< motion_fps_weight: factor of every score, 0 to 5
    double blend_factor; ///< motion_blend_factor: motion3's weight, 0 to 1
    double blend_offset; ///< motion_blend_offset: motion3's limit, 0 to 1000
    int add_scale1;      ///< motion_add_scale1: add the score of the half-size pictures (§3.2)
    int filter_size;     ///< motion_filter_size: 3 for the 3-tap blur, 1 for none, else 5-tap (§2)
    int add_uv;          ///< motion_add_uv: add the chroma planes' scores (§3.3)
    double max_val;      ///< motion_max_val: the largest score, 0 to 10000
};

/// The scores of one frame (§3): libvmaf's float result per plane, held as
/// doubles: luma, and with motion_add_uv Cb and Cr (§3.3; 0 otherwise).
struct FloatMotionAccum {
    double plane[3];
};

extern const ExtractorInfo float_motion_extractor;

class FloatMotion final : public Extractor {
public:
    /// c must have passed check().
    explicit FloatMotion(const ExtractorConfig &c);
    /// 0, or a negative errno with *msg saying what is accepted (§5).
    static int check(const ExtractorConfig &c, std::string *msg);
    /// §5: the smallest width and height motion_filter_size fs accepts.
    static int min_side(int filter_size);

    void names(std::vector<std::string> *out) const override;
    void late_names(std::vector<std::string> *out) const override;
    /// libvmaf writes frame 0's motion2 before its motion: the log lists
    /// motion2 first, motion3 after every extractor's per-frame outputs.
    int leading_late() const override { return 1; }
    int planes() const override { return o_.add_uv ? 3 : 1; }
    int lookbehind() const override { return o_.force_zero ? 0 : 1; }
    bool lookbehind_chroma() const override { return o_.add_uv && !o_.force_zero; }
    int lookahead() const override { return o_.force_zero ? 0 : 1; }
    bool every_frame() const override { return true; }

    size_t accum_bytes() const override { return sizeof(FloatMotionAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;
    void finish_late(unsigned index, unsigned frames, double *out) override;

    /// What the GPU implementation reads: the options, the frame geometry,
    /// the blur's taps (§2), the planes scored (§3.3: 1, or 3 with
    /// motion_add_uv) and, with motion_add_scale1, the resampling of plane
    /// q (0: luma, 1: chroma) to half size (§3.2).
    const FloatMotionOptions &options() const { return o_; }
    const Geometry &geometry() const { return g_; }
    const std::vector<float> &blur_taps() const { return taps_; }
    int scored_planes() const { return o_.add_uv ? 3 : 1; }
    const Resampling &half(int q) const { return half_[q > 0]; }

private:
    /// Score of frame i from the window; NaN if it left it.
    double s(unsigned i) const;
    /// §3.3: the frame's score from its planes' scores.
    double score(const FloatMotionAccum &a) const;
    /// §4: min(x * motion_fps_weight, motion_max_val).
    double clipped(double x) const;
    /// §4: motion3 of the raw score x.
    double blended(double x) const;

    FloatMotionOptions o_;
    Geometry g_;
    int bpc_;
    std::string suffix_;
    std::vector<float> taps_; ///< the blur (§2)
    Resampling half_[2];      ///< motion_add_scale1: luma, chroma to half size (§3.2)

    // Scores of frames [base_, base_ + window_.size()): the late values of
    // frame i need frames i and i + 1 (frame 1 for frame 0).
    std::deque<double> window_;
    unsigned base_ = 0;
};

} // namespace vmafhip
