// ciede: libvmaf's CIEDE2000 colour difference (feature/ciede.c),
// docs/ciede.md. Every pixel's YUV to CIE L*a*b* (chroma upsampled by
// repetition), the CIEDE2000 difference of the two pictures' colours, their
// mean as a dB-like score. The GPU runs the same arithmetic (kernels/ciede).
#pragma once

#include "extractors/extractor.h"
#include "kernels/ciede/ciede_ops.h"

namespace vmafhip {

extern const ExtractorInfo ciede_extractor;

class Ciede final : public Extractor {
public:
    explicit Ciede(const ExtractorConfig &c);

    static int check(const ExtractorConfig &c, std::string *msg);

    void names(std::vector<std::string> *out) const override;
    int planes() const override { return 3; }
    size_t accum_bytes() const override { return sizeof(CiedeAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    const Geometry &geometry() const { return g_; }

private:
    Geometry g_;
};

} // namespace vmafhip
