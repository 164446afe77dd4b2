#include "core/options.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "base/log.h"

namespace vmafhip {

namespace {

enum class Type { Bool, Int, Double };

struct Option {
    const char *feature;
    const char *name;
    const char *alias;  ///< libvmaf's short name, or nullptr
    Type type;
    size_t offset;      ///< of the field in VmafHipSettings
    double def, min, max;
    bool in_name;       ///< libvmaf VMAF_OPT_FLAG_FEATURE_PARAM: non-default values rename features
    const char *help;
};

#define PSNR(f) offsetof(VmafHipSettings, psnr) + offsetof(VmafHipPsnrSettings, f)
#define SSIM(f) offsetof(VmafHipSettings, ssim) + offsetof(VmafHipSsimSettings, f)
#define ADM(f) offsetof(VmafHipSettings, adm) + offsetof(VmafHipAdmSettings, f)

// Names, defaults and ranges are libvmaf's (integer_psnr.c, float_ssim.c,
// integer_adm.c at f85a8536); spec psnr.md §2, ssim.md §1, adm.md §11.
const Option options[] = {
    {"psnr", "enable_chroma", nullptr, Type::Bool, PSNR(enable_chroma), 1, 0, 1, false,
     "compute psnr_cb and psnr_cr too"},
    {"psnr", "enable_mse", nullptr, Type::Bool, PSNR(enable_mse), 0, 0, 1, false,
     "also report mse_y, mse_cb, mse_cr"},
    {"psnr", "enable_apsnr", nullptr, Type::Bool, PSNR(enable_apsnr), 0, 0, 1, false,
     "report apsnr_y, apsnr_cb, apsnr_cr over the whole stream"},
    {"psnr", "reduced_hbd_peak", nullptr, Type::Bool, PSNR(reduced_hbd_peak), 0, 0, 1, false,
     "use the peak 255*2^(bpc-8) instead of 2^bpc-1 above 8 bits"},
    {"psnr", "min_sse", nullptr, Type::Double, PSNR(min_sse), 0, 0, DBL_MAX, false,
     "SSE floor that sets the PSNR cap; 0 = cap at 6*bpc+12 dB"},
    {"float_ssim", "enable_lcs", nullptr, Type::Bool, SSIM(enable_lcs), 0, 0, 1, false,
     "also report float_ssim_l, float_ssim_c, float_ssim_s"},
    {"float_ssim", "enable_db", nullptr, Type::Bool, SSIM(enable_db), 0, 0, 1, false,
     "report SSIM in dB, -10*log10(1-ssim)"},
    {"float_ssim", "clip_db", nullptr, Type::Bool, SSIM(clip_db), 0, 0, 1, false,
     "with enable_db, cap the dB value"},
    {"float_ssim", "scale", nullptr, Type::Int, SSIM(scale), 0, 0, 10, false,
     "downscale factor; 0 = automatic (libvmaf)"},
    {"adm", "debug", nullptr, Type::Bool, ADM(debug), 0, 0, 1, false,
     "also report integer_adm, num/den totals and per-scale num/den"},
    {"adm", "adm_enhn_gain_limit", "egl", Type::Double, ADM(enhn_gain_limit), 100, 1, 100, true,
     "enhancement gain limit"},
    {"adm", "adm_norm_view_dist", "nvd", Type::Double, ADM(norm_view_dist), 3, 0.75, 24, true,
     "normalised viewing distance (multiples of display height)"},
    {"adm", "adm_ref_display_height", "rdh", Type::Int, ADM(ref_display_height), 1080, 1, 4320,
     true, "reference display height in pixels"},
    {"adm", "adm_csf_mode", "csf", Type::Int, ADM(csf_mode), 0, 0, 3, true,
     "CSF: 0 Watson, 2 Barten/Watson blend, 3 blend MAE (1 is not supported)"},
    {"adm", "adm_noise_weight", "nw", Type::Double, ADM(noise_weight), 0.03125, 0, 1500, true,
     "noise floor weight"},
    {"adm", "adm_csf_scale", "scf", Type::Double, ADM(csf_scale), 1, 0, 50, true,
     "CSF scale (mode 1 only)"},
    {"adm", "adm_csf_diag_scale", "scfd", Type::Double, ADM(csf_diag_scale), 1, 0, 50, true,
     "diagonal CSF scale (mode 1 only)"},
    {"adm", "adm_dlm_weight", "dlmw", Type::Double, ADM(dlm_weight), 0.5, 0, 1, true,
     "weight of integer_adm2 in integer_adm3"},
    {"adm", "adm_min_val", "min", Type::Double, ADM(min_val), 0, 0, 1, true,
     "floor of integer_adm3"},
    {"adm", "adm_skip_scale0", "ssz", Type::Bool, ADM(skip_scale0), 0, 0, 1, true,
     "skip scale 0"},
    {"adm", "adm_skip_aim", nullptr, Type::Bool, ADM(skip_aim), 0, 0, 1, false,
     "do not compute integer_aim and integer_adm3"},
};

#undef PSNR
#undef SSIM
#undef ADM

const struct {
    const char *name;
    unsigned bit;
} features[] = {
    {"psnr", VMAFHIP_FEATURE_PSNR},
    {"float_ssim", VMAFHIP_FEATURE_FLOAT_SSIM},
    {"adm", VMAFHIP_FEATURE_ADM},
};

double get(const VmafHipSettings &s, const Option &o)
{
    const char *p = reinterpret_cast<const char *>(&s) + o.offset;
    switch (o.type) {
    case Type::Double: return *reinterpret_cast<const double *>(p);
    default: return *reinterpret_cast<const int *>(p);
    }
}

void put(VmafHipSettings *s, const Option &o, double v)
{
    char *p = reinterpret_cast<char *>(s) + o.offset;
    if (o.type == Type::Double)
        *reinterpret_cast<double *>(p) = v;
    else
        *reinterpret_cast<int *>(p) = static_cast<int>(v);
}

std::string format_value(const Option &o, double v)
{
    switch (o.type) {
    case Type::Bool: return v ? "true" : "false";
    case Type::Int: return strprintf("%d", static_cast<int>(v));
    default: return o.max == DBL_MAX && v == DBL_MAX ? "DBL_MAX" : strprintf("%g", v);
    }
}

std::string range_text(const Option &o)
{
    if (o.type == Type::Bool)
        return "true or false";
    return format_value(o, o.min) + " to " + format_value(o, o.max);
}

unsigned feature_bit(const char *name)
{
    for (const auto &f : features)
        if (!std::strcmp(f.name, name))
            return f.bit;
    return 0;
}

std::string feature_list()
{
    std::string out;
    for (const auto &f : features)
        out += std::string(out.empty() ? "" : ", ") + f.name;
    return out;
}

std::string option_list(const char *feature)
{
    std::string out;
    for (const auto &o : options)
        if (!std::strcmp(o.feature, feature))
            out += std::string(out.empty() ? "" : ", ") + o.name;
    return out;
}

Logger settings_logger(const VmafHipSettings *s)
{
    return Logger(s->log_callback, s->log_cookie, settings_log_level(*s));
}

// Parses text for o into *v. @return 0 or -EINVAL.
int parse_value(const Option &o, const char *text, double *v)
{
    if (o.type == Type::Bool) {
        if (!std::strcmp(text, "true") || !std::strcmp(text, "1"))
            *v = 1;
        else if (!std::strcmp(text, "false") || !std::strcmp(text, "0"))
            *v = 0;
        else
            return -EINVAL;
        return 0;
    }
    char *end = nullptr;
    errno = 0;
    if (o.type == Type::Int) {
        const long l = std::strtol(text, &end, 10);
        if (end == text || *end || errno)
            return -EINVAL;
        *v = l < -2147483647L ? -2147483648.0 : l > 2147483647L ? 2147483648.0 : static_cast<double>(l);
        return 0;
    }
    *v = std::strtod(text, &end);
    if (end == text || *end || errno || std::isnan(*v))
        return -EINVAL;
    return 0;
}

} // namespace

int check_options(const VmafHipSettings &s, std::string *msg)
{
    for (const auto &o : options) {
        if (!(s.features & feature_bit(o.feature)))
            continue;
        const double v = get(s, o);
        if (!(v >= o.min && v <= o.max)) {
            *msg = strprintf("%s option %s is %s: accepted values are %s", o.feature, o.name,
                             format_value(o, v).c_str(), range_text(o).c_str());
            return -ERANGE;
        }
    }
    return 0;
}

std::string feature_name_suffix(const VmafHipSettings &s, const char *feature)
{
    std::vector<const Option *> changed;
    for (const auto &o : options)
        if (o.in_name && !std::strcmp(o.feature, feature) && get(s, o) != o.def)
            changed.push_back(&o);
    // libvmaf orders the suffixes by option name (not alias).
    std::sort(changed.begin(), changed.end(),
              [](const Option *a, const Option *b) { return std::strcmp(a->name, b->name) < 0; });
    std::string out;
    for (const Option *o : changed) {
        const double v = get(s, *o);
        const char *key = o->alias ? o->alias : o->name;
        if (o->type == Type::Bool)
            out += v ? strprintf("_%s", key) : std::string();
        else if (o->type == Type::Int)
            out += strprintf("_%s_%d", key, static_cast<int>(v));
        else
            out += strprintf("_%s_%g", key, v);
    }
    return out;
}

} // namespace vmafhip

using namespace vmafhip;

extern "C" void vmafhip_default_settings(VmafHipSettings *s)
{
    if (!s)
        return;
    std::memset(s, 0, sizeof(*s));
    s->struct_size = sizeof(*s);
    s->bitdepth = 8;
    s->chroma = VMAFHIP_CHROMA_420;
    s->features = VMAFHIP_FEATURE_ALL;
    s->backend = VMAFHIP_BACKEND_AUTO;
    s->log_level = VMAFHIP_LOG_INFO;
    for (const auto &o : options)
        put(s, o, o.def);
}

extern "C" int vmafhip_settings_set(VmafHipSettings *s, const char *feature, const char *option,
                                    const char *value)
{
    if (!s || !feature || !option || !value)
        return -EINVAL;
    const Logger log = settings_logger(s);
    if (!feature_bit(feature)) {
        log.log(VMAFHIP_LOG_ERROR, "unknown feature '%s': accepted features are %s\n", feature,
                feature_list().c_str());
        return -EINVAL;
    }
    for (const auto &o : options) {
        if (std::strcmp(o.feature, feature) ||
            (std::strcmp(o.name, option) && !(o.alias && !std::strcmp(o.alias, option))))
            continue;
        double v;
        if (parse_value(o, value, &v) < 0) {
            log.log(VMAFHIP_LOG_ERROR, "%s option %s: '%s' is not a valid value: accepted values are %s\n",
                    feature, o.name, value, range_text(o).c_str());
            return -EINVAL;
        }
        if (!(v >= o.min && v <= o.max)) {
            log.log(VMAFHIP_LOG_ERROR, "%s option %s: %s is out of range: accepted values are %s\n",
                    feature, o.name, value, range_text(o).c_str());
            return -ERANGE;
        }
        put(s, o, v);
        return 0;
    }
    log.log(VMAFHIP_LOG_ERROR, "unknown option '%s' for feature %s: accepted options are %s\n",
            option, feature, option_list(feature).c_str());
    return -EINVAL;
}

extern "C" int vmafhip_settings_use_feature(VmafHipSettings *s, const char *spec)
{
    if (!s || !spec)
        return -EINVAL;
    const std::string text(spec);
    const size_t eq = text.find('=');
    const std::string name = text.substr(0, eq);
    const unsigned bit = feature_bit(name.c_str());
    if (!bit) {
        settings_logger(s).log(VMAFHIP_LOG_ERROR,
                               "unknown feature '%s': accepted features are %s\n", name.c_str(),
                               feature_list().c_str());
        return -EINVAL;
    }
    s->features |= bit;
    if (eq == std::string::npos)
        return 0;
    size_t pos = eq + 1;
    while (pos <= text.size()) {
        size_t end = text.find(':', pos);
        if (end == std::string::npos)
            end = text.size();
        const std::string kv = text.substr(pos, end - pos);
        const size_t e = kv.find('=');
        if (e == std::string::npos || e == 0) {
            settings_logger(s).log(VMAFHIP_LOG_ERROR,
                                   "feature spec '%s': '%s' is not of the form option=value\n",
                                   spec, kv.c_str());
            return -EINVAL;
        }
        const int ret = vmafhip_settings_set(s, name.c_str(), kv.substr(0, e).c_str(),
                                             kv.substr(e + 1).c_str());
        if (ret < 0)
            return ret;
        pos = end + 1;
    }
    return 0;
}

extern "C" int vmafhip_option_count(void)
{
    return static_cast<int>(sizeof(options) / sizeof(options[0]));
}

extern "C" int vmafhip_option_info(int index, const char **feature, const char **name,
                                   const char **help, const char **default_value,
                                   const char **range)
{
    if (index < 0 || index >= vmafhip_option_count())
        return -EINVAL;
    // Formatted once; the table is immutable.
    static const std::vector<std::pair<std::string, std::string>> text = [] {
        std::vector<std::pair<std::string, std::string>> t;
        for (const auto &o : options)
            t.emplace_back(format_value(o, o.def), range_text(o));
        return t;
    }();
    const Option &o = options[index];
    if (feature)
        *feature = o.feature;
    if (name)
        *name = o.name;
    if (help)
        *help = o.help;
    if (default_value)
        *default_value = text[index].first.c_str();
    if (range)
        *range = text[index].second.c_str();
    return 0;
}
