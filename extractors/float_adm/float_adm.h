// float_adm: libvmaf's floating-point ADM (feature/float_adm.c, adm.c,
// adm_tools.c), docs/float_adm.md. A Daubechies-2 DWT of luma on four
// scales, the detail-loss / additive-impairment split, CSF weights and
// contrast masking in float, as libvmaf computes them. The per-position
// arithmetic is kernels/float_adm/float_adm_ops.h's, shared by the CPU code
// (float_adm_cpu.cpp) and the GPU kernels (float_adm_gpu.cpp's launcher).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "extractors/extractor.h"
#include "kernels/float_adm/float_adm_ops.h"

namespace vmafhip {

/// Smallest width and height (§9): every scale's input at least 2 samples
/// and every band at least 2 wide and high, where libvmaf's mirrors stay
/// inside the picture.
constexpr int FLOAT_ADM_MIN_SIZE = 17;

/// libvmaf's adm_csf_mode values (adm_options.h); every other value is Watson.
enum FloatAdmCsfMode { FLOAT_ADM_CSF_WATSON = 0, FLOAT_ADM_CSF_BARTEN = 1, FLOAT_ADM_CSF_NATIVE = 2 };

/// Option values (extractor table: float_adm_extractor), libvmaf's names.
struct FloatAdmOptions {
    int debug;               ///< also adm, adm_num, adm_den, adm_num/den_scaleN
    double enhn_gain_limit;  ///< adm_enhn_gain_limit, [1, 100]
    double norm_view_dist;   ///< adm_norm_view_dist, [0.75, 24]
    double noise_weight;     ///< adm_noise_weight, [0, 1500]
    double csf_scale;        ///< adm_csf_scale (Barten H, V)
    double csf_diag_scale;   ///< adm_csf_diag_scale (Barten D)
    int ref_display_height;  ///< adm_ref_display_height, [1, 4320]
    int csf_mode;            ///< adm_csf_mode, FloatAdmCsfMode (0..9)
    int bypass_cm;           ///< adm_bypass_cm: no masking threshold
    int adm3_apply_hm;       ///< adm_adm3_apply_hm: adm3 as a harmonic mean
    double p_norm;           ///< adm_p_norm, [1, 20]
    double dlm_weight;       ///< adm_dlm_weight, [0, 1]
    double min_val;          ///< adm_min_val: floor of adm3
    double f1s[FLOAT_ADM_SCALES]; ///< adm_f1sN: H, V weight of scale N (< 0: the model's)
    double f2s[FLOAT_ADM_SCALES]; ///< adm_f2sN: D weight of scale N (< 0: the model's)
    int skip_aim_scale;      ///< adm_skip_aim_scale: scale left out of aim (-1: none)
    int skip_scale0;         ///< adm_skip_scale0
};

/// §6.2 float(cos(1°) cos(1°)), as libvmaf rounds it.
float float_adm_cos_1deg_sq();

/// §6.1 the host's reciprocal estimate as fadm_rcp()'s table
/// (FADM_RCP_ENTRIES entries), checked once per process against the
/// processor's rcpss on every significand of [1, 2), a sample of every
/// exponent of both signs and the edges (zeros, subnormals, infinities,
/// NaNs, results below the normal range). @return the table, or nullptr
/// where the processor's rcpss does not follow fadm_rcp()'s model (*why
/// says where it differs) or where this build divides without it (no SSE2:
/// *why is empty, IEEE division is libvmaf's then).
const uint32_t *float_adm_rcp_table(std::string *why);

/// Whether this build divides like libvmaf with rcpss (x86 with SSE2).
bool float_adm_uses_rcp();

extern const ExtractorInfo float_adm_extractor;

class FloatAdm final : public Extractor {
public:
    /// @return 0, or -ERANGE with *msg when the frame is smaller than
    ///         FLOAT_ADM_MIN_SIZE.
    static int check(const ExtractorConfig &c, std::string *msg);

    /// The CSF weights rf[scale][0: H and V, 1: D] of a configuration (§5).
    static void csf_weights(const FloatAdmOptions &o, float rf[FLOAT_ADM_SCALES][2]);

    explicit FloatAdm(const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(FloatAdmAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const FloatAdmOptions &options() const { return o_; }
    const Geometry &geometry() const { return g_; }
    /// The CSF weights of scale s by orientation H, V, D (§5).
    const float *rf3(int s) const { return rf3_[s]; }

private:
    FloatAdmOptions o_;
    Geometry g_;
    std::string suffix_;
    float rf3_[FLOAT_ADM_SCALES][FADM_ORIENTATIONS];
};

} // namespace vmafhip
