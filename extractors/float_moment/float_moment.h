// float_moment: libvmaf's first and second moments of the float luma planes
// (feature/float_moment.c and moment.c), docs/float_psnr.md §4. The GPU
// runs the same arithmetic (kernels/float_picture); FloatMomentAccum is
// kernels/float_picture/float_picture_ops.h's.
#pragma once

#include "extractors/extractor.h"
#include "kernels/float_picture/float_picture_ops.h"

namespace vmafhip {

extern const ExtractorInfo float_moment_extractor;

class FloatMoment final : public Extractor {
public:
    explicit FloatMoment(const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(FloatMomentAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const Geometry &geometry() const { return g_; }

private:
    Geometry g_;
};

} // namespace vmafhip
