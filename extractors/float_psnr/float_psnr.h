// float_psnr: libvmaf's float PSNR of luma (feature/float_psnr.c and
// psnr.c), docs/float_psnr.md §2. The mean squared difference of the float
// luma planes (extractors/float_picture.h) as dB, capped per bit depth.
// CPU only.
#pragma once

#include "extractors/extractor.h"

namespace vmafhip {

/// The sum of the squared differences (float32 squares added into a double,
/// in libvmaf's row-major order).
struct FloatPsnrAccum {
    double noise;
};

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

private:
    Geometry g_;
    FloatPsnrLimits limits_;
};

} // namespace vmafhip
