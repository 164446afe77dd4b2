// float_ms_ssim: libvmaf's float multi-scale SSIM (float_ms_ssim.c,
// ms_ssim.c and iqa), docs/ms_ssim.md. Five scales of luma, each the SSIM
// map of float_ssim (extractors/ssim) on a plane halved by a 9x9 low-pass
// filter; the scales' means are combined with libvmaf's exponents. The GPU
// runs the same arithmetic (kernels/ms_ssim).
#pragma once

#include "extractors/extractor.h"
#include "kernels/ms_ssim/ms_ssim_ops.h"

namespace vmafhip {

/// Option values (extractor table: ms_ssim_extractor).
struct MsSsimOptions {
    int enable_lcs; ///< also the l, c, s means of each scale
    int enable_db;  ///< report -10*log10(1 - ms_ssim)
    int clip_db;    ///< with enable_db, cap at the 0.5-pixel-error value
};

extern const ExtractorInfo ms_ssim_extractor;
struct SsimKernels;

class MsSsim final : public Extractor {
public:
    static MsSsimSizes sizes(int w, int h);

    explicit MsSsim(const ExtractorConfig &c);

    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(MsSsimAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const MsSsimSizes &scale_sizes() const { return sz_; }

private:
    MsSsimOptions o_;
    Geometry g_;
    MsSsimSizes sz_;
    double max_db_;
    const SsimKernels *k_; ///< float_ssim's CPU kernels (choose_kernels())
};

/// §3: the 9x9 low-pass filter and decimation by 2 of a dense w x h float
/// plane into out, (w / 2 + (w & 1)) x (h / 2 + (h & 1)).
void ms_ssim_decimate(const float *in, int w, int h, float *out, ThreadPool &pool);

} // namespace vmafhip
