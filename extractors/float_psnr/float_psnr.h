// float_psnr: libvmaf's float PSNR of luma (feature/float_psnr.c and
// psnr.c), docs/float_psnr.md §2. The mean squared difference of the float
// luma planes (extractors/float_picture.h) as dB, capped per bit depth.
// The GPU runs the same arithmetic (kernels/float_picture); FloatPsnrAccum
// is kernels/float_picture/float_picture_ops.h's.
#pragma once

#include "extractors/extractor.h"
#include "kernels/float_picture/float_picture_ops.h"

namespace vmafhip {

/// §2.2: the peak and the cap of float_psnr and float_anpsnr at a bit depth
/// (8, 10, 12, 16): (2^bpc - 1) / 2^(bpc - 8) and 6 * bpc + 12 dB.
struct FloatPsnrLimits {
    double peak, psnr_max;
};
FloatPsnrLimits float_psnr_limits(int bpc);

extern const ExtractorInfo float_psnr_extractor;

class FloatPsnr final : public Extractor {
public:
    explicit FloatPsnr(const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(FloatPsnrAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const Geometry &geometry() const { return g_; }

private:
    Geometry g_;
    FloatPsnrLimits limits_;
};

} // namespace vmafhip
