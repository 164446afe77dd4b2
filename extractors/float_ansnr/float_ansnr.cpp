// float_ansnr host side: the table entry, the size check, the names and the
// scores (docs/float_psnr.md §3).
#include "extractors/float_ansnr/float_ansnr.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <iterator>

#include "base/log.h"

namespace vmafhip {

extern const GpuImpl float_ansnr_gpu;

namespace {

// libvmaf's provided_features: float_anpsnr is written but not listed (§3).
const ProvidedFeature provides[] = {
    {"float_ansnr", "float_ansnr"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<FloatAnsnr>(float_ansnr_extractor, c, ret, msg);
}

} // namespace

const ExtractorInfo float_ansnr_extractor = {
    .name = "float_ansnr",
    .help = "libvmaf's anti-noise SNR of luma and its PSNR: float_ansnr, float_anpsnr",
    .options = nullptr,
    .n_options = 0,
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = FLOAT_ANSNR_MIN_SIZE,
    .min_h = FLOAT_ANSNR_MIN_SIZE,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(float_ansnr_gpu),
};

int FloatAnsnr::check(const ExtractorConfig &c, std::string *msg)
{
    // §3.4: below 3 libvmaf's filters read outside its buffers.
    if (c.g.w < FLOAT_ANSNR_MIN_SIZE || c.g.h < FLOAT_ANSNR_MIN_SIZE) {
        *msg = strprintf("float_ansnr: frame %dx%d is too small: width and height must be at "
                         "least %d (libvmaf's 5x5 filter mirrors outside smaller frames and "
                         "reads memory it never wrote)",
                         c.g.w, c.g.h, FLOAT_ANSNR_MIN_SIZE);
        return -ERANGE;
    }
    return 0;
}

FloatAnsnr::FloatAnsnr(const ExtractorConfig &c)
    : Extractor(float_ansnr_extractor), g_(c.g), limits_(float_psnr_limits(c.g.bpc))
{
}

void FloatAnsnr::names(std::vector<std::string> *out) const
{
    out->push_back("float_ansnr");
    out->push_back("float_anpsnr");
}

void FloatAnsnr::finish(unsigned, const void *accum, double *out)
{
    const FloatAnsnrAccum &a = *static_cast<const FloatAnsnrAccum *>(accum);
    const float sig = static_cast<float>(a.sig), noise = static_cast<float>(a.noise);
    // §3.5: the ratio is a float32 division; no noise gives the cap.
    out[0] = noise == 0 ? limits_.psnr_max : 10.0 * std::log10(static_cast<double>(sig / noise));
    // The PSNR's "mean" multiplies the peak's square by the pixel count
    // (double, left to right) instead of dividing the noise by it.
    const double scaled_peak = limits_.peak * limits_.peak * g_.w * g_.h;
    out[1] = std::min(10 * std::log10(scaled_peak / std::max(static_cast<double>(noise), 1e-10)),
                      limits_.psnr_max);
}

} // namespace vmafhip
