// SpEED host side: the table entry, the option checks and refusals, the
// per-plane plan (sizes, taps), names and finish (§1, §3, §4, §5.2, §7).
#include "extractors/speed/speed.h"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"
#include "extractors/vif_tools/vif_tools.h"
#include "kernels/speed/speed_solve.h"

namespace vmafhip {

namespace {

#define SPEED_OPT(f) offsetof(SpeedOptions, f)

// Names, aliases, defaults and ranges are libvmaf 3.2's (§1.2).
constexpr OptionSpec chroma_options[] = {
    {.name = "speed_kernelscale", .alias = "ks", .type = OptionType::Double,
     .offset = SPEED_OPT(kernelscale), .def = 1, .min = 0.1, .max = 4, .in_name = true,
     .help = "scale of the Gaussian filter widths (one of libvmaf's 21 values, §1.3)"},
    {.name = "speed_max_val", .alias = "mxv", .type = OptionType::Double,
     .offset = SPEED_OPT(max_val), .def = 1000, .min = 0, .max = 1000, .in_name = true,
     .help = "upper clip of the outputs"},
    {.name = "speed_nn_floor", .alias = "nnf", .type = OptionType::Double,
     .offset = SPEED_OPT(nn_floor), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "neural noise floor: blocks below it on both sides are skipped"},
    {.name = "speed_prescale", .alias = "ps", .type = OptionType::Double,
     .offset = SPEED_OPT(prescale), .def = 1, .min = 0.1, .max = 4, .in_name = true,
     .help = "resampling factor of the chroma planes"},
    {.name = "speed_prescale_method", .alias = "psm", .type = OptionType::Enum,
     .offset = SPEED_OPT(prescale_method), .def = 0, .min = 0, .max = 3, .in_name = true,
     .help = "resampling method of speed_prescale", .choices = SCALER_NAMES},
    {.name = "speed_sigma_nn", .alias = "snn", .type = OptionType::Double,
     .offset = SPEED_OPT(sigma_nn), .def = 0.29, .min = 0.1, .max = 2, .in_name = true,
     .help = "neural noise sigma"},
    {.name = "speed_weight_var_mode", .alias = "wvm", .type = OptionType::Int,
     .offset = SPEED_OPT(weight_var_mode), .def = 0, .min = 0, .max = 6, .in_name = true,
     .help = "weighting of the entropies by the variances (0 to 6)"},
};

constexpr OptionSpec with_help(OptionSpec o, const char *help)
{
    o.help = help;
    return o;
}

// speed_temporal: speed_chroma's options but the weighting mode, and its own
// (§1.2). Its options struct begins with speed_chroma's, so the offsets hold.
static_assert(offsetof(SpeedTemporalOptions, common) == 0);
constexpr OptionSpec temporal_options[] = {
    chroma_options[0],
    with_help(chroma_options[1], "renames the output only: libvmaf does not clip speed_temporal"),
    chroma_options[2],
    with_help(chroma_options[3], "resampling factor of the luma differences (at most 1)"),
    chroma_options[4],
    chroma_options[5],
    {.name = "speed_use_ref_diff", .alias = "urd", .type = OptionType::Bool,
     .offset = offsetof(SpeedTemporalOptions, use_ref_diff), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "take the distorted difference against the current reference frame"},
};
#undef SPEED_OPT

const ProvidedFeature temporal_provides[] = {
    {"Speed_temporal_feature_speed_temporal_score", "speed_temporal"},
};

const ProvidedFeature chroma_provides[] = {
    {"Speed_chroma_feature_speed_chroma_u_score", "speed_chroma_u"},
    {"Speed_chroma_feature_speed_chroma_v_score", "speed_chroma_v"},
    {"Speed_chroma_feature_speed_chroma_uv_score", "speed_chroma_uv"},
};

constexpr int MIN_SCALED = 80; // §4.1: a scaled plane side below this crashes libvmaf
constexpr double LOG2_2PIE = 0x1.06073a671183dp+2; // C of §5.8

bool no_resampling(double ps) { return std::fabs(ps - 1.0) < 1e-3; }

// The smallest plane side that scales to MIN_SCALED (§4.1).
int min_plane_side(double ps)
{
    int n = 1;
    while (scaled_size(n, ps) < MIN_SCALED)
        n++;
    return n;
}

std::unique_ptr<Extractor> create_chroma(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<SpeedChroma>(speed_chroma_extractor, c, ret, msg);
}

std::unique_ptr<Extractor> create_temporal(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<SpeedTemporal>(speed_temporal_extractor, c, ret, msg);
}

// What both extractors refuse (§1.3, §4.1, §13 item 1) for the plane of
// cw x ch samples they score; ss_x, ss_y: its subsampling, for the message.
int check_common(const char *name, const char *plane, const SpeedOptions &o, const Geometry &g,
                 int cw, int ch, int ss_x, int ss_y, std::string *msg)
{
    if (!kernelscale_valid(o.kernelscale)) {
        *msg = strprintf("%s option speed_kernelscale: %g is not valid (libvmaf crashes): "
                         "accepted are %s", name, o.kernelscale, KERNELSCALES_ACCEPTED);
        return -EINVAL;
    }
    if (!(g.bpc == 8 || g.bpc == 10 || g.bpc == 12 || g.bpc == 16)) {
        *msg = strprintf("%s: bit depth %d is not supported: accepted are 8, 10, 12 and 16",
                         name, g.bpc);
        return -ENOTSUP;
    }
    const int sw = scaled_size(cw, o.prescale), sh = scaled_size(ch, o.prescale);
    if (sw < MIN_SCALED || sh < MIN_SCALED) {
        const int n = min_plane_side(o.prescale);
        *msg = strprintf("%s: %dx%d is too small: with speed_prescale %g the %s (%dx%d) "
                         "scale to %dx%d, below %dx%d (libvmaf crashes); the smallest accepted "
                         "frame is %d wide and %d high",
                         name, g.w, g.h, o.prescale, plane, cw, ch, sw, sh, MIN_SCALED,
                         MIN_SCALED, n << ss_x, n << ss_y);
        return -ERANGE;
    }
    if (no_resampling(o.prescale) && (sw != cw || sh != ch)) {
        *msg = strprintf("%s option speed_prescale: %g is within 0.001 of 1, where libvmaf "
                         "resamples nothing, yet gives %dx%d %s a scaled size of %dx%d "
                         "(libvmaf then reads outside the plane): accepted are 1, values that "
                         "keep the size, and values at least 0.001 away from 1",
                         name, o.prescale, cw, ch, plane, sw, sh);
        return -EINVAL;
    }
    return 0;
}

} // namespace

extern const GpuImpl speed_chroma_gpu;   ///< extractors/speed/speed_gpu.cpp
extern const GpuImpl speed_temporal_gpu; ///< extractors/speed/speed_gpu.cpp

const ExtractorInfo speed_chroma_extractor = {
    .name = "speed_chroma",
    .help = "SpEED of the chroma planes: speed_chroma_u, speed_chroma_v, speed_chroma_uv",
    .options = chroma_options,
    .n_options = static_cast<int>(std::size(chroma_options)),
    .provides = chroma_provides,
    .n_provides = static_cast<int>(std::size(chroma_provides)),
    .min_w = 1, // check() says which sizes, by format and prescale
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create_chroma,
    .gpu = VMAFHIP_GPU_IMPL(speed_chroma_gpu),
};

const ExtractorInfo speed_temporal_extractor = {
    .name = "speed_temporal",
    .help = "SpEED of the luma differences between consecutive frames: speed_temporal",
    .options = temporal_options,
    .n_options = static_cast<int>(std::size(temporal_options)),
    .provides = temporal_provides,
    .n_provides = static_cast<int>(std::size(temporal_provides)),
    .min_w = 1, // check() says which sizes, by prescale
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create_temporal,
    .gpu = VMAFHIP_GPU_IMPL(speed_temporal_gpu),
};

SpeedPlan speed_plan(int ow, int oh, const SpeedOptions &o, int mode)
{
    SpeedPlan p;
    SpeedDims &d = p.d;
    d.ow = ow, d.oh = oh;
    d.sw = scaled_size(ow, o.prescale), d.sh = scaled_size(oh, o.prescale);
    d.opw = d.sw >> 4, d.oph = d.sh >> 4;
    d.tw = 5 * (d.opw / 5), d.th = 5 * (d.oph / 5);
    p.nbh = d.tw / 5, p.nbv = d.th / 5, p.nb = p.nbh * p.nbv;
    d.subw = d.tw - 4, d.subh = d.th - 4;
    // §5.1: equal sizes copy the plane unchanged. check() refuses a prescale
    // that resamples nothing but changes the size (§13 item 1).
    d.resample = !no_resampling(o.prescale) && (d.sw != ow || d.sh != oh);
    if (d.resample) {
        const auto m = static_cast<Scaler>(o.prescale_method);
        d.tx = d.ty = scaler_taps(m);
        p.ax = scale_axis(m, ow, d.sw);
        p.ay = scale_axis(m, oh, d.sh);
        d.normalise = m == Scaler::Lanczos4;
    }
    const float k = static_cast<float>(o.kernelscale);
    d.wa = gaussian_width(1, k), d.wl = gaussian_width(4, k);
    p.taps_a = gaussian_taps(d.wa, static_cast<float>(2.0 * static_cast<double>(d.wa) / 5.0));
    p.taps_l = gaussian_taps(d.wl, static_cast<float>(d.wl) / 5.0f);
    p.snn = static_cast<float>(o.sigma_nn);
    const float nnf = static_cast<float>(o.nn_floor);
    p.base = static_cast<float>(
        25.0 * (std::log2(static_cast<double>((1.0f + nnf) * p.snn)) + LOG2_2PIE));
    p.mode = mode;
    return p;
}

size_t speed_accum_bytes(const SpeedPlan &p, int sides)
{
    const size_t bytes = static_cast<size_t>(sides) * speed_side_floats(p.d) * sizeof(float);
    return (bytes + 7) / 8 * 8;
}

int SpeedChroma::check(const ExtractorConfig &c, std::string *msg)
{
    const SpeedOptions o = options_struct<SpeedOptions>(speed_chroma_extractor, c.options);
    if (c.g.chroma == VMAFHIP_CHROMA_400) {
        *msg = "speed_chroma: a picture without chroma (4:0:0) has nothing to score: accepted "
               "are 4:2:0, 4:2:2 and 4:4:4";
        return -EINVAL;
    }
    return check_common("speed_chroma", "chroma planes", o, c.g, c.g.scored_w(1),
                        c.g.scored_h(1), c.g.ss_x(), c.g.ss_y(), msg);
}

SpeedChroma::SpeedChroma(const ExtractorConfig &c)
    : Extractor(speed_chroma_extractor),
      o_(options_struct<SpeedOptions>(speed_chroma_extractor, c.options)), g_(c.g),
      suffix_(c.suffix),
      plan_(speed_plan(c.g.scored_w(1), c.g.scored_h(1), o_, o_.weight_var_mode)),
      k_(&speed_kernels(c.cpu_flags))
{
}

void SpeedChroma::names(std::vector<std::string> *out) const
{
    for (const ProvidedFeature &p : chroma_provides)
        out->push_back(p.output_name + suffix_);
}

void SpeedChroma::finish(unsigned, const void *accum, double *out)
{
    const float *side = static_cast<const float *>(accum);
    const size_t n = speed_side_floats(plan_.d);
    float s[2];
    bool bad[2];
    for (int c = 0; c < 2; c++)
        s[c] = speed_plane_score(plan_, side + 2 * c * n, side + (2 * c + 1) * n, &bad[c]);
    // §7: UV takes the other channel where exactly one is singular.
    float uv;
    if (bad[0] && !bad[1])
        uv = s[1];
    else if (bad[1] && !bad[0])
        uv = s[0];
    else
        uv = static_cast<float>((static_cast<double>(s[0]) + static_cast<double>(s[1])) / 2.0);
    // Each output clipped on its own, UV from the unclipped U and V.
    const double m = o_.max_val;
    const double u = s[0], v = s[1], both = uv;
    out[0] = u < m ? u : m;
    out[1] = v < m ? v : m;
    out[2] = both < m ? both : m;
}

int SpeedTemporal::check(const ExtractorConfig &c, std::string *msg)
{
    const SpeedTemporalOptions o =
        options_struct<SpeedTemporalOptions>(speed_temporal_extractor, c.options);
    if (o.common.prescale > 1.0 && !no_resampling(o.common.prescale)) {
        *msg = strprintf("speed_temporal option speed_prescale: %g is above 1, where libvmaf "
                         "writes past its frame buffers (docs/speed.md 8): accepted are 0.1 to 1",
                         o.common.prescale);
        return -EINVAL;
    }
    return check_common("speed_temporal", "luma plane", o.common, c.g, c.g.w, c.g.h, 0, 0, msg);
}

SpeedTemporal::SpeedTemporal(const ExtractorConfig &c)
    : Extractor(speed_temporal_extractor),
      o_(options_struct<SpeedTemporalOptions>(speed_temporal_extractor, c.options)), g_(c.g),
      suffix_(c.suffix), plan_(speed_plan(c.g.w, c.g.h, o_.common, 0)), // mode 0 always (§8)
      k_(&speed_kernels(c.cpu_flags))
{
}

void SpeedTemporal::names(std::vector<std::string> *out) const
{
    out->push_back(temporal_provides[0].output_name + suffix_);
}

void SpeedTemporal::finish(unsigned index, const void *accum, double *out)
{
    out[0] = 0.0; // frame 0 (§8 step 2): the block holds no difference
    if (index == 0)
        return;
    const float *side = static_cast<const float *>(accum);
    bool singular;
    out[0] = speed_plane_score(plan_, side, side + speed_side_floats(plan_.d), &singular); // not clipped (§8)
}

} // namespace vmafhip
