// integer motion: libvmaf's "motion" extractor (integer_motion.c), the HEAD
// algorithm described in docs/motion.md. Per frame, the SAD of the blurred
// difference of the reference luma and an earlier reference luma
// (VMAF_integer_feature_motion_sad_score); once the next frames are known,
// integer_motion2 and integer_motion3 (docs/motion.md §4).
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "extractors/extractor.h"
#include "kernels/motion/motion_ops.h"

namespace vmafhip {

/// The options of one instance (fields named by motion_extractor's OptionSpec table).
struct MotionOptions {
    int force_zero;          ///< motion_force_zero: every score is 0 (default false)
    double blend_factor;     ///< motion_blend_factor, [0, 1] (default 1)
    double blend_offset;     ///< motion_blend_offset, [0, 1000] (default 40)
    double fps_weight;       ///< motion_fps_weight, [0, 5] (default 1)
    double max_val;          ///< motion_max_val, [0, 10000] (default 10000)
    int five_frame_window;   ///< motion_five_frame_window: compare with frame i-2 (default false)
    int moving_average;      ///< motion_moving_average: motion3 averages two frames (default false)
    int debug;               ///< debug: also write integer_motion (default false)
};

struct MotionKernels; // motion_cpu_rows.h: the CPU kernels of one instruction set

class Motion final : public Extractor {
public:
    Motion(const ExtractorConfig &c, const MotionOptions &o);

    void names(std::vector<std::string> *out) const override;
    void late_names(std::vector<std::string> *out) const override;

    int lookbehind() const override;
    int lookahead() const override;
    bool every_frame() const override { return true; }

    size_t accum_bytes() const override { return sizeof(MotionAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;

    void finish(unsigned index, const void *accum, double *out) override;
    void finish_late(unsigned index, unsigned frames, double *out) override;

    /// First frame with a score: 1, or 2 with the five-frame window.
    unsigned min_index() const { return opt_.five_frame_window ? 2u : 1u; }
    /// Whether the SAD is computed at all (false with motion_force_zero).
    bool computes_sad() const { return !opt_.force_zero; }
    const MotionParams &params() const { return p_; }
    const MotionOptions &options() const { return opt_; }
    /// Scores kept for the late outputs: those of the last frame passed to
    /// finish_late() through the last finished frame (lookahead() + 2 when
    /// finish_late() is called as early as it may be).
    size_t scores_held() const { return window_.size(); }

    /// docs/motion.md §3: the score of a frame from its SAD, before any
    /// index rule: min(SAD / 256 / (W * H) * mfw, mmxv), left to right in double.
    static double score(uint64_t sad, int w, int h, double fps_weight, double max_val);
    /// docs/motion.md §4.2: blend(x) = x * mbf + (1 - mbf) * min(mbo, x).
    static double blend(double x, double factor, double offset);

private:
    /// Score of frame i (docs/motion.md §3) from the window; NaN if it left it.
    double s(unsigned i) const;

    MotionOptions opt_;
    std::string suffix_;
    MotionParams p_;
    const MotionKernels *k_; ///< the CPU kernels (choose_kernels())

    // Scores of frames [window_base_, window_base_ + window_.size()): frame
    // i's late values need frames i-1 .. i+1 (and frame min_index() for the
    // first ones); older ones are dropped as the late values advance.
    std::deque<double> window_;
    unsigned window_base_ = 0;
    double stamp_ = 0;          ///< motion3 of the frames before min_index()
    double prev_processed_ = 0; ///< the last frame's blended, clipped motion2 (moving average)
};

extern const ExtractorInfo motion_extractor;

#if VMAFHIP_GPU
extern const GpuImpl motion_gpu; ///< extractors/motion/motion_gpu.cpp
#endif // VMAFHIP_GPU

} // namespace vmafhip
