// SpEED: libvmaf's speed_chroma extractor, docs/speed.md; § numbers in this
// folder are its sections. CPU only: the table entry has no GPU
// implementation yet. speed_temporal is not implemented yet.
#pragma once

#include <vector>

#include "extractors/extractor.h"

namespace vmafhip {

/// Per-frame accumulators: the unclipped scores of §7, widened to double.
struct SpeedChromaAccum {
    double u, v, uv;
};

/// Option values (extractor table: speed_chroma_extractor), §1.2.
struct SpeedOptions {
    double kernelscale;  ///< speed_kernelscale: Gaussian widths (§5.2)
    double max_val;      ///< speed_max_val: clip (§7)
    double nn_floor;     ///< speed_nn_floor (§6)
    double prescale;     ///< speed_prescale (§5.1)
    double sigma_nn;     ///< speed_sigma_nn (§5.8)
    int prescale_method; ///< speed_prescale_method: a SpeedScaler (§5.1)
    int weight_var_mode; ///< speed_weight_var_mode, 0..6 (§6)
};

/// §5.1 prescale methods, in the order of libvmaf's names.
enum class SpeedScaler { Nearest, Bilinear, Bicubic, Lanczos4 };

/// One axis of a resampling (§5.1): for each scaled position, `taps` source
/// indices (mirrored) and weights.
struct SpeedAxis {
    int taps = 0;
    std::vector<int> idx;
    std::vector<float> w;
};

/// Everything one plane's pass (§3, §5) needs, resolved at creation.
struct SpeedPlan {
    int ow = 0, oh = 0;         ///< plane size (§2.2)
    int sw = 0, sh = 0;         ///< scaled size (§3)
    int opw = 0, oph = 0;       ///< operating size (§3)
    int tw = 0, th = 0;         ///< truncated size (§3)
    int nbh = 0, nbv = 0, nb = 0; ///< blocks (§3)
    int subw = 0, subh = 0;     ///< covariance window (§5.4)
    bool resample = false;      ///< §5.1 runs
    SpeedAxis ax, ay;           ///< resample: the columns' and rows' taps
    bool normalise = false;     ///< lanczos4: divide by the sum of the weights
    std::vector<float> taps_a;  ///< anti-alias taps (§5.2)
    std::vector<float> taps_l;  ///< low-pass taps (§5.2)
    float snn = 0, base = 0;    ///< §5.8, §6
    int mode = 0;               ///< weighting mode (§6)
};

/// The plan of a plane of ow x oh samples (§3, §5.1, §5.2, §6).
SpeedPlan speed_plan(int ow, int oh, const SpeedOptions &o, int mode);

/// The score of one plane pair and whether either side was singular (§5, §6).
/// ref and dis are converted planes (§2.1), ow x oh, row-major.
float speed_plane_score(const SpeedPlan &p, const std::vector<float> &ref,
                        const std::vector<float> &dis, bool *singular);

/// Plane `pv` converted to float (§2.1) into out (w x h, row-major).
void speed_convert(const PlaneView &pv, int bpc, std::vector<float> *out);

/// speed_temporal's options: speed_chroma's first ones, then its own.
struct SpeedTemporalOptions {
    SpeedOptions common;  ///< weight_var_mode unused (always 0, §8)
    int use_ref_diff;     ///< speed_use_ref_diff (§8)
};

/// Per-frame accumulator of speed_temporal: the unclipped score (§8).
struct SpeedTemporalAccum {
    double score;
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
    size_t accum_bytes() const override { return sizeof(SpeedChromaAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

private:
    SpeedOptions o_;
    Geometry g_;
    std::string suffix_;
    SpeedPlan plan_;
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
    size_t accum_bytes() const override { return sizeof(SpeedTemporalAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

private:
    SpeedTemporalOptions o_;
    Geometry g_;
    std::string suffix_;
    SpeedPlan plan_;
};

} // namespace vmafhip
