// integer ADM: libvmaf's integer_adm.c, spec adm.md.
// Host side shared by both backends: validation, names (with libvmaf's
// option suffixes), CSF weights, per-scale regions and shifts, and the
// float tail (§5.3, §7.3, §9) from exact integer accumulators.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "extractors/frame_view.h"
#include "kernels/adm_ops.h"
#include "vmafhip.h"

namespace vmafhip {

class ThreadPool;

/// Per-frame accumulators, [scale][orientation H, V, D]; also the GPU layout.
struct AdmAccum {
    int64_t num[4][3];  ///< DLM contrast-masked numerator sums (§7.3), per-row shifted
    uint64_t den[4][3]; ///< reference energy sums (§5), per-row shifted
    int64_t aim[4][3];  ///< AIM numerator sums (§8); 0 when skip_aim
};

/// The float per-scale values of one frame (§5.3, §7.3), before the §9 sums.
struct AdmScaleScores {
    float num[4]; ///< DLM numerator per scale (integer_adm_num_scaleN)
    float den[4]; ///< denominator per scale (integer_adm_den_scaleN)
    float aim[4]; ///< AIM numerator per scale (0 when skip_aim)
};

struct AdmCpuBuffers; // adm_cpu.cpp: scratch kept between frames

class Adm {
public:
    /// @return 0, or a negative errno with *msg saying what is wrong and what
    ///         is accepted: -ERANGE (W or H < 33), -ENOTSUP (16 bits, csf mode 1),
    ///         -EINVAL (nvd * rdh < 3240, csf modes 2/3 without a table).
    static int check(const VmafHipAdmSettings &s, const Geometry &g, std::string *msg);

    /// §3: the float CSF weights rf[scale][θ] of a configuration that check()
    /// accepts (modes 0, 2, 3). rf_H == rf_V.
    static void csf_weights(const VmafHipAdmSettings &s, float rf[4][3]);

    /// @param name_suffix libvmaf's suffix of non-default feature options ("_egl_1")
    Adm(const VmafHipAdmSettings &s, const Geometry &g, const std::string &name_suffix);

    void names(std::vector<std::string> *out) const; ///< appends per-frame names, output order
    void finish(const AdmAccum &a, double *out) const; ///< one value per name, names() order

    /// §5.3, §7.3: per-scale floats from the accumulators (the debug values).
    AdmScaleScores scale_scores(const AdmAccum &a) const;

    const AdmParams &params() const { return p_; }
    const VmafHipAdmSettings &settings() const { return s_; }

private:
    friend void adm_cpu(const Adm &m, const Geometry &g, const FrameView &f, AdmAccum *a,
                        ThreadPool &pool);

    VmafHipAdmSettings s_;
    Geometry g_;
    std::string suffix_;
    AdmParams p_;
    float rf_[4][3];
    /// CPU scratch, allocated by the first adm_cpu() call and reused. The CPU
    /// backend scores one frame at a time per context, so one set suffices.
    mutable std::shared_ptr<AdmCpuBuffers> cpu_;
};

/// CPU reference: exact accumulators of one frame (luma only). Not reentrant
/// for one Adm (it reuses the Adm's scratch); results do not depend on the
/// pool's size.
void adm_cpu(const Adm &m, const Geometry &g, const FrameView &f, AdmAccum *a, ThreadPool &pool);

} // namespace vmafhip
