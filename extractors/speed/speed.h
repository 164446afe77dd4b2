// SpEED: libvmaf's speed_chroma and speed_temporal extractors,
// docs/speed.md; § numbers in this folder are its sections.
//
// Per frame, a backend (speed_cpu.cpp, speed_gpu.cpp) fills one block per
// plane side (a reference or distorted plane, or a temporal difference)
// with its eigenvalues, singular flag and block variances (§5.1 to §5.7,
// kernels/speed/speed_ops.h and speed_solve.h, the same arithmetic on both);
// finish() runs §5.8 to §8 on them on the host, the same code for both.
#pragma once

#include <vector>

#include "base/scratch_pool.h"
#include "extractors/extractor.h"
#include "extractors/vif_tools/vif_tools.h"
#include "kernels/speed/speed_ops.h"

namespace vmafhip {

/// Option values (extractor table: speed_chroma_extractor), §1.2.
struct SpeedOptions {
    double kernelscale;  ///< speed_kernelscale: Gaussian widths (§5.2)
    double max_val;      ///< speed_max_val: clip (§7)
    double nn_floor;     ///< speed_nn_floor (§6)
    double prescale;     ///< speed_prescale (§5.1)
    double sigma_nn;     ///< speed_sigma_nn (§5.8)
    int prescale_method; ///< speed_prescale_method: a Scaler (§5.1)
    int weight_var_mode; ///< speed_weight_var_mode, 0..6 (§6)
};

/// Everything one plane's pass (§3, §5) needs, resolved at creation.
struct SpeedPlan {
    SpeedDims d{};              ///< sizes and filter widths
    int nbh = 0, nbv = 0, nb = 0; ///< blocks (§3)
    ScaleAxis ax, ay;           ///< resample: the columns' and rows' taps
    std::vector<float> taps_a;  ///< anti-alias taps (§5.2)
    std::vector<float> taps_l;  ///< low-pass taps (§5.2)
    float snn = 0, base = 0;    ///< §5.8, §6
    int mode = 0;               ///< weighting mode (§6)
};

/// The plan of a plane of ow x oh samples (§3, §5.1, §5.2, §6).
SpeedPlan speed_plan(int ow, int oh, const SpeedOptions &o, int mode);

/// Bytes of an accumulator block of `sides` plane sides (8-byte multiple).
size_t speed_accum_bytes(const SpeedPlan &p, int sides);

/// The planes of one plane side's CPU pass (speed_cpu.cpp), kept between frames.
struct SpeedCpuScratch;
/// Its loops in an instruction set (speed_cpu.cpp).
struct SpeedKernels;

/// The loops for these CpuFlag bits (choose_kernels()).
const SpeedKernels &speed_kernels(unsigned cpu_flags);

/// The CPU pass of one plane side (§5.1 to §5.7) of the converted plane
/// (§2.1; ow x oh, row-major) into side (speed_side_floats() floats: a
/// SpeedSideHead, then the nb variances), with the loops of k and the
/// planes of s.
void speed_side(const SpeedPlan &p, const SpeedKernels &k, const float *plane, SpeedCpuScratch &s,
                float *side);

/// The score of one plane pair from its two sides' blocks, and whether
/// either side was singular (§5.8, §6).
float speed_plane_score(const SpeedPlan &p, const float *ref, const float *dis, bool *singular);

/// speed_temporal's options: speed_chroma's first ones, then its own.
struct SpeedTemporalOptions {
    SpeedOptions common;  ///< weight_var_mode unused (always 0, §8)
    int use_ref_diff;     ///< speed_use_ref_diff (§8)
};

extern const ExtractorInfo speed_chroma_extractor;
extern const ExtractorInfo speed_temporal_extractor;

class SpeedChroma final : public Extractor {
public:
    /// c must have passed check().
    explicit SpeedChroma(const ExtractorConfig &c);
    /// 0, or a negative errno with *msg saying what is accepted (§1.3, §4.1, §13).
    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    int planes() const override { return 3; }
    /// Plane sides in the accumulator block: U reference, U distorted, V
    /// reference, V distorted (§7).
    static constexpr int SIDES = 4;
    size_t accum_bytes() const override { return speed_accum_bytes(plan_, SIDES); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const SpeedPlan &plan() const { return plan_; }

private:
    SpeedOptions o_;
    Geometry g_;
    std::string suffix_;
    SpeedPlan plan_;
    const SpeedKernels *k_; ///< the CPU loops (speed_kernels())
    mutable ScratchPool<SpeedCpuScratch> cpu_;
};

class SpeedTemporal final : public Extractor {
public:
    /// c must have passed check().
    explicit SpeedTemporal(const ExtractorConfig &c);
    /// 0, or a negative errno with *msg saying what is accepted (§1.3, §4.1, §8, §13).
    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    int lookbehind() const override { return 1; }
    bool lookbehind_dis() const override { return true; }
    bool every_frame() const override { return true; }
    /// Plane sides in the accumulator block: the reference difference, then
    /// the distorted one (§8 step 3).
    static constexpr int SIDES = 2;
    size_t accum_bytes() const override { return speed_accum_bytes(plan_, SIDES); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const SpeedPlan &plan() const { return plan_; }
    bool use_ref_diff() const { return o_.use_ref_diff != 0; }

private:
    SpeedTemporalOptions o_;
    Geometry g_;
    std::string suffix_;
    SpeedPlan plan_;
    const SpeedKernels *k_; ///< the CPU loops (speed_kernels())
    mutable ScratchPool<SpeedCpuScratch> cpu_;
};

} // namespace vmafhip
