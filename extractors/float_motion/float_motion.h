// float_motion: libvmaf's float motion (float_motion.c, motion.c,
// common/convolution.c), docs/float_motion.md; § numbers in this folder are
// its sections. Per frame, the mean absolute difference of the blurred
// reference luma of this frame and the previous one (§2, §3); once the next
// frame is known, motion2 and motion3 (§4). CPU only.
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
    double max_val;      ///< motion_max_val: the largest score, 0 to 10000
};

/// The score of one frame (§3): libvmaf's float result, held as a double.
struct FloatMotionAccum {
    double score;
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
    int lookbehind() const override { return o_.force_zero ? 0 : 1; }
    int lookahead() const override { return o_.force_zero ? 0 : 1; }
    bool every_frame() const override { return true; }

    size_t accum_bytes() const override { return sizeof(FloatMotionAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;
    void finish_late(unsigned index, unsigned frames, double *out) override;

private:
    /// Score of frame i from the window; NaN if it left it.
    double s(unsigned i) const;
    /// §4: min(x * motion_fps_weight, motion_max_val).
    double clipped(double x) const;
    /// §4: motion3 of the raw score x.
    double blended(double x) const;

    FloatMotionOptions o_;
    int bpc_;
    std::string suffix_;
    std::vector<float> taps_; ///< the blur (§2)
    Resampling half_;         ///< motion_add_scale1: to the half-size pictures (§3.2)

    // Scores of frames [base_, base_ + window_.size()): the late values of
    // frame i need frames i and i + 1 (frame 1 for frame 0).
    std::deque<double> window_;
    unsigned base_ = 0;
};

} // namespace vmafhip
