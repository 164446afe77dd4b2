// float_moment: libvmaf's first and second moments of the float luma planes
// (feature/float_moment.c and moment.c), docs/float_psnr.md §4. CPU only.
#pragma once

#include "extractors/extractor.h"

namespace vmafhip {

/// The sums of the samples and of their float32 squares, as doubles in
/// libvmaf's row-major order: ref and dis.
struct FloatMomentAccum {
    double ref1, dis1, ref2, dis2;
};

extern const ExtractorInfo float_moment_extractor;

class FloatMoment final : public Extractor {
public:
    explicit FloatMoment(const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(FloatMomentAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

private:
    Geometry g_;
};

} // namespace vmafhip
