// float_moment host side: the table entry, the names and the means
// (docs/float_psnr.md §4).
#include "extractors/float_moment/float_moment.h"

#include <iterator>

namespace vmafhip {

extern const GpuImpl float_moment_gpu;

namespace {

// libvmaf's provided_features names the extractor, not one of its outputs
// (§4): a model reading "float_moment" finds no column, in libvmaf as here.
const ProvidedFeature provides[] = {
    {"float_moment", "float_moment"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *, std::string *)
{
    return std::make_unique<FloatMoment>(c); // any size from 1x1, every format (§4)
}

} // namespace

const ExtractorInfo float_moment_extractor = {
    .name = "float_moment",
    .help = "libvmaf's first and second moments of the float luma of both pictures: "
            "float_moment_ref1st, _dis1st, _ref2nd, _dis2nd",
    .options = nullptr,
    .n_options = 0,
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 1,
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(float_moment_gpu),
};

FloatMoment::FloatMoment(const ExtractorConfig &c) : Extractor(float_moment_extractor), g_(c.g) {}

void FloatMoment::names(std::vector<std::string> *out) const
{
    for (const char *n : {"float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd",
                          "float_moment_dis2nd"})
        out->push_back(n);
}

void FloatMoment::finish(unsigned, const void *accum, double *out)
{
    // §4: each sum over the int pixel count.
    const FloatMomentAccum &a = *static_cast<const FloatMomentAccum *>(accum);
    const int pixels = g_.w * g_.h;
    out[0] = a.ref1 / pixels;
    out[1] = a.dis1 / pixels;
    out[2] = a.ref2 / pixels;
    out[3] = a.dis2 / pixels;
}

} // namespace vmafhip
