// float_ssim: libvmaf's float SSIM (float_ssim.c + iqa), docs/ssim.md.
// Host side shared by both backends: the table entry, names, automatic
// downscale and the final rounding of the map means. The arithmetic is in
// kernels/ssim/ssim_ops.h.
#pragma once

#include "extractors/extractor.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

/// Option values (extractor table: ssim_extractor).
struct SsimOptions {
    int enable_lcs; ///< also float_ssim_l, _c, _s
    int enable_db;  ///< report -10*log10(1 - ssim)
    int clip_db;    ///< with enable_db, cap at the 0.5-pixel-error value
    int scale;      ///< downscale factor 1..10; 0 = automatic, as libvmaf
};

extern const ExtractorInfo ssim_extractor;
struct SsimKernels;

/// §6: a mean over n map pixels as libvmaf reports it, rounded to float.
double ssim_mean(double sum, int n);
/// §6: the cap of a dB value, +inf without clip_db (also float_ms_ssim's).
double ssim_max_db(const Geometry &g, bool clip_db);
/// §6: -10 log10(1 - score), capped at max_db with libvmaf's MIN.
double ssim_to_db(double score, double max_db);

class Ssim final : public Extractor {
public:
    /// Downscale factor libvmaf uses for a w x h luma plane (docs/ssim.md §4.1).
    static int auto_scale(int w, int h);

    Ssim(const ExtractorConfig &c, const SsimParams &p);

    const SsimParams &params() const { return p_; }
    double max_db() const { return max_db_; } ///< dB cap (+inf without clip_db)

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(SsimAccum); }
    /// libvmaf's operation order, sequential sums.
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

private:
    SsimOptions o_;
    Geometry g_;
    SsimParams p_;
    double max_db_;
    const SsimKernels *k_; ///< the CPU kernels (choose_kernels())
};

} // namespace vmafhip
