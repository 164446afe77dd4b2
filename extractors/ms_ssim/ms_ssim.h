// float_ms_ssim: libvmaf's float multi-scale SSIM (float_ms_ssim.c,
// ms_ssim.c and iqa), docs/ms_ssim.md. Five scales of luma, each the SSIM
// map of float_ssim (extractors/ssim) on a plane halved by a 9x9 low-pass
// filter; the scales' means are combined with libvmaf's exponents. CPU only.
#pragma once

#include "extractors/extractor.h"
#include "kernels/ssim/ssim_ops.h"

namespace vmafhip {

/// Option values (extractor table: ms_ssim_extractor).
struct MsSsimOptions {
    int enable_lcs; ///< also the l, c, s means of each scale
    int enable_db;  ///< report -10*log10(1 - ms_ssim)
    int clip_db;    ///< with enable_db, cap at the 0.5-pixel-error value
};

constexpr int MS_SSIM_SCALES = 5;
/// Smallest width and height libvmaf scores (docs/ms_ssim.md §6): its check
/// halves the size four times, rounding down, and wants 11 (the SSIM window)
/// at every scale: 176 >> 4 = 11.
constexpr int MS_SSIM_MIN_SIZE = SSIM_TAPS << (MS_SSIM_SCALES - 1);

/// The map sums of every scale (float_ssim's sums, scale 0 first).
struct MsSsimAccum {
    SsimAccum scale[MS_SSIM_SCALES];
};

/// Plane sizes of the scales: scale 0 is the frame's luma, each next one
/// n / 2 + (n & 1) of the one before (docs/ms_ssim.md §3).
struct MsSsimSizes {
    int w[MS_SSIM_SCALES], h[MS_SSIM_SCALES];
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
