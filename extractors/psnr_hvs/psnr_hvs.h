// psnr_hvs: libvmaf's PSNR-HVS (third_party/xiph/psnr_hvs.c),
// docs/psnr_hvs.md. Per plane, the CSF-weighted error of the 8x8 DCTs of
// overlapping blocks, above a masking threshold, summed in float32; then a dB
// value per plane and one of their weighted sum. The per-block arithmetic is
// kernels/psnr_hvs/psnr_hvs_ops.h, shared with the GPU kernels.
#pragma once

#include "extractors/extractor.h"
#include "kernels/psnr_hvs/psnr_hvs_ops.h"

namespace vmafhip {

extern const ExtractorInfo psnr_hvs_extractor;

class PsnrHvs final : public Extractor {
public:
    explicit PsnrHvs(const ExtractorConfig &c);

    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    int planes() const override { return 3; }
    size_t accum_bytes() const override { return sizeof(PsnrHvsAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    /// The frame's sizes and format (the GPU host side sizes its workspace by them).
    const Geometry &geometry() const { return g_; }

private:
    Geometry g_;
};

/// §3-§5: the float32 error sum of plane p (0 luma, 1 Cb, 2 Cr) of a frame
/// pair, the planes' samples of bpc bits.
float psnr_hvs_plane_sum(const PlaneView &ref, const PlaneView &dis, int p, int bpc,
                         ThreadPool &pool);

} // namespace vmafhip
