// float_ansnr: libvmaf's anti-noise SNR of luma (feature/float_ansnr.c,
// ansnr.c, ansnr_tools.c), docs/float_psnr.md §3. The reference smoothed by
// a 3x3 filter, the distorted picture by a 5x5 one; their signal-to-noise
// ratio and a PSNR of the same noise. The GPU runs the same arithmetic
// (kernels/float_picture); FloatAnsnrAccum is
// kernels/float_picture/float_picture_ops.h's.
#pragma once

#include "extractors/extractor.h"
#include "extractors/float_psnr/float_psnr.h"
#include "kernels/float_picture/float_picture_ops.h"

namespace vmafhip {

/// §3.4: the smallest width and height libvmaf's 5x5 mirror stays inside.
constexpr int FLOAT_ANSNR_MIN_SIZE = 3;

extern const ExtractorInfo float_ansnr_extractor;

class FloatAnsnr final : public Extractor {
public:
    explicit FloatAnsnr(const ExtractorConfig &c);

    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(FloatAnsnrAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const Geometry &geometry() const { return g_; }

private:
    Geometry g_;
    FloatPsnrLimits limits_;
};

} // namespace vmafhip
