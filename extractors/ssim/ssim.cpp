// float_ssim host side: the table entry, option checks, downscale factor
// and sizes, names and the scalar finish (docs/ssim.md).
#include "extractors/ssim/ssim.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"
#include "extractors/ssim/ssim_cpu_rows.h"

namespace vmafhip {

namespace {

#define SSIM_OPT(f) offsetof(SsimOptions, f)

// Names, defaults and ranges are libvmaf's (float_ssim.c).
const OptionSpec options[] = {
    {.name = "enable_lcs", .alias = nullptr, .type = OptionType::Bool,
     .offset = SSIM_OPT(enable_lcs), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "also report float_ssim_l, float_ssim_c, float_ssim_s"},
    {.name = "enable_db", .alias = nullptr, .type = OptionType::Bool,
     .offset = SSIM_OPT(enable_db), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "report SSIM in dB, -10*log10(1-ssim)"},
    {.name = "clip_db", .alias = nullptr, .type = OptionType::Bool,
     .offset = SSIM_OPT(clip_db), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "with enable_db, cap the dB value"},
    {.name = "scale", .alias = nullptr, .type = OptionType::Int,
     .offset = SSIM_OPT(scale), .def = 0, .min = 0, .max = 10,
     .in_name = false,
     .help = "downscale factor; 0 = automatic (libvmaf)"},
};

#undef SSIM_OPT

const ProvidedFeature provides[] = {
    {"float_ssim", "float_ssim"},
    {"float_ssim_l", "float_ssim_l"},
    {"float_ssim_c", "float_ssim_c"},
    {"float_ssim_s", "float_ssim_s"},
};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    const SsimOptions o = options_struct<SsimOptions>(ssim_extractor, c.options);
    const Geometry &g = c.g;
    SsimParams p;
    p.scale = o.scale > 0 ? o.scale : Ssim::auto_scale(g.w, g.h);
    p.dec_w = ssim_decimated_size(g.w, p.scale);
    p.dec_h = ssim_decimated_size(g.h, p.scale);
    p.map_w = p.dec_w - (SSIM_TAPS - 1);
    p.map_h = p.dec_h - (SSIM_TAPS - 1);
    if (p.dec_w < SSIM_MIN_SIZE || p.dec_h < SSIM_MIN_SIZE) {
        // docs/ssim.md §7: libvmaf does not check. Its SSIM map is then empty
        // and it reports 0/0 = NaN (a side of exactly 10) or 0 (smaller):
        // refuse instead.
        *msg = strprintf("float_ssim: frame %dx%d downscaled by %d (%s) is %dx%d, smaller than "
                         "the %dx%d SSIM window: the frame must be at least %dx%d after "
                         "downscaling%s",
                         g.w, g.h, p.scale, o.scale > 0 ? "scale option" : "automatic scale",
                         p.dec_w, p.dec_h, SSIM_MIN_SIZE, SSIM_MIN_SIZE, SSIM_MIN_SIZE,
                         SSIM_MIN_SIZE, o.scale > 1 ? "; use a smaller scale" : "");
        *ret = -ERANGE;
        return nullptr;
    }
    return std::make_unique<Ssim>(c, p);
}

} // namespace

extern const GpuImpl ssim_gpu;

const ExtractorInfo ssim_extractor = {
    .name = "float_ssim",
    .help = "libvmaf's float SSIM of luma (Gaussian window, automatic downscale): float_ssim",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = SSIM_MIN_SIZE,
    .min_h = SSIM_MIN_SIZE,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(ssim_gpu),
};

double ssim_mean(double sum, int n)
{
    // A signed int count, as libvmaf's (double)(w*h).
    return static_cast<double>(static_cast<float>(sum / static_cast<double>(n)));
}

double ssim_max_db(const Geometry &g, bool clip_db)
{
    if (!clip_db)
        return INFINITY;
    // Half a code value of error per frame; unsigned products as in
    // float_ssim.c init() (65535^2 and 32768^2 still fit).
    const unsigned peak = (1u << g.bpc) - 1;
    const double mse = 0.5 / (static_cast<unsigned>(g.w) * static_cast<unsigned>(g.h));
    return std::ceil(10. * std::log10(peak * peak / mse));
}

double ssim_to_db(double score, double max_db)
{
    // libvmaf's MIN macro, (a) < (b) ? (a) : (b), kept literally: a NaN dB
    // value (a mean above 1) takes the cap, as in convert_to_db().
    const double db = -10. * std::log10(1 - score);
    return db < max_db ? db : max_db;
}

int Ssim::auto_scale(int w, int h)
{
    // docs/ssim.md §4.1: a = min(W, H) / 256 in float, then libiqa's _round
    // (truncate, +1 when the fraction is >= 0.5), at least 1.
    const float a = static_cast<float>(std::min(w, h)) / 256.0f;
    int r = static_cast<int>(a);
    if (a - static_cast<float>(r) >= 0.5f)
        r++;
    return std::max(1, r);
}

Ssim::Ssim(const ExtractorConfig &c, const SsimParams &p)
    : Extractor(ssim_extractor), o_(options_struct<SsimOptions>(ssim_extractor, c.options)),
      g_(c.g), p_(p), max_db_(ssim_max_db(c.g, o_.clip_db)),
      k_(&choose_kernels(c.cpu_flags, ssim_kernels_scalar(), ssim_kernels_avx2()))
{
}

void Ssim::names(std::vector<std::string> *out) const
{
    out->push_back("float_ssim");
    if (o_.enable_lcs) { // float_ssim.c appends them in this order
        out->push_back("float_ssim_l");
        out->push_back("float_ssim_c");
        out->push_back("float_ssim_s");
    }
}

void Ssim::finish(unsigned, const void *accum, double *out)
{
    const SsimAccum &a = *static_cast<const SsimAccum *>(accum);
    const int n = p_.map_w * p_.map_h;
    const auto mean = [n](double sum) { return ssim_mean(sum, n); };
    double score = mean(a.ssim);
    if (o_.enable_db) // the rounded mean, then dB; l/c/s stay linear
        score = ssim_to_db(score, max_db_);
    out[0] = score;
    if (o_.enable_lcs) {
        out[1] = mean(a.l);
        out[2] = mean(a.c);
        out[3] = mean(a.s);
    }
}

} // namespace vmafhip
