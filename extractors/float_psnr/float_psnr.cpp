// float_psnr host side: the table entry, the name and the score
// (docs/float_psnr.md §2).
#include "extractors/float_psnr/float_psnr.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace vmafhip {

extern const GpuImpl float_psnr_gpu;

namespace {

const ProvidedFeature provides[] = {
    {"float_psnr", "float_psnr"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *, std::string *)
{
    return std::make_unique<FloatPsnr>(c); // any size from 1x1, every format (§2.1)
}

} // namespace

const ExtractorInfo float_psnr_extractor = {
    .name = "float_psnr",
    .help = "libvmaf's float PSNR of luma, capped per bit depth: float_psnr",
    .options = nullptr,
    .n_options = 0,
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 1,
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(float_psnr_gpu),
};

FloatPsnrLimits float_psnr_limits(int bpc)
{
    // libvmaf's constants (float_psnr.c, float_ansnr.c init), exact in double.
    switch (bpc) {
    case 10: return {255.75, 72.0};
    case 12: return {255.9375, 84.0};
    case 16: return {255.99609375, 108.0};
    default: return {255.0, 60.0};
    }
}

FloatPsnr::FloatPsnr(const ExtractorConfig &c)
    : Extractor(float_psnr_extractor), g_(c.g), limits_(float_psnr_limits(c.g.bpc))
{
}

void FloatPsnr::names(std::vector<std::string> *out) const
{
    out->push_back("float_psnr");
}

void FloatPsnr::finish(unsigned, const void *accum, double *out)
{
    // §2.2: the mean over the int pixel count, floored at 1e-10, then capped.
    const double mse = static_cast<const FloatPsnrAccum *>(accum)->noise / (g_.w * g_.h);
    out[0] = std::min(10 * std::log10(limits_.peak * limits_.peak / std::max(mse, 1e-10)),
                      limits_.psnr_max);
}

} // namespace vmafhip
