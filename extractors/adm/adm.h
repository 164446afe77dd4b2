// integer ADM: libvmaf's integer_adm.c, docs/adm.md.
// Host side shared by both backends: the table entry, validation, names
// (with libvmaf's option suffixes), CSF weights, per-scale regions and
// shifts, and the float tail from exact integer accumulators.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/scratch_pool.h"
#include "extractors/extractor.h"
#include "kernels/adm/adm_ops.h"

namespace vmafhip {

/// Option values (extractor table: adm_extractor).
struct AdmOptions {
    double enhn_gain_limit;  ///< adm_enhn_gain_limit, [1, 100]
    double norm_view_dist;   ///< adm_norm_view_dist, [0.75, 24]
    int ref_display_height;  ///< adm_ref_display_height, [1, 4320]
    int csf_mode;            ///< adm_csf_mode: 0 Watson, 2 blend, 3 blend-MAE; 1 is rejected
    double noise_weight;     ///< adm_noise_weight, [0, 1500]
    double csf_scale;        ///< adm_csf_scale, [0, 50], mode 1 only
    double csf_diag_scale;   ///< adm_csf_diag_scale, [0, 50], mode 1 only
    double dlm_weight;       ///< adm_dlm_weight, [0, 1], integer_adm3 only
    double min_val;          ///< adm_min_val, [0, 1], integer_adm3 floor
    int skip_scale0;         ///< adm_skip_scale0
    int skip_aim;            ///< adm_skip_aim: no integer_aim / integer_adm3
    int debug;               ///< also integer_adm, _num, _den, _num_scaleN, _den_scaleN
};

/// The float per-scale values of one frame, before the final sums.
struct AdmScaleScores {
    float num[4]; ///< DLM numerator per scale (integer_adm_num_scaleN)
    float den[4]; ///< denominator per scale (integer_adm_den_scaleN)
    float aim[4]; ///< AIM numerator per scale (0 when skip_aim)
};

/// docs/adm.md §5.1: Watson's CSF weight 1 / Q(λ, t) of DWT scale lambda
/// (0..3), t = 1 (H, V) or 2 (D), in libvmaf's mixed float/double order
/// (dwt_quant_step). libvmaf's float ADM uses the same function
/// (docs/float_adm.md §5).
float watson_rf(double nvd, int rdh, int lambda, int t);

struct AdmCpuBuffers; // adm_cpu.cpp: scratch kept between frames
struct AdmKernels;    // adm_stages.h: the CPU kernels of one instruction set

extern const ExtractorInfo adm_extractor;

class Adm final : public Extractor {
public:
    /// @return 0, or a negative errno with *msg saying what is wrong and what
    ///         is accepted: -ERANGE (W or H < 33), -ENOTSUP (csf mode 1),
    ///         -EINVAL (nvd * rdh < 3240, csf modes 2/3 without a table).
    static int check(const AdmOptions &o, const Geometry &g, std::string *msg);

    /// The float CSF weights rf[scale][θ] of a configuration that check()
    /// accepts (modes 0, 2, 3). rf_H == rf_V.
    static void csf_weights(const AdmOptions &o, float rf[4][3]);

    explicit Adm(const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(AdmAccum); }
    /// CPU reference: exact accumulators of one frame (luma only); reuses
    /// scratch kept in the instance, one per call running at once. Results
    /// do not depend on the pool's size.
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    /// Per-scale floats from the accumulators (the debug values).
    AdmScaleScores scale_scores(const AdmAccum &a) const;

    const AdmParams &params() const { return p_; }
    const AdmOptions &options() const { return o_; }

private:
    AdmOptions o_;
    Geometry g_;
    std::string suffix_;
    AdmParams p_;
    float rf_[4][3];
    const AdmKernels *k_; ///< the CPU kernels (choose_kernels())
    /// CPU scratch: made by the cpu() calls that find none free, reused by
    /// later ones.
    mutable ScratchPool<AdmCpuBuffers> cpu_;
};

} // namespace vmafhip
