// float_vif: libvmaf's float visual information fidelity (float_vif.c,
// vif.c, vif_tools.c), docs/float_vif.md; § numbers in this folder are its
// sections. Luma only, four scales of Gaussian-filtered statistics in float,
// each scale's num and den summed in libvmaf's row order, on the CPU
// (float_vif_cpu.cpp) and the GPU (float_vif_gpu.cpp, §7).
#pragma once

#include <string>
#include <vector>

#include "extractors/extractor.h"
#include "extractors/vif_tools/vif_tools.h"
#include "kernels/float_vif/float_vif_ops.h"

namespace vmafhip {

/// Option values (float_vif_extractor's OptionSpec table, libvmaf's order), §1.2.
struct FloatVifOptions {
    int debug;              ///< debug: the num/den outputs too
    double egl;             ///< vif_enhn_gain_limit, 1 to 100
    double kernelscale;     ///< vif_kernelscale: Gaussian widths (§3.1)
    double prescale;        ///< vif_prescale: resampling factor (§2)
    double min_val[3];      ///< vif_scale1_min_val .. vif_scale3_min_val (§5)
    int prescale_method;    ///< vif_prescale_method: a Scaler (§2)
    double sigma_nsq;       ///< vif_sigma_nsq: neural noise variance (§4)
    int skip_scale0;        ///< vif_skip_scale0 (§5)
};

/// What a frame's pass needs, resolved at creation (§2, §3).
struct FloatVifPlan {
    int w = 0, h = 0;     ///< the luma size
    int sw = 0, sh = 0;   ///< the prescaled size, which scale 0 works at
    Resampling rs;        ///< the prescale (only where the sizes differ)
    std::vector<float> filter[FLOAT_VIF_SCALES]; ///< Gaussian taps of each scale
};

extern const ExtractorInfo float_vif_extractor;

class FloatVif final : public Extractor {
public:
    /// c must have passed check().
    explicit FloatVif(const ExtractorConfig &c);
    /// 0, or a negative errno with *msg saying what is accepted (§6).
    static int check(const ExtractorConfig &c, std::string *msg);
    /// §6: the smallest prescaled width or height the options accept.
    static int min_scaled_side(const FloatVifOptions &o);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(FloatVifAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const FloatVifPlan &plan() const { return plan_; }
    const FloatVifOptions &options() const { return o_; }
    /// §4: the statistic's constants from the options.
    FvifStat stat() const;

private:
    FloatVifOptions o_;
    int bpc_;
    std::string suffix_;
    FloatVifPlan plan_;
};

} // namespace vmafhip
