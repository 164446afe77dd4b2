// integer ADM host side (docs/adm.md): the table entry, validation, names,
// CSF weights, per-scale regions and shifts, and the float tail from the
// exact integer accumulators. Every § below is a section of docs/adm.md.
#include "extractors/adm/adm.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "base/log.h"
#include "extractors/adm/adm_cpu_avx2.h"
#include "extractors/adm/adm_stages.h"
#include "extractors/options.h"

namespace vmafhip {

namespace {

// §5.1 Watson model constants: libvmaf's float literals (their bit patterns
// are listed there; the unit test checks the resulting rf bit patterns).
constexpr float WATSON_A = 0.495f;
constexpr float WATSON_K = 0.466f;
constexpr float WATSON_F0 = 0.401f;
constexpr float WATSON_G[2] = {1.0f, 0.534f}; // g[t], t = 1 (H, V), 2 (D)
// dwt_7_9_basis_function_amplitudes[λ][t], t = 1 (H, V), 2 (D).
constexpr float WATSON_AMP[4][2] = {
    {0.67234f, 0.72709f},
    {0.41317f, 0.49428f},
    {0.22727f, 0.28688f},
    {0.11792f, 0.15214f},
};
constexpr double PI = 3.14159265358979323846; // M_PI

/// §5.2 lookup tables of csf modes 2 and 3: rf[H/V, D][λ], keyed by exact
/// (rdh, nvd). Only pairs that pass the 3240 rule are listed (720/3 and 480
/// exist in libvmaf but are unreachable).
struct CsfTable {
    int mode, rdh;
    double nvd;
    double rf[2][4];
};

const CsfTable csf_tables[] = {
    {2, 1080, 3.0, {{0.01183, 0.025026, 0.04295, 0.058621}, {0.004302, 0.011778, 0.023918, 0.035901}}},
    {2, 2160, 1.5, {{0.01183, 0.025026, 0.04295, 0.058621}, {0.004302, 0.011778, 0.023918, 0.035901}}},
    {2, 1080, 5.0, {{0.004212, 0.014809, 0.029642, 0.047464}, {0.000984, 0.005852, 0.0146, 0.027574}}},
    {2, 2160, 3.0, {{0.00226, 0.01183, 0.025026, 0.04295}, {0.000479, 0.004302, 0.011778, 0.023918}}},
    {2, 2160, 5.0, {{0.000092, 0.004212, 0.014809, 0.029642}, {0.000050, 0.000984, 0.005852, 0.0146}}},
    {2, 720, 5.0, {{0.010144, 0.022561, 0.040309, 0.05672}, {0.003463, 0.010282, 0.021839, 0.034641}}},
    {3, 1080, 3.0, {{0.011249, 0.022606, 0.035930, 0.045673}, {0.004097, 0.010921, 0.021430, 0.031313}}},
    {3, 2160, 1.5, {{0.011249, 0.022606, 0.035930, 0.045673}, {0.004097, 0.010921, 0.021430, 0.031313}}},
    {3, 1080, 5.0, {{0.004052, 0.013939, 0.026298, 0.038833}, {0.000927, 0.005544, 0.013415, 0.024515}}},
    {3, 2160, 3.0, {{0.002166, 0.011249, 0.022606, 0.035930}, {0.000447, 0.004097, 0.010921, 0.021430}}},
    {3, 2160, 5.0, {{0.000077, 0.004052, 0.013939, 0.026298}, {0.000045, 0.000927, 0.005544, 0.013415}}},
    {3, 720, 5.0, {{0.009689, 0.020577, 0.034162, 0.044523}, {0.003302, 0.009579, 0.019661, 0.030318}}},
};

const CsfTable *find_csf_table(const AdmOptions &s)
{
    for (const auto &t : csf_tables)
        if (t.mode == s.csf_mode && t.rdh == s.ref_display_height && t.nvd == s.norm_view_dist)
            return &t;
    return nullptr;
}

/// §5.3: libvmaf hard-codes the scale-0 weights of the default viewing
/// condition (any nvd * rdh == 3240) in mode 0; they are NOT what the
/// formula gives (36451 / 49414).
bool default_view(const AdmOptions &s)
{
    return std::fabs(s.norm_view_dist * s.ref_display_height - 3240.0) < 1e-8 && s.csf_mode == 0;
}

#define ADM_OPT(f) offsetof(AdmOptions, f)

// Names, defaults and ranges are libvmaf's (integer_adm.c).
const OptionSpec options[] = {
    {.name = "debug", .alias = nullptr, .type = OptionType::Bool,
     .offset = ADM_OPT(debug), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "also report integer_adm, num/den totals and per-scale num/den"},
    {.name = "adm_enhn_gain_limit", .alias = "egl", .type = OptionType::Double,
     .offset = ADM_OPT(enhn_gain_limit), .def = 100, .min = 1, .max = 100,
     .in_name = true,
     .help = "enhancement gain limit"},
    {.name = "adm_norm_view_dist", .alias = "nvd", .type = OptionType::Double,
     .offset = ADM_OPT(norm_view_dist), .def = 3, .min = 0.75, .max = 24,
     .in_name = true,
     .help = "normalised viewing distance (multiples of display height)"},
    {.name = "adm_ref_display_height", .alias = "rdh", .type = OptionType::Int,
     .offset = ADM_OPT(ref_display_height), .def = 1080, .min = 1, .max = 4320,
     .in_name = true,
     .help = "reference display height in pixels"},
    {.name = "adm_csf_mode", .alias = "csf", .type = OptionType::Int,
     .offset = ADM_OPT(csf_mode), .def = 0, .min = 0, .max = 3,
     .in_name = true,
     .help = "CSF: 0 Watson, 2 Barten/Watson blend, 3 blend MAE (1 is not supported)"},
    {.name = "adm_noise_weight", .alias = "nw", .type = OptionType::Double,
     .offset = ADM_OPT(noise_weight), .def = 0.03125, .min = 0, .max = 1500,
     .in_name = true,
     .help = "noise floor weight"},
    {.name = "adm_csf_scale", .alias = "scf", .type = OptionType::Double,
     .offset = ADM_OPT(csf_scale), .def = 1, .min = 0, .max = 50,
     .in_name = true,
     .help = "CSF scale (mode 1 only)"},
    {.name = "adm_csf_diag_scale", .alias = "scfd", .type = OptionType::Double,
     .offset = ADM_OPT(csf_diag_scale), .def = 1, .min = 0, .max = 50,
     .in_name = true,
     .help = "diagonal CSF scale (mode 1 only)"},
    {.name = "adm_dlm_weight", .alias = "dlmw", .type = OptionType::Double,
     .offset = ADM_OPT(dlm_weight), .def = 0.5, .min = 0, .max = 1,
     .in_name = true,
     .help = "weight of integer_adm2 in integer_adm3"},
    {.name = "adm_min_val", .alias = "min", .type = OptionType::Double,
     .offset = ADM_OPT(min_val), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "floor of integer_adm3"},
    {.name = "adm_skip_scale0", .alias = "ssz", .type = OptionType::Bool,
     .offset = ADM_OPT(skip_scale0), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "skip scale 0"},
    {.name = "adm_skip_aim", .alias = nullptr, .type = OptionType::Bool,
     .offset = ADM_OPT(skip_aim), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "skip the AIM sums: integer_aim is 0 and integer_adm3 follows from integer_adm2"},
};

#undef ADM_OPT

// libvmaf's provided_features of integer_adm and their output aliases.
const ProvidedFeature provides[] = {
    {"VMAF_integer_feature_adm2_score", "integer_adm2"},
    {"VMAF_integer_feature_aim_score", "integer_aim"},
    {"VMAF_integer_feature_adm3_score", "integer_adm3"},
    {"integer_aim", "integer_aim"},
    {"integer_adm3", "integer_adm3"},
    {"integer_adm_scale0", "integer_adm_scale0"},
    {"integer_adm_scale1", "integer_adm_scale1"},
    {"integer_adm_scale2", "integer_adm_scale2"},
    {"integer_adm_scale3", "integer_adm_scale3"},
    {"integer_adm", "integer_adm"},
    {"integer_adm_num", "integer_adm_num"},
    {"integer_adm_den", "integer_adm_den"},
    {"integer_adm_num_scale0", "integer_adm_num_scale0"},
    {"integer_adm_den_scale0", "integer_adm_den_scale0"},
    {"integer_adm_num_scale1", "integer_adm_num_scale1"},
    {"integer_adm_den_scale1", "integer_adm_den_scale1"},
    {"integer_adm_num_scale2", "integer_adm_num_scale2"},
    {"integer_adm_den_scale2", "integer_adm_den_scale2"},
    {"integer_adm_num_scale3", "integer_adm_num_scale3"},
    {"integer_adm_den_scale3", "integer_adm_den_scale3"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    if ((*ret = Adm::check(options_struct<AdmOptions>(adm_extractor, c.options), c.g, msg)) < 0)
        return nullptr;
    return std::make_unique<Adm>(c);
}

} // namespace

/// §5.1 rf(λ, t) in libvmaf's mixed float/double order (dwt_quant_step, then
/// 1.0f / Q), t = 1 (H, V) or 2 (D). A 1-ulp difference here changes the
/// integer weights.
float watson_rf(double nvd, int rdh, int lambda, int t)
{
    const float r = static_cast<float>(nvd * rdh * PI / 180.0);
    const float tmp = static_cast<float>(
        std::log10(std::pow(2.0, lambda + 1) * WATSON_F0 * WATSON_G[t - 1] / r));
    const float e = WATSON_K * tmp * tmp; // float multiplications, left to right
    const float q = static_cast<float>(2.0 * WATSON_A * std::pow(10.0, e) / WATSON_AMP[lambda][t - 1]);
    return 1.0f / q;
}

extern const GpuImpl adm_gpu;

const ExtractorInfo adm_extractor = {
    .name = "adm",
    .help = "libvmaf's integer ADM (detail loss) of luma: integer_adm2, integer_adm_scale0..3, "
            "integer_aim, integer_adm3",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = ADM_MIN_SIZE,
    .min_h = ADM_MIN_SIZE,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(adm_gpu),
};

int Adm::check(const AdmOptions &s, const Geometry &g, std::string *msg)
{
    if (g.w < ADM_MIN_SIZE || g.h < ADM_MIN_SIZE) {
        // §13: libvmaf crashes below 17 px (Netflix/vmaf#1607) and below 33 px
        // reads outside its coarse-scale bands, so its output is undefined there.
        // tests/fixtures/MANIFEST.md adds that at 33 <= W <= 36 (and e.g. 67x35)
        // libvmaf reads heap it never wrote; its release build finds zeros
        // there, and the mirror rule of §3.3 (what we compute) matches that.
        *msg = strprintf("adm: frame size %dx%d is too small: width and height must be at least "
                         "%d (libvmaf crashes under 17 px and reads out of bounds under 33 px)",
                         g.w, g.h, ADM_MIN_SIZE);
        return -ERANGE;
    }
    if (g.bpc != 8 && g.bpc != 10 && g.bpc != 12) {
        // §13: the 32-bit vertical DWT sum of libvmaf overflows at 16 bits.
        *msg = strprintf("adm: bit depth %d is not supported: accepted are 8, 10 and 12 "
                         "(libvmaf's integer DWT overflows 32 bits at 16)",
                         g.bpc);
        return -ENOTSUP;
    }
    if (s.csf_mode == 1) {
        // §5.2: the Barten weights overflow libvmaf's 16/32-bit fixed point.
        *msg = "adm: adm_csf_mode 1 (Barten) is not supported: its weights overflow libvmaf's "
               "fixed-point CSF and the output is meaningless; accepted modes are 0, 2 and 3";
        return -ENOTSUP;
    }
    if (s.norm_view_dist * s.ref_display_height < 3.0 * 1080) {
        // §1.3: libvmaf refuses this too (larger CSF weights would overflow scale 0).
        *msg = strprintf("adm: adm_norm_view_dist * adm_ref_display_height = %g * %d = %g is "
                         "below 3240 (3 x 1080): libvmaf refuses it; use a product of 3240 or more",
                         s.norm_view_dist, s.ref_display_height,
                         s.norm_view_dist * s.ref_display_height);
        return -EINVAL;
    }
    if ((s.csf_mode == 2 || s.csf_mode == 3) && !find_csf_table(s)) {
        // §5.2: libvmaf returns -22.0 as the weight and computes garbage.
        *msg = strprintf("adm: adm_csf_mode %d has no table for adm_ref_display_height %d with "
                         "adm_norm_view_dist %g: accepted (rdh, nvd) pairs are (1080, 3), "
                         "(1080, 5), (2160, 1.5), (2160, 3), (2160, 5) and (720, 5)",
                         s.csf_mode, s.ref_display_height, s.norm_view_dist);
        return -EINVAL;
    }
    return 0;
}

void Adm::csf_weights(const AdmOptions &s, float rf[4][3])
{
    const CsfTable *t = s.csf_mode == 0 ? nullptr : find_csf_table(s);
    for (int l = 0; l < 4; l++) {
        if (t) {
            rf[l][ADM_H] = rf[l][ADM_V] = static_cast<float>(t->rf[0][l]);
            rf[l][ADM_D] = static_cast<float>(t->rf[1][l]);
        } else {
            rf[l][ADM_H] = rf[l][ADM_V] = watson_rf(s.norm_view_dist, s.ref_display_height, l, 1);
            rf[l][ADM_D] = watson_rf(s.norm_view_dist, s.ref_display_height, l, 2);
        }
    }
}

Adm::Adm(const ExtractorConfig &c)
    : Extractor(adm_extractor), o_(options_struct<AdmOptions>(adm_extractor, c.options)), g_(c.g),
      suffix_(c.suffix), p_(),
      k_(&choose_kernels(c.cpu_flags, adm_kernels_scalar(), adm_kernels_avx2()))
{
    const AdmOptions &s = o_;
    const Geometry &g = g_;
    csf_weights(s, rf_);
    p_.bpc = g.bpc;
    p_.skip_scale0 = s.skip_scale0 ? 1 : 0;
    p_.skip_aim = s.skip_aim ? 1 : 0;
    p_.egl = s.enhn_gain_limit;
    int in_w = g.w, in_h = g.h;
    for (int sc = 0; sc < ADM_SCALES; sc++) {
        AdmScaleParams &q = p_.s[sc];
        q.in_w = in_w;
        q.in_h = in_h;
        q.w = (in_w + 1) / 2;
        q.h = (in_h + 1) / 2;
        q.left = adm_border(q.w);
        q.top = adm_border(q.h);
        q.right = q.w - q.left;
        q.bottom = q.h - q.top;
        // CM reads one neighbour beyond the region; mirrored ones fall inside.
        q.cl = q.left > 0 ? q.left - 1 : 0;
        q.ct = q.top > 0 ? q.top - 1 : 0;
        q.cr = q.right < q.w ? q.right + 1 : q.w;
        q.cb = q.bottom < q.h ? q.bottom + 1 : q.h;
        const int rw = q.right - q.left, rh = q.bottom - q.top;
        if (sc == 0) {
            if (default_view(s)) {
                q.irf[ADM_H] = q.irf[ADM_V] = 36453;
                q.irf[ADM_D] = 49417;
            } else {
                // (uint16)(rf * 2^21) / (rf * 2^23), double products truncated.
                q.irf[ADM_H] = q.irf[ADM_V] = static_cast<uint16_t>(rf_[0][ADM_H] * std::pow(2.0, 21));
                q.irf[ADM_D] = static_cast<uint16_t>(rf_[0][ADM_D] * std::pow(2.0, 23));
            }
            const int sa = adm_clog2(static_cast<uint32_t>(rw) * static_cast<uint32_t>(rh)) - 20;
            q.den_shift = sa > 0 ? sa : 0;
            q.den_cub = 0;
            q.cm_cub[ADM_H] = q.cm_cub[ADM_V] = adm_clog2(q.w) - 4;
            q.cm_cub[ADM_D] = adm_clog2(q.w) - 3;
        } else {
            for (int t = 0; t < 3; t++)
                q.irf[t] = static_cast<uint32_t>(rf_[sc][t] * std::pow(2.0, 32));
            // §7.2: den shifts use the REGION size, CM the BAND size.
            q.den_shift = adm_clog2(rh);
            q.den_cub = adm_clog2(rw);
            q.cm_cub[0] = q.cm_cub[1] = q.cm_cub[2] = adm_clog2(q.w);
        }
        q.cm_inner = adm_clog2(q.h);
        in_w = q.w;
        in_h = q.h;
    }
}

void Adm::names(std::vector<std::string> *out) const
{
    // libvmaf's JSON order (integer_adm.c extract(), see the debug goldens).
    out->push_back("integer_adm2" + suffix_);
    out->push_back("integer_aim" + suffix_);  // 0 with adm_skip_aim, as libvmaf
    out->push_back("integer_adm3" + suffix_);
    for (int sc = 0; sc < ADM_SCALES; sc++)
        out->push_back("integer_adm_scale" + std::to_string(sc) + suffix_);
    if (o_.debug) {
        out->push_back("integer_adm" + suffix_);
        out->push_back("integer_adm_num" + suffix_);
        out->push_back("integer_adm_den" + suffix_);
        for (int sc = 0; sc < ADM_SCALES; sc++) {
            out->push_back("integer_adm_num_scale" + std::to_string(sc) + suffix_);
            out->push_back("integer_adm_den_scale" + std::to_string(sc) + suffix_);
        }
    }
}

AdmScaleScores Adm::scale_scores(const AdmAccum &a) const
{
    AdmScaleScores out{};
    const float third = 1.0f / 3.0f; // 0x3EAAAAAB; powf, NOT cbrtf (§12.2 item 5)
    for (int sc = 0; sc < ADM_SCALES; sc++) {
        const AdmScaleParams &q = p_.s[sc];
        if (sc == 0 && p_.skip_scale0) {
            out.num[0] = 0.0f;
            out.den[0] = 1e-10f; // §4.4
            out.aim[0] = 0.0f;
            continue;
        }
        const int area = (q.bottom - q.top) * (q.right - q.left);
        // §7.3 / §9.3 noise floor: A * nw in double, rounded to float, powf.
        const float nf = powf(static_cast<float>(static_cast<double>(area) * o_.noise_weight), third);
        const float nf_aim = powf(static_cast<float>(static_cast<double>(area) * 0.0), third);
        float den[3], num[3], aim[3];
        for (int t = 0; t < 3; t++) {
            // §7.1 / §7.2: f64(D) / 2^k * pow(f64(rf), 3), all double.
            const int dk = sc == 0 ? 18 - q.den_shift
                                   : (sc == 1 ? 32 : sc == 2 ? 27 : 23) - q.den_shift - q.den_cub;
            const double c = static_cast<double>(a.den[sc][t]) / std::ldexp(1.0, dk) *
                             std::pow(static_cast<double>(rf_[sc][t]), 3.0);
            den[t] = powf(static_cast<float>(c), third) + nf;
            float fn, fa;
            if (sc == 0) {
                // §9.3 scale 0: f32(f64(N) / 2^k), P = 52 (H, V) / 57 (D).
                const int nk = (t == ADM_D ? 57 : 52) - q.cm_cub[t] - q.cm_inner;
                fn = static_cast<float>(static_cast<double>(a.num[sc][t]) / std::ldexp(1.0, nk));
                fa = static_cast<float>(static_cast<double>(a.aim[sc][t]) / std::ldexp(1.0, nk));
            } else {
                // §9.3 scales 1-3: the int64 is rounded to float FIRST, then a float division.
                const int nk = (sc == 1 ? 45 : sc == 2 ? 39 : 36) - q.cm_cub[t] - q.cm_inner;
                const float div = static_cast<float>(std::ldexp(1.0, nk));
                fn = static_cast<float>(a.num[sc][t]) / div;
                fa = static_cast<float>(a.aim[sc][t]) / div;
            }
            num[t] = powf(fn, third) + nf;
            aim[t] = powf(fa, third) + nf_aim; // §10: noise weight 0 for AIM
        }
        // Float sums in the order (H + V) + D.
        out.den[sc] = (den[ADM_H] + den[ADM_V]) + den[ADM_D];
        out.num[sc] = (num[ADM_H] + num[ADM_V]) + num[ADM_D];
        out.aim[sc] = p_.skip_aim ? 0.0f : (aim[ADM_H] + aim[ADM_V]) + aim[ADM_D];
    }
    return out;
}

void Adm::finish(unsigned, const void *accum, double *out)
{
    const AdmAccum &a = *static_cast<const AdmAccum *>(accum);
    const AdmScaleScores sc = scale_scores(a);
    double num = 0, den = 0, aim = 0; // §11: double sums, scales ascending
    for (int s = 0; s < ADM_SCALES; s++) {
        num += sc.num[s];
        den += sc.den[s];
        aim += sc.aim[s];
    }
    const double lim = 1e-10 * (g_.w * g_.h) / (1920.0 * 1080.0);
    num = num < lim ? 0 : num;
    den = den < lim ? 0 : den;
    // With den == 0 libvmaf leaves integer_aim uninitialised (whatever was on
    // its stack); we define it as 0, which makes integer_adm3 = 1 with the
    // default weights.
    const double adm2 = den == 0.0 ? 1.0 : num / den;
    const double aim_score = den == 0.0 ? 0.0 : aim / den; // no clipping, unlike float ADM
    const double adm3 = adm2 * o_.dlm_weight + (1.0 - aim_score) * (1.0 - o_.dlm_weight);
    int i = 0;
    out[i++] = adm2;
    out[i++] = aim_score;
    out[i++] = adm3 > o_.min_val ? adm3 : o_.min_val;
    for (int s = 0; s < ADM_SCALES; s++)
        out[i++] = static_cast<double>(sc.num[s]) / static_cast<double>(sc.den[s]);
    if (o_.debug) {
        out[i++] = adm2;
        out[i++] = num;
        out[i++] = den;
        for (int s = 0; s < ADM_SCALES; s++) {
            out[i++] = sc.num[s];
            out[i++] = sc.den[s];
        }
    }
}

} // namespace vmafhip
