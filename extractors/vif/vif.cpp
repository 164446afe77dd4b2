// integer VIF host side (docs/vif.md): the table entry (options, features,
// limits), validation (§8), the log2 table (§5), names (§1) and the float
// tail (§4.1 "scale result", §4.3) from the exact integer accumulators.
#include "extractors/vif/vif.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"
#include "extractors/vif/vif_cpu_rows.h"

namespace vmafhip {

namespace {

// libvmaf's option table (integer_vif.c), in its order.
const OptionSpec vif_options[] = {
    {.name = "debug", .alias = nullptr, .type = OptionType::Bool,
     .offset = offsetof(VifOptions, debug), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "debug mode: enable additional output"},
    {.name = "vif_enhn_gain_limit", .alias = "egl", .type = OptionType::Double,
     .offset = offsetof(VifOptions, egl), .def = 100.0, .min = 1.0, .max = 100.0,
     .in_name = true,
     .help = "enhancement gain imposed on vif, must be >= 1.0, where 1.0 means the gain is completely " "disabled"},
    {.name = "vif_skip_scale0", .alias = "ssclz", .type = OptionType::Bool,
     .offset = offsetof(VifOptions, skip_scale0), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "when set, skip scale 0 calculations"},
};

// libvmaf's provided_features, with the names its output files use.
const ProvidedFeature vif_provides[] = {
    {"VMAF_integer_feature_vif_scale0_score", "integer_vif_scale0"},
    {"VMAF_integer_feature_vif_scale1_score", "integer_vif_scale1"},
    {"VMAF_integer_feature_vif_scale2_score", "integer_vif_scale2"},
    {"VMAF_integer_feature_vif_scale3_score", "integer_vif_scale3"},
    {"integer_vif", "integer_vif"},
    {"integer_vif_num", "integer_vif_num"},
    {"integer_vif_den", "integer_vif_den"},
    {"integer_vif_num_scale0", "integer_vif_num_scale0"},
    {"integer_vif_den_scale0", "integer_vif_den_scale0"},
    {"integer_vif_num_scale1", "integer_vif_num_scale1"},
    {"integer_vif_den_scale1", "integer_vif_den_scale1"},
    {"integer_vif_num_scale2", "integer_vif_num_scale2"},
    {"integer_vif_den_scale2", "integer_vif_den_scale2"},
    {"integer_vif_num_scale3", "integer_vif_num_scale3"},
    {"integer_vif_den_scale3", "integer_vif_den_scale3"},
};

constexpr unsigned VIF_BIT_DEPTHS = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16);

std::unique_ptr<Extractor> vif_create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    if (c.options.size() != sizeof(vif_options) / sizeof(vif_options[0])) {
        *msg = strprintf("vif: %zu option values given, the extractor has %zu", c.options.size(),
                         sizeof(vif_options) / sizeof(vif_options[0]));
        *ret = -EINVAL;
        return nullptr;
    }
    const VifOptions o = options_struct<VifOptions>(vif_extractor, c.options);
    *ret = Vif::check(c.g, o, msg);
    if (*ret < 0)
        return nullptr;
    return std::make_unique<Vif>(vif_extractor, c);
}

} // namespace

const ExtractorInfo vif_extractor = {
    .name = "vif",
    .help = "integer visual information fidelity (libvmaf's integer_vif), luma, 4 scales",
    .options = vif_options,
    .n_options = static_cast<int>(std::size(vif_options)),
    .provides = vif_provides,
    .n_provides = static_cast<int>(std::size(vif_provides)),
    .min_w = VIF_MIN_SIZE,
    .min_h = VIF_MIN_SIZE,
    .bit_depths = VIF_BIT_DEPTHS,
    .max_lookahead = 0,
    .create = vif_create,
    .gpu = VMAFHIP_GPU_IMPL(vif_gpu),
};

uint16_t vif_log2_entry(uint32_t m)
{
    // libvmaf's log_generate(): (uint16_t)round(log2f((float)i) * 2048). The
    // float product is exact (a power of two); round() is half away from zero.
    const float l = log2f(static_cast<float>(m)) * 2048.0f;
    return static_cast<uint16_t>(std::round(static_cast<double>(l)));
}

const uint16_t *vif_log2_table()
{
    struct Table {
        uint16_t t[VIF_LOG2_ENTRIES];
        Table()
        {
            for (int i = 0; i < VIF_LOG2_ENTRIES; i++)
                t[i] = vif_log2_entry(VIF_LOG2_FIRST + static_cast<uint32_t>(i));
        }
    };
    static const Table table; // built on first use, thread-safe
    return table.t;
}

int Vif::check(const Geometry &g, const VifOptions &o, std::string *msg)
{
    if (g.w < VIF_MIN_SIZE || g.h < VIF_MIN_SIZE) {
        // §8: under 8 rows scale 3 has no row and libvmaf crashes (its padding
        // loop indexes row h - 1 = -1); under 8 columns scale 3 has no column
        // and libvmaf's scores are 0 / 0 = NaN.
        *msg = strprintf("vif: frame size %dx%d is too small: width and height must be at least "
                         "%d (scale 3 is a 1/8 downscale; libvmaf crashes under %d rows and gives "
                         "NaN under %d columns)",
                         g.w, g.h, VIF_MIN_SIZE, VIF_MIN_SIZE, VIF_MIN_SIZE);
        return -ERANGE;
    }
    if (g.bpc < 0 || g.bpc >= 32 || !(VIF_BIT_DEPTHS & bit_depth(g.bpc))) {
        *msg = strprintf("vif: bit depth %d is not supported: accepted are 8, 10, 12 and 16", g.bpc);
        return -ENOTSUP;
    }
    if (!(o.egl >= 1.0 && o.egl <= 100.0)) {
        *msg = strprintf("vif: vif_enhn_gain_limit %g is out of range: accepted values are 1 to 100",
                         o.egl);
        return -ERANGE;
    }
    return 0;
}

Vif::Vif(const ExtractorInfo &info, const ExtractorConfig &c)
    : Extractor(info), o_(options_struct<VifOptions>(info, c.options)), g_(c.g), suffix_(c.suffix),
      p_(), k_(&choose_kernels(c.cpu_flags, vif_kernels_scalar(), vif_kernels_avx2()))
{
    int w = c.g.w, h = c.g.h;
    for (int s = 0; s < VIF_SCALES; s++) {
        p_.w[s] = w;
        p_.h[s] = h;
        w /= 2; // §4: floor halving; the decimation keeps the even positions
        h /= 2;
    }
    p_.bpc = c.g.bpc;
    p_.skip_scale0 = o_.skip_scale0 ? 1 : 0;
    p_.egl = o_.egl;
}

void Vif::names(std::vector<std::string> *out) const
{
    // libvmaf's write_scores() order (see the debug goldens).
    for (int s = 0; s < VIF_SCALES; s++)
        out->push_back("integer_vif_scale" + std::to_string(s) + suffix_);
    if (!o_.debug)
        return;
    out->push_back("integer_vif" + suffix_);
    out->push_back("integer_vif_num" + suffix_);
    out->push_back("integer_vif_den" + suffix_);
    for (int s = 0; s < VIF_SCALES; s++) {
        out->push_back("integer_vif_num_scale" + std::to_string(s) + suffix_);
        out->push_back("integer_vif_den_scale" + std::to_string(s) + suffix_);
    }
}

VifScaleScores Vif::scale_scores(const VifAccum &a) const
{
    VifScaleScores sc;
    for (int s = 0; s < VIF_SCALES; s++) {
        if (s == 0 && p_.skip_scale0) {
            sc.num[0] = 0.0f; // §4.3: what libvmaf writes for a skipped scale 0
            sc.den[0] = -1.0f;
            continue;
        }
        // §4.1: double arithmetic in exactly libvmaf's association, then float.
        const double num = static_cast<double>(a.num_log[s]) / 2048.0 +
                           (static_cast<double>(a.den_nonlog[s]) -
                            (static_cast<double>(a.num_nonlog[s]) / 16384.0) / 65025.0);
        const double den = static_cast<double>(a.den_log[s]) / 2048.0 + static_cast<double>(a.den_nonlog[s]);
        sc.num[s] = static_cast<float>(num);
        sc.den[s] = static_cast<float>(den);
    }
    return sc;
}

void Vif::finish(unsigned, const void *accum, double *out)
{
    const VifScaleScores sc = scale_scores(*static_cast<const VifAccum *>(accum));
    int i = 0;
    // §4.3: float division; a skipped scale 0 scores 0.
    for (int s = 0; s < VIF_SCALES; s++)
        out[i++] = s == 0 && p_.skip_scale0 ? 0.0 : static_cast<double>(sc.num[s] / sc.den[s]);
    if (!o_.debug)
        return;
    // Double sums of the floats, scales ascending, a skipped scale 0 left out.
    const int first = p_.skip_scale0 ? 1 : 0;
    double num = sc.num[first], den = sc.den[first];
    for (int s = first + 1; s < VIF_SCALES; s++) {
        num += static_cast<double>(sc.num[s]);
        den += static_cast<double>(sc.den[s]);
    }
    out[i++] = den == 0.0 ? 1.0 : num / den;
    out[i++] = num;
    out[i++] = den;
    for (int s = 0; s < VIF_SCALES; s++) {
        out[i++] = static_cast<double>(sc.num[s]);
        out[i++] = static_cast<double>(sc.den[s]);
    }
}

} // namespace vmafhip
