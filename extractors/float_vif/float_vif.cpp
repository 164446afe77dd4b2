// float_vif host side: the table entry and options (§1), the checks (§6),
// the plan (prescale taps §2, Gaussian filters §3.1), names and the scores
// from the per-scale sums (§5).
#include "extractors/float_vif/float_vif.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"

namespace vmafhip {

extern const GpuImpl float_vif_gpu;

namespace {

#define FVIF_OPT(f) offsetof(FloatVifOptions, f)

// libvmaf 3.2's options (float_vif.c), in its order (§1.2).
constexpr OptionSpec options[] = {
    {.name = "debug", .alias = nullptr, .type = OptionType::Bool, .offset = FVIF_OPT(debug),
     .def = 0, .min = 0, .max = 1, .in_name = false,
     .help = "debug mode: enable additional output"},
    {.name = "vif_enhn_gain_limit", .alias = "egl", .type = OptionType::Double,
     .offset = FVIF_OPT(egl), .def = 100, .min = 1, .max = 100, .in_name = true,
     .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is "
             "completely disabled"},
    {.name = "vif_kernelscale", .alias = "ks", .type = OptionType::Double,
     .offset = FVIF_OPT(kernelscale), .def = 1, .min = 0.1, .max = 4, .in_name = true,
     .help = "scale of the Gaussian filter widths (one of libvmaf's 21 values)"},
    {.name = "vif_prescale", .alias = "ps", .type = OptionType::Double,
     .offset = FVIF_OPT(prescale), .def = 1, .min = 0.1, .max = 4, .in_name = true,
     .help = "resampling factor of the frame (2.0: twice as large each way)"},
    {.name = "vif_scale1_min_val", .alias = "s1miv", .type = OptionType::Double,
     .offset = FVIF_OPT(min_val[0]), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "smallest vif_scale1; smaller values are raised to it"},
    {.name = "vif_scale2_min_val", .alias = "s2miv", .type = OptionType::Double,
     .offset = FVIF_OPT(min_val[1]), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "smallest vif_scale2; smaller values are raised to it"},
    {.name = "vif_scale3_min_val", .alias = "s3miv", .type = OptionType::Double,
     .offset = FVIF_OPT(min_val[2]), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "smallest vif_scale3; smaller values are raised to it"},
    {.name = "vif_prescale_method", .alias = "pm", .type = OptionType::Enum,
     .offset = FVIF_OPT(prescale_method), .def = 0, .min = 0, .max = 3, .in_name = true,
     .help = "resampling method of vif_prescale", .choices = SCALER_NAMES},
    {.name = "vif_sigma_nsq", .alias = "snsq", .type = OptionType::Double,
     .offset = FVIF_OPT(sigma_nsq), .def = 2, .min = 0, .max = 5, .in_name = true,
     .help = "neural noise variance"},
    {.name = "vif_skip_scale0", .alias = "ssclz", .type = OptionType::Bool,
     .offset = FVIF_OPT(skip_scale0), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "when set, skip scale 0 calculations"},
};
#undef FVIF_OPT

// libvmaf's provided_features, with the names its output files use.
const ProvidedFeature provides[] = {
    {"VMAF_feature_vif_scale0_score", "vif_scale0"},
    {"VMAF_feature_vif_scale1_score", "vif_scale1"},
    {"VMAF_feature_vif_scale2_score", "vif_scale2"},
    {"VMAF_feature_vif_scale3_score", "vif_scale3"},
    {"vif", "vif"},
    {"vif_num", "vif_num"},
    {"vif_den", "vif_den"},
    {"vif_num_scale0", "vif_num_scale0"},
    {"vif_den_scale0", "vif_den_scale0"},
    {"vif_num_scale1", "vif_num_scale1"},
    {"vif_den_scale1", "vif_den_scale1"},
    {"vif_num_scale2", "vif_num_scale2"},
    {"vif_den_scale2", "vif_den_scale2"},
    {"vif_num_scale3", "vif_num_scale3"},
    {"vif_den_scale3", "vif_den_scale3"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<FloatVif>(float_vif_extractor, c, ret, msg);
}

// §6: the smallest n that prescales to at least `side`.
int min_frame_side(int side, double ps)
{
    int n = 1;
    while (scaled_size(n, ps) < side)
        n++;
    return n;
}

} // namespace

const ExtractorInfo float_vif_extractor = {
    .name = "float_vif",
    .help = "libvmaf's float visual information fidelity, luma, 4 scales: vif_scale0..3",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 1, // check() says which sizes, by kernel scale and prescale
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(float_vif_gpu),
};

int FloatVif::min_scaled_side(const FloatVifOptions &o)
{
    // §6: scale s filters a side of n >> s samples with a half-width r_s
    // filter, whose mirror stays inside only while r_s < n >> s; scale s > 0
    // also filters scale s-1 with it (a weaker bound). A skipped scale 0 is
    // never filtered with its own filter.
    const float k = static_cast<float>(o.kernelscale);
    int need = 1;
    for (int s = o.skip_scale0 ? 1 : 0; s < FLOAT_VIF_SCALES; s++)
        need = std::max(need, (gaussian_width(s, k) / 2 + 1) << s);
    return need;
}

int FloatVif::check(const ExtractorConfig &c, std::string *msg)
{
    const FloatVifOptions o = options_struct<FloatVifOptions>(float_vif_extractor, c.options);
    const Geometry &g = c.g;
    if (!(g.bpc == 8 || g.bpc == 10 || g.bpc == 12 || g.bpc == 16)) {
        *msg = strprintf("float_vif: bit depth %d is not supported: accepted are 8, 10, 12 and 16",
                         g.bpc);
        return -ENOTSUP;
    }
    if (!kernelscale_valid(o.kernelscale)) {
        *msg = strprintf("float_vif option vif_kernelscale: %g is not valid (libvmaf fails every "
                         "frame): accepted are %s", o.kernelscale, KERNELSCALES_ACCEPTED);
        return -EINVAL;
    }
    const int need = min_scaled_side(o);
    const int sw = scaled_size(g.w, o.prescale), sh = scaled_size(g.h, o.prescale);
    if (sw < need || sh < need) {
        *msg = strprintf("float_vif: frame size %dx%d is too small: with vif_kernelscale %g and "
                         "vif_prescale %g it scores %dx%d, and each side must be at least %d (the "
                         "Gaussian filters' mirror leaves smaller scales, where libvmaf reads "
                         "outside its buffers); the smallest accepted frame is %dx%d",
                         g.w, g.h, o.kernelscale, o.prescale, sw, sh, need,
                         min_frame_side(need, o.prescale), min_frame_side(need, o.prescale));
        return -ERANGE;
    }
    return 0;
}

FloatVif::FloatVif(const ExtractorConfig &c)
    : Extractor(float_vif_extractor),
      o_(options_struct<FloatVifOptions>(float_vif_extractor, c.options)), bpc_(c.g.bpc),
      suffix_(c.suffix)
{
    FloatVifPlan &p = plan_;
    p.w = c.g.w, p.h = c.g.h;
    p.sw = scaled_size(p.w, o_.prescale), p.sh = scaled_size(p.h, o_.prescale);
    // §2: equal sizes are copied unchanged, whatever the prescale.
    if (p.sw != p.w || p.sh != p.h)
        p.rs = resampling(static_cast<Scaler>(o_.prescale_method), p.w, p.h, p.sw, p.sh);
    // §3.1: width n_s-based, sigma width / 5 (float division).
    const float k = static_cast<float>(o_.kernelscale);
    for (int s = 0; s < FLOAT_VIF_SCALES; s++) {
        const int fw = gaussian_width(s, k);
        p.filter[s] = gaussian_taps(fw, static_cast<float>(fw) / 5.0f);
    }
}

FvifStat FloatVif::stat() const
{
    return FvifStat{static_cast<float>(o_.egl), o_.sigma_nsq,
                    static_cast<float>(powf(static_cast<float>(o_.sigma_nsq), 2.0f) /
                                       (255.0 * 255.0))};
}

void FloatVif::names(std::vector<std::string> *out) const
{
    for (int s = 0; s < FLOAT_VIF_SCALES; s++)
        out->push_back("vif_scale" + std::to_string(s) + suffix_);
    if (!o_.debug)
        return;
    for (const char *n : {"vif", "vif_num", "vif_den"})
        out->push_back(n + suffix_);
    for (int s = 0; s < FLOAT_VIF_SCALES; s++) {
        out->push_back("vif_num_scale" + std::to_string(s) + suffix_);
        out->push_back("vif_den_scale" + std::to_string(s) + suffix_);
    }
}

void FloatVif::finish(unsigned, const void *accum, double *out)
{
    const FloatVifAccum &a = *static_cast<const FloatVifAccum *>(accum);
    const bool skip = o_.skip_scale0 != 0;
    int i = 0;
    // §5: double division of the float sums; scales 1 to 3 raised to their
    // minimum as libvmaf's MAX(ratio, min) does (a NaN ratio gives the minimum).
    out[i++] = skip ? 0.0 : a.num[0] / a.den[0];
    for (int s = 1; s < FLOAT_VIF_SCALES; s++) {
        const double r = a.num[s] / a.den[s];
        out[i++] = r > o_.min_val[s - 1] ? r : o_.min_val[s - 1];
    }
    if (!o_.debug)
        return;
    // §5: the double sums over the scales computed, ascending.
    double num = 0.0, den = 0.0;
    for (int s = skip ? 1 : 0; s < FLOAT_VIF_SCALES; s++) {
        num += a.num[s];
        den += a.den[s];
    }
    out[i++] = den == 0.0 ? 1.0 : num / den;
    out[i++] = num;
    out[i++] = den;
    for (int s = 0; s < FLOAT_VIF_SCALES; s++) {
        out[i++] = s == 0 && skip ? 0.0 : a.num[s];
        out[i++] = s == 0 && skip ? -1.0 : a.den[s];
    }
}

} // namespace vmafhip
