// float_adm host side (docs/float_adm.md): the table entry, its options, the
// sizes it accepts, the names (with libvmaf's option suffixes) and the
// scores from a frame's per-scale floats. Every § is a section of that page.
#include "extractors/float_adm/float_adm.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"

namespace vmafhip {

extern const GpuImpl float_adm_gpu;

namespace {

#define FADM_OPT(f) offsetof(FloatAdmOptions, f)

/// §10 one adm_fNsM override: -1 (the default) keeps the CSF model's weight.
#define FADM_FACTOR(n, f, s, what)                                                       \
    {.name = "adm_" n, .alias = n, .type = OptionType::Double, .offset = FADM_OPT(f[s]), \
     .def = -1, .min = -1, .max = 10, .in_name = true,                                   \
     .help = "CSF weight of the " what " bands of scale " #s " (-1: the CSF model's)"}

// libvmaf's float_adm options table, in its order (names, aliases, defaults,
// ranges; all but debug are VMAF_OPT_FLAG_FEATURE_PARAM).
const OptionSpec options[] = {
    {.name = "debug", .alias = nullptr, .type = OptionType::Bool, .offset = FADM_OPT(debug),
     .def = 0, .min = 0, .max = 1, .in_name = false,
     .help = "also report adm, adm_num, adm_den and per-scale adm_num/adm_den"},
    {.name = "adm_enhn_gain_limit", .alias = "egl", .type = OptionType::Double,
     .offset = FADM_OPT(enhn_gain_limit), .def = 100, .min = 1, .max = 100, .in_name = true,
     .help = "enhancement gain limit (1: no enhancement gain)"},
    {.name = "adm_norm_view_dist", .alias = "nvd", .type = OptionType::Double,
     .offset = FADM_OPT(norm_view_dist), .def = 3, .min = 0.75, .max = 24, .in_name = true,
     .help = "normalised viewing distance (multiples of display height)"},
    {.name = "adm_noise_weight", .alias = "nw", .type = OptionType::Double,
     .offset = FADM_OPT(noise_weight), .def = 0.03125, .min = 0, .max = 1500, .in_name = true,
     .help = "noise floor weight"},
    {.name = "adm_csf_scale", .alias = "scf", .type = OptionType::Double,
     .offset = FADM_OPT(csf_scale), .def = 1, .min = 0, .max = 50, .in_name = true,
     .help = "Barten CSF scale of the H and V bands (adm_csf_mode 1 only)"},
    {.name = "adm_csf_diag_scale", .alias = "scfd", .type = OptionType::Double,
     .offset = FADM_OPT(csf_diag_scale), .def = 1, .min = 0, .max = 50, .in_name = true,
     .help = "Barten CSF scale of the D bands (adm_csf_mode 1 only)"},
    {.name = "adm_ref_display_height", .alias = "rdf", .type = OptionType::Int,
     .offset = FADM_OPT(ref_display_height), .def = 1080, .min = 1, .max = 4320, .in_name = true,
     .help = "reference display height in pixels"},
    {.name = "adm_csf_mode", .alias = "csf", .type = OptionType::Int, .offset = FADM_OPT(csf_mode),
     .def = 0, .min = 0, .max = 9, .in_name = true,
     .help = "CSF: 0 Watson, 1 Barten, 2 the DLM paper's; 3 to 9 are Watson too"},
    {.name = "adm_bypass_cm", .alias = "bcm", .type = OptionType::Int, .offset = FADM_OPT(bypass_cm),
     .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "1: no contrast masking threshold"},
    {.name = "adm_adm3_apply_hm", .alias = "aah", .type = OptionType::Bool,
     .offset = FADM_OPT(adm3_apply_hm), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "adm3 as the harmonic mean of adm2 and aim instead of their weighted sum"},
    {.name = "adm_p_norm", .alias = "apn", .type = OptionType::Double, .offset = FADM_OPT(p_norm),
     .def = 3, .min = 1, .max = 20, .in_name = true,
     .help = "exponent of the p-norms"},
    {.name = "adm_dlm_weight", .alias = "dlmw", .type = OptionType::Double,
     .offset = FADM_OPT(dlm_weight), .def = 0.5, .min = 0, .max = 1, .in_name = true,
     .help = "weight of adm2 against 1 - aim in adm3 (1: adm2 only)"},
    {.name = "adm_min_val", .alias = "min", .type = OptionType::Double, .offset = FADM_OPT(min_val),
     .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "floor of adm3"},
    FADM_FACTOR("f1s0", f1s, 0, "H and V"),
    FADM_FACTOR("f1s1", f1s, 1, "H and V"),
    FADM_FACTOR("f1s2", f1s, 2, "H and V"),
    FADM_FACTOR("f1s3", f1s, 3, "H and V"),
    FADM_FACTOR("f2s0", f2s, 0, "D"),
    FADM_FACTOR("f2s1", f2s, 1, "D"),
    FADM_FACTOR("f2s2", f2s, 2, "D"),
    FADM_FACTOR("f2s3", f2s, 3, "D"),
    // §10: libvmaf's default -1 lies outside its range 0..3 and an explicit -1
    // is refused there; the range here admits it, meaning the default.
    {.name = "adm_skip_aim_scale", .alias = "sasc", .type = OptionType::Int,
     .offset = FADM_OPT(skip_aim_scale), .def = -1, .min = -1, .max = 3, .in_name = true,
     .help = "scale left out of aim (-1: none)"},
    {.name = "adm_skip_scale0", .alias = "ssz", .type = OptionType::Bool,
     .offset = FADM_OPT(skip_scale0), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "skip scale 0 (its adm_scale0 is 0)"},
};

#undef FADM_FACTOR
#undef FADM_OPT

// libvmaf's provided_features of float_adm and their output names (alias.c).
const ProvidedFeature provides[] = {
    {"VMAF_feature_adm2_score", "adm2"},
    {"VMAF_feature_aim_score", "aim"},
    {"VMAF_feature_adm3_score", "adm3"},
    {"VMAF_feature_adm_scale0_score", "adm_scale0"},
    {"VMAF_feature_adm_scale1_score", "adm_scale1"},
    {"VMAF_feature_adm_scale2_score", "adm_scale2"},
    {"VMAF_feature_adm_scale3_score", "adm_scale3"},
    {"adm_num", "adm_num"},
    {"adm_den", "adm_den"},
    {"adm_scale0", "adm_scale0"},
    {"adm_num_scale0", "adm_num_scale0"},
    {"adm_den_scale0", "adm_den_scale0"},
    {"adm_num_scale1", "adm_num_scale1"},
    {"adm_den_scale1", "adm_den_scale1"},
    {"adm_num_scale2", "adm_num_scale2"},
    {"adm_den_scale2", "adm_den_scale2"},
    {"adm_num_scale3", "adm_num_scale3"},
    {"adm_den_scale3", "adm_den_scale3"},
};

/// §7.5 the three orientations' p-norms of a scale's region sums plus the
/// noise floor of weight nw, added H + V + D (float).
float p_norms(const double sums[3], int area, double nw, double p)
{
    const float e = static_cast<float>(1.0f / p);
    const float noise = powf(static_cast<float>(area * nw), e);
    float n[3];
    for (int t = 0; t < FADM_ORIENTATIONS; t++)
        n[t] = powf(static_cast<float>(sums[t]), e) + noise;
    return n[0] + n[1] + n[2];
}

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<FloatAdm>(float_adm_extractor, c, ret, msg);
}

} // namespace

const ExtractorInfo float_adm_extractor = {
    .name = "float_adm",
    .help = "libvmaf's floating-point ADM (detail loss) of luma: adm2, aim, adm3, adm_scale0..3",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = FLOAT_ADM_MIN_SIZE,
    .min_h = FLOAT_ADM_MIN_SIZE,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(float_adm_gpu),
};

int FloatAdm::check(const ExtractorConfig &c, std::string *msg)
{
    const Geometry &g = c.g;
    if (g.w < FLOAT_ADM_MIN_SIZE || g.h < FLOAT_ADM_MIN_SIZE) {
        // §9: below 17 libvmaf's mirrors read outside its bands (stale memory).
        *msg = strprintf("float_adm: frame size %dx%d is too small: width and height must be at "
                         "least %d (libvmaf reads outside its DWT bands below that)",
                         g.w, g.h, FLOAT_ADM_MIN_SIZE);
        return -ERANGE;
    }
    return 0;
}

FloatAdm::FloatAdm(const ExtractorConfig &c)
    : Extractor(float_adm_extractor),
      o_(options_struct<FloatAdmOptions>(float_adm_extractor, c.options)), g_(c.g),
      suffix_(c.suffix)
{
    float rf[FLOAT_ADM_SCALES][2];
    csf_weights(o_, rf);
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        rf3_[s][0] = rf3_[s][1] = rf[s][0];
        rf3_[s][2] = rf[s][1];
    }
}

void FloatAdm::names(std::vector<std::string> *out) const
{
    // libvmaf's order (float_adm.c extract()).
    for (const char *n : {"adm2", "aim", "adm3"})
        out->push_back(n + suffix_);
    for (int s = 0; s < FLOAT_ADM_SCALES; s++)
        out->push_back("adm_scale" + std::to_string(s) + suffix_);
    if (!o_.debug)
        return;
    for (const char *n : {"adm", "adm_num", "adm_den"})
        out->push_back(n + suffix_);
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        out->push_back("adm_num_scale" + std::to_string(s) + suffix_);
        out->push_back("adm_den_scale" + std::to_string(s) + suffix_);
    }
}

void FloatAdm::finish(unsigned, const void *accum, double *out)
{
    const FloatAdmAccum &acc = *static_cast<const FloatAdmAccum *>(accum);
    // §7.5 the per-scale floats (libvmaf's scores[] and the AIM numerators)
    // from the region sums; §8 scale 0 of adm_skip_scale0.
    struct {
        double num[FLOAT_ADM_SCALES], den[FLOAT_ADM_SCALES], aim[FLOAT_ADM_SCALES];
    } a;
    int w = g_.w, h = g_.h;
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        w = (w + 1) / 2;
        h = (h + 1) / 2;
        if (s == 0 && o_.skip_scale0) {
            a.num[s] = 0.0f;
            a.den[s] = 1e-10f;
            a.aim[s] = 0.0f;
            continue;
        }
        const FadmRegion g = fadm_region(w, h);
        const int area = (g.bottom - g.top) * (g.right - g.left);
        a.den[s] = p_norms(acc.sum[s][FADM_DEN], area, o_.noise_weight, o_.p_norm);
        a.num[s] = p_norms(acc.sum[s][FADM_NUM], area, o_.noise_weight, o_.p_norm);
        a.aim[s] = p_norms(acc.sum[s][FADM_AIM], area, 0.0, o_.p_norm);
    }
    // §8: double sums of the per-scale floats, scales ascending; aim leaves
    // out adm_skip_aim_scale.
    double num = 0, den = 0, aim_num = 0, aim_den = 0;
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        num += a.num[s];
        den += a.den[s];
        if (s != o_.skip_aim_scale) {
            aim_den += a.den[s];
            aim_num += a.aim[s];
        }
    }
    const double lim = 1e-10 * (g_.w * g_.h) / (1920.0 * 1080.0);
    num = num < lim ? 0 : num;
    den = den < lim ? 0 : den;
    // With den == 0 libvmaf leaves aim uninitialised (whatever its stack
    // held); it is 0 here.
    double adm2 = 1.0, aim = 0.0;
    if (den != 0.0) {
        aim = aim_num / aim_den;
        aim = aim < 1.0 ? aim : 1.0;
        adm2 = num / den;
    }
    const double adm3 = o_.adm3_apply_hm
                            ? 2 * adm2 * aim / (adm2 + aim)
                            : adm2 * o_.dlm_weight + (1 - aim) * (1 - o_.dlm_weight);
    int i = 0;
    out[i++] = adm2;
    out[i++] = aim;
    out[i++] = adm3 > o_.min_val ? adm3 : o_.min_val;
    for (int s = 0; s < FLOAT_ADM_SCALES; s++)
        out[i++] = a.num[s] / a.den[s];
    if (!o_.debug)
        return;
    out[i++] = adm2;
    out[i++] = num;
    out[i++] = den;
    for (int s = 0; s < FLOAT_ADM_SCALES; s++) {
        out[i++] = a.num[s];
        out[i++] = a.den[s];
    }
}

} // namespace vmafhip
