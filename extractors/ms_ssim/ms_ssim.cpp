// float_ms_ssim host side: the table entry, the size check, names and the
// combination of the scales' means (docs/ms_ssim.md).
#include "extractors/ms_ssim/ms_ssim.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"
#include "extractors/ssim/ssim.h"
#include "extractors/ssim/ssim_cpu_rows.h"

namespace vmafhip {

extern const GpuImpl ms_ssim_gpu;

namespace {

#define MS_SSIM_OPT(f) offsetof(MsSsimOptions, f)

// Names and defaults are libvmaf's (float_ms_ssim.c); none renames the outputs.
const OptionSpec options[] = {
    {.name = "enable_lcs", .alias = nullptr, .type = OptionType::Bool,
     .offset = MS_SSIM_OPT(enable_lcs), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "also report the luminance, contrast and structure means of each scale"},
    {.name = "enable_db", .alias = nullptr, .type = OptionType::Bool,
     .offset = MS_SSIM_OPT(enable_db), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "report MS-SSIM in dB, -10*log10(1-ms_ssim)"},
    {.name = "clip_db", .alias = nullptr, .type = OptionType::Bool,
     .offset = MS_SSIM_OPT(clip_db), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "with enable_db, cap the dB value"},
};

#undef MS_SSIM_OPT

// libvmaf's provided_features: the score alone (the per-scale means are
// debug outputs of enable_lcs).
const ProvidedFeature provides[] = {
    {"float_ms_ssim", "float_ms_ssim"},
};

// §4: libvmaf's exponents per scale (ms_ssim.c g_alphas, g_betas, g_gammas:
// Wang's weights; luminance counts at the coarsest scale only).
constexpr float ALPHA[MS_SSIM_SCALES] = {0.0f, 0.0f, 0.0f, 0.0f, 0.1333f};
constexpr float BETA[MS_SSIM_SCALES] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};
constexpr float GAMMA[MS_SSIM_SCALES] = {0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f};

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<MsSsim>(ms_ssim_extractor, c, ret, msg);
}

} // namespace

const ExtractorInfo ms_ssim_extractor = {
    .name = "float_ms_ssim",
    .help = "libvmaf's float multi-scale SSIM of luma (five scales): float_ms_ssim",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = MS_SSIM_MIN_SIZE,
    .min_h = MS_SSIM_MIN_SIZE,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(ms_ssim_gpu),
};

MsSsimSizes MsSsim::sizes(int w, int h)
{
    MsSsimSizes s;
    s.w[0] = w;
    s.h[0] = h;
    for (int i = 1; i < MS_SSIM_SCALES; i++) {
        s.w[i] = ms_ssim_half(s.w[i - 1]);
        s.h[i] = ms_ssim_half(s.h[i - 1]);
    }
    return s;
}

int MsSsim::check(const ExtractorConfig &c, std::string *msg)
{
    // §6: libvmaf fails every frame below this ("error: scale below 1x1!").
    if (c.g.w < MS_SSIM_MIN_SIZE || c.g.h < MS_SSIM_MIN_SIZE) {
        *msg = strprintf("float_ms_ssim: frame %dx%d is too small for its %d scales: width and "
                         "height must be at least %d (%d >> %d is the %dx%d SSIM window)",
                         c.g.w, c.g.h, MS_SSIM_SCALES, MS_SSIM_MIN_SIZE, MS_SSIM_MIN_SIZE,
                         MS_SSIM_SCALES - 1, SSIM_TAPS, SSIM_TAPS);
        return -ERANGE;
    }
    return 0;
}

MsSsim::MsSsim(const ExtractorConfig &c)
    : Extractor(ms_ssim_extractor), o_(options_struct<MsSsimOptions>(ms_ssim_extractor, c.options)),
      g_(c.g), sz_(sizes(c.g.w, c.g.h)), max_db_(ssim_max_db(c.g, o_.clip_db)),
      k_(&choose_kernels(c.cpu_flags, ssim_kernels_scalar(), ssim_kernels_avx2()))
{
}

void MsSsim::names(std::vector<std::string> *out) const
{
    out->push_back("float_ms_ssim");
    if (!o_.enable_lcs)
        return;
    // float_ms_ssim.c's order: the five l means, then c, then s.
    for (const char *term : {"l", "c", "s"})
        for (int i = 0; i < MS_SSIM_SCALES; i++)
            out->push_back(strprintf("float_ms_ssim_%s_scale%d", term, i));
}

void MsSsim::finish(unsigned, const void *accum, double *out)
{
    const MsSsimAccum &a = *static_cast<const MsSsimAccum *>(accum);
    // §4: each scale's means rounded to float (_iqa_ssim's float results),
    // the powers in double, multiplied left to right into a double from 1.
    double l[MS_SSIM_SCALES], c[MS_SSIM_SCALES], s[MS_SSIM_SCALES];
    double score = 1.0;
    for (int i = 0; i < MS_SSIM_SCALES; i++) {
        const int n = (sz_.w[i] - (SSIM_TAPS - 1)) * (sz_.h[i] - (SSIM_TAPS - 1));
        l[i] = ssim_mean(a.scale[i].l, n);
        c[i] = ssim_mean(a.scale[i].c, n);
        s[i] = ssim_mean(a.scale[i].s, n);
        const double pl = std::pow(l[i], static_cast<double>(ALPHA[i]));
        const double pc = std::pow(c[i], static_cast<double>(BETA[i]));
        const double ps = std::pow(s[i], static_cast<double>(GAMMA[i]));
        score *= pl * pc * ps;
    }
    if (o_.enable_db)
        score = ssim_to_db(score, max_db_);
    out[0] = score;
    if (o_.enable_lcs)
        for (int i = 0; i < MS_SSIM_SCALES; i++) {
            out[1 + i] = l[i];
            out[1 + MS_SSIM_SCALES + i] = c[i];
            out[1 + 2 * MS_SSIM_SCALES + i] = s[i];
        }
}

} // namespace vmafhip
