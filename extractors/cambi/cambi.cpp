// cambi host side: the table entry, the option resolution and refusals,
// the tables computed once (§1.2, §1.4, §2), names and finish (§1.1, §10).
#include "extractors/cambi/cambi.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <iterator>

#include "base/log.h"
#include "extractors/options.h"

namespace vmafhip {

namespace {

#define CAMBI_OPT(f) offsetof(CambiOptions, f)

// libvmaf's strings; the option holds the index (CambiEotf).
constexpr const char *eotfs[] = {"bt1886", "pq", nullptr};

// Names, aliases, defaults and ranges are libvmaf 3.2's (§1.2). The size
// options default to 0 (the picture's size), which libvmaf's ranges leave
// out; check() accepts 0 or libvmaf's range.
const OptionSpec options[] = {
    {.name = "cambi_max_val", .alias = "cmxv", .type = OptionType::Double,
     .offset = CAMBI_OPT(max_val), .def = 1000, .min = 0, .max = 1000, .in_name = true,
     .help = "upper clip of the outputs"},
    {.name = "enc_width", .alias = "encw", .type = OptionType::Int,
     .offset = CAMBI_OPT(enc_width), .def = 0, .min = 0, .max = 7680, .in_name = true,
     .help = "width the picture is scored at (0: its own; 180 to 7680)"},
    {.name = "enc_height", .alias = "ench", .type = OptionType::Int,
     .offset = CAMBI_OPT(enc_height), .def = 0, .min = 0, .max = 7680, .in_name = true,
     .help = "height the picture is scored at (0: its own; 150 to 7680)"},
    {.name = "enc_bitdepth", .alias = "encbd", .type = OptionType::Int,
     .offset = CAMBI_OPT(enc_bitdepth), .def = 0, .min = 0, .max = 16, .in_name = true,
     .help = "encode bit depth (0: the picture's; 6 to 16); below 10 smooths dithering"},
    {.name = "src_width", .alias = "srcw", .type = OptionType::Int,
     .offset = CAMBI_OPT(src_width), .def = 0, .min = 0, .max = 7680, .in_name = true,
     .help = "full_ref: width the reference is scored at (0: its own; 320 to 7680)"},
    {.name = "src_height", .alias = "srch", .type = OptionType::Int,
     .offset = CAMBI_OPT(src_height), .def = 0, .min = 0, .max = 4320, .in_name = true,
     .help = "full_ref: height the reference is scored at (0: its own; 200 to 4320)"},
    {.name = "window_size", .alias = "ws", .type = OptionType::Int,
     .offset = CAMBI_OPT(window_size), .def = 65, .min = 15, .max = 127, .in_name = true,
     .help = "window size at 4K, scaled to the frame size"},
    {.name = "topk", .alias = nullptr, .type = OptionType::Double,
     .offset = CAMBI_OPT(topk), .def = 0.6, .min = 0.0001, .max = 1, .in_name = true,
     .help = "fraction of the largest c-values pooled per scale (wins when not 0.6)"},
    {.name = "cambi_topk", .alias = "ctpk", .type = OptionType::Double,
     .offset = CAMBI_OPT(cambi_topk), .def = 0.6, .min = 0.0001, .max = 1, .in_name = true,
     .help = "fraction of the largest c-values pooled per scale"},
    {.name = "tvi_threshold", .alias = "tvit", .type = OptionType::Double,
     .offset = CAMBI_OPT(tvi_threshold), .def = 0.019, .min = 0.0001, .max = 1, .in_name = true,
     .help = "visibility threshold of a luminance step (relative)"},
    {.name = "cambi_vis_lum_threshold", .alias = "vlt", .type = OptionType::Double,
     .offset = CAMBI_OPT(vis_lum_threshold), .def = 0, .min = 0, .max = 300, .in_name = true,
     .help = "luminance (cd/m2) below which steps are not counted"},
    {.name = "max_log_contrast", .alias = "mlc", .type = OptionType::Int,
     .offset = CAMBI_OPT(max_log_contrast), .def = 2, .min = 0, .max = 5, .in_name = true,
     .help = "log2 of the largest step counted"},
    {.name = "full_ref", .alias = nullptr, .type = OptionType::Bool,
     .offset = CAMBI_OPT(full_ref), .def = 0, .min = 0, .max = 1, .in_name = false,
     .help = "also score the reference: cambi_source, cambi_full_reference"},
    {.name = "cambi_high_res_speedup", .alias = "hrs", .type = OptionType::Int,
     .offset = CAMBI_OPT(high_res_speedup), .def = 0, .min = 0, .max = 2160, .in_name = true,
     .help = "1080, 1440 or 2160: halve the frame first when the encode has at least as many "
             "pixels as 1920x1080, 2560x1440 or 3840x2160 (0: off)"},
    {.name = "eotf", .alias = nullptr, .type = OptionType::Enum, .offset = CAMBI_OPT(eotf),
     .def = CAMBI_EOTF_BT1886, .min = 0, .max = 1, .in_name = true,
     .help = "transfer function of the luma: bt1886 (SDR) or pq (HDR, SMPTE ST 2084)",
     .choices = eotfs},
    {.name = "cambi_eotf", .alias = "ceot", .type = OptionType::Enum,
     .offset = CAMBI_OPT(cambi_eotf), .def = CAMBI_EOTF_BT1886, .min = 0, .max = 1,
     .in_name = true, .help = "the same as eotf; wins when it is not bt1886", .choices = eotfs},
};

#undef CAMBI_OPT

// libvmaf's debugging output, a folder of per-scale images.
const UnsupportedOption unsupported[] = {
    {"heatmaps_path", nullptr, "heatmaps are not written"},
};

const ProvidedFeature provides[] = {
    {"Cambi_feature_cambi_score", "cambi"},
};

// §2.1.
constexpr int contrast_weight[CAMBI_MAX_ND + 1] = {0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7,
                                                   8, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

// §2.7: 1/i printed with 9 significant digits and read back as a float,
// which is not always the correctly rounded 1/i.
struct Reciprocals {
    float r[CAMBI_RECIPROCALS];
    Reciprocals()
    {
        r[0] = 0.0f;
        for (int i = 1; i < CAMBI_RECIPROCALS; i++) {
            char text[32];
            std::snprintf(text, sizeof text, "%.9g", 1.0 / i);
            r[i] = std::strtof(text, nullptr);
        }
    }
};

constexpr int MIN_SIDE = 216;   // §1.4: one side at least this
constexpr int MAX_WINDOW = 65;  // §1.4: the reciprocal table's limit

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<Cambi>(cambi_extractor, c, ret, msg);
}

// §1.2 steps 2 and 3: the encode size.
void enc_size(const CambiOptions &o, const Geometry &g, int *w, int *h)
{
    *w = o.enc_width, *h = o.enc_height;
    if (!*w || !*h || *w > g.w || *h > g.h)
        *w = g.w, *h = g.h;
}

void src_size(const CambiOptions &o, const Geometry &g, int *w, int *h)
{
    *w = o.src_width, *h = o.src_height;
    if (!*w || !*h)
        *w = g.w, *h = g.h;
}

// §1.2 step 5.
bool speedup_on(int hrs, int enc_w, int enc_h)
{
    const long p = static_cast<long>(enc_w) * enc_h;
    return (hrs == 1080 && p >= 1920L * 1080) || (hrs == 1440 && p >= 2560L * 1440) ||
           (hrs == 2160 && p >= 3840L * 2160);
}

// §2.5.
int window(int w0, int w, int h, bool speedup)
{
    unsigned ws = ((static_cast<unsigned>(w0) * static_cast<unsigned>(w + h)) / 375) >> 4;
    if (speedup)
        ws = (ws + 1) >> 1;
    return static_cast<int>(ws | 1);
}

// §2.6.
int mask_index(int w, int h)
{
    const uint32_t q = static_cast<uint32_t>(w >> 6) * static_cast<uint32_t>(h >> 6);
    int cl2 = 0;
    for (uint32_t t = q ? q - 1 : 0; t; t >>= 1)
        cl2++;
    return (49 + 3 * (cl2 - 11) - 1) >> 1;
}

// Checks one pass's size: "what" is "encode" or "source". §1.4, §12.2.
// Scored: the pass runs (the source pass only with full_ref); libvmaf checks
// the size and window of both passes in any case.
int check_pass(const char *what, int w, int h, int ws, bool speedup, bool scored, std::string *msg)
{
    if (w < MIN_SIDE && h < MIN_SIDE) {
        *msg = strprintf("cambi: %s size %dx%d is too small: width or height must be at least %d "
                         "(libvmaf refuses smaller frames)", what, w, h, MIN_SIDE);
        return -ERANGE;
    }
    if (ws > MAX_WINDOW) {
        *msg = strprintf("cambi: %s size %dx%d gives a window of %d, above the largest, %d: "
                         "lower window_size or use cambi_high_res_speedup",
                         what, w, h, ws, MAX_WINDOW);
        return -ERANGE;
    }
    if (!scored)
        return 0;
    // libvmaf's sliding histograms read outside the coarsest scale when it
    // is narrower or shorter than half the window: not CAMBI's definition
    // (§12.2), refused.
    const int k = CAMBI_SCALES - 1 + (speedup ? 1 : 0);
    const int cw = (w + (1 << k) - 1) >> k, ch = (h + (1 << k) - 1) >> k;
    const int pad = ws >> 1;
    if (cw < pad || ch < pad) {
        *msg = strprintf("cambi: %s size %dx%d is too narrow: its coarsest scale, %dx%d, must be "
                         "at least %dx%d (half the window) in both directions, i.e. width and "
                         "height at least %d",
                         what, w, h, cw, ch, pad, pad, ((pad - 1) << k) + 1);
        return -ERANGE;
    }
    return 0;
}

// The luminance (cd/m2) of a 10-bit sample, limited range, through the
// EOTF (§2.2): BT.1886 with libvmaf's folded constants, or PQ.
double luminance(int s, int eotf)
{
    const int c = s < 64 ? 64 : s > 940 ? 940 : s;
    const double v = static_cast<double>(c - 64) / 876.0;
    if (eotf == CAMBI_EOTF_PQ) {
        constexpr double m1inv = 6.277394636015326, m2inv = 0.012683313515655966;
        constexpr double c1 = 0.8359375, c2 = 18.8515625, c3 = 18.6875;
        const double p = std::pow(v, m2inv);
        const double num = p - c1;
        return 10000.0 * std::pow((num > 0 ? num : 0) / (c2 - c3 * p), m1inv);
    }
    constexpr double a = 290.2790418528054, b = 0.013819536150532266;
    const double x = v + b;
    return a * std::pow(x > 0 ? x : 0, 2.4);
}

bool visible(int s, int d, double t, int eotf)
{
    return luminance(s + d, eotf) - luminance(s, eotf) > t * luminance(s, eotf);
}

enum class Tvi { TooSmall, Correct, TooBig };

Tvi tvi_state(int s, int d, double t, int eotf)
{
    if (!visible(s, d, t, eotf))
        return Tvi::TooBig;
    return visible(s + 1, d, t, eotf) ? Tvi::TooSmall : Tvi::Correct;
}

// tvi_raw[d] of §2.3.
int tvi_raw(int d, double t, int eotf)
{
    int foot = 64, head = 940 - d - 1;
    Tvi st = tvi_state(foot, d, t, eotf);
    if (st == Tvi::TooBig)
        return 0;
    if (st == Tvi::Correct)
        return foot;
    st = tvi_state(head, d, t, eotf);
    if (st == Tvi::TooSmall)
        return 1023;
    if (st == Tvi::Correct)
        return head;
    for (;;) {
        const int mid = foot + (head - foot) / 2;
        st = tvi_state(mid, d, t, eotf);
        if (st == Tvi::TooBig)
            head = mid;
        else if (st == Tvi::TooSmall)
            foot = mid;
        else
            return mid;
    }
}

} // namespace

const float *cambi_reciprocals()
{
    static const Reciprocals table;
    return table.r;
}

extern const GpuImpl cambi_gpu;

const ExtractorInfo cambi_extractor = {
    .name = "cambi",
    .help = "CAMBI banding index of the distorted luma: cambi",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 1, // one side of 216 is enough (check())
    .min_h = 1,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 0,
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(cambi_gpu),
    .unsupported = unsupported,
    .n_unsupported = static_cast<int>(std::size(unsupported)),
};

int Cambi::check(const ExtractorConfig &c, std::string *msg)
{
    const CambiOptions o = options_struct<CambiOptions>(cambi_extractor, c.options);
    struct Limit {
        const char *name;
        int v, lo, hi;
    };
    const Limit limits[] = {{"enc_width", o.enc_width, 180, 7680},
                            {"enc_height", o.enc_height, 150, 7680},
                            {"enc_bitdepth", o.enc_bitdepth, 6, 16},
                            {"src_width", o.src_width, 320, 7680},
                            {"src_height", o.src_height, 200, 4320}};
    for (const Limit &l : limits)
        if (l.v && (l.v < l.lo || l.v > l.hi)) {
            *msg = strprintf("cambi option %s: %d is out of range: accepted values are 0 (the "
                             "picture's) or %d to %d", l.name, l.v, l.lo, l.hi);
            return -ERANGE;
        }
    if (!(c.g.bpc == 8 || c.g.bpc == 10 || c.g.bpc == 12 || c.g.bpc == 16)) {
        *msg = strprintf("cambi: bit depth %d is not supported: accepted are 8, 10, 12 and 16",
                         c.g.bpc);
        return -ENOTSUP;
    }
    int ew, eh, sw, sh;
    enc_size(o, c.g, &ew, &eh);
    src_size(o, c.g, &sw, &sh);
    const bool speedup = speedup_on(o.high_res_speedup, ew, eh);
    if ((sw > ew && sh < eh) || (sw < ew && sh > eh)) {
        *msg = strprintf("cambi: source size %dx%d and encode size %dx%d: one must be at least "
                         "the other in both directions", sw, sh, ew, eh);
        return -EINVAL;
    }
    int ret = check_pass("encode", ew, eh, window(o.window_size, ew, eh, speedup), speedup, true,
                         msg);
    if (ret == 0)
        ret = check_pass("source", sw, sh, window(o.window_size, sw, sh, speedup), speedup,
                         o.full_ref, msg);
    return ret;
}

namespace {

// The resize index vectors of §4.2: a running float position per axis.
std::vector<int> resize_index(int in, int out)
{
    const float r = static_cast<float>(in) / static_cast<float>(out);
    float x = r * 0.5f - 0.5f;
    std::vector<int> idx(static_cast<size_t>(out));
    for (int j = 0; j < out; j++) {
        // Below in by construction; the clamp only guards the last index.
        idx[static_cast<size_t>(j)] = std::min(static_cast<int>(static_cast<double>(x) + 0.5), in - 1);
        x = x + r;
    }
    return idx;
}

CambiPass make_pass(const Geometry &g, int w, int h, int w0, bool speedup)
{
    CambiPass p;
    p.w = w, p.h = h;
    p.ws = window(w0, w, h, speedup);
    p.pad = p.ws >> 1;
    p.mask_index = mask_index(w, h);
    p.resize = w != g.w || h != g.h;
    if (p.resize) {
        p.sx = resize_index(g.w, w);
        p.sy = resize_index(g.h, h);
    }
    return p;
}

} // namespace

Cambi::Cambi(const ExtractorConfig &c)
    : Extractor(cambi_extractor), o_(options_struct<CambiOptions>(cambi_extractor, c.options)),
      g_(c.g), suffix_(c.suffix), k_(&cambi_kernels(c.cpu_flags))
{
    const int enc_bd = o_.enc_bitdepth ? o_.enc_bitdepth : g_.bpc; // §1.2 step 1
    anti_dither_ = enc_bd < 10;
    int ew, eh, sw, sh;
    enc_size(o_, g_, &ew, &eh);
    src_size(o_, g_, &sw, &sh);
    speedup_ = speedup_on(o_.high_res_speedup, ew, eh);
    topk_ = o_.topk != 0.6 ? o_.topk : o_.cambi_topk; // §1.2 step 7
    t_.nd = 1 << o_.max_log_contrast;
    const int eotf = o_.cambi_eotf != CAMBI_EOTF_BT1886 ? o_.cambi_eotf : o_.eotf; // §1.2 step 6
    for (int d = 1; d <= t_.nd; d++) {
        t_.tvi[d] = tvi_raw(d, o_.tvi_threshold, eotf) + t_.nd;
        t_.cw[d] = contrast_weight[d];
    }
    int s = 64; // §2.4
    while (luminance(s, eotf) < o_.vis_lum_threshold)
        s++;
    t_.vlt = s == 64 ? 0 : s;
    // §8.1: only values in this band can change a c-value. A centre counts
    // for v <= tvi_raw[d] and v + nd + d > vlt; its neighbours lie within nd.
    int top = 0;
    for (int d = 1; d <= t_.nd; d++)
        top = std::max(top, t_.tvi[d] - t_.nd);
    t_.lo = std::max(0, t_.vlt - 3 * t_.nd + 1);
    t_.hi = std::min(top + t_.nd, 1024);
    dis_ = make_pass(g_, ew, eh, o_.window_size, speedup_);
    if (o_.full_ref)
        src_ = make_pass(g_, sw, sh, o_.window_size, speedup_);
}

void Cambi::names(std::vector<std::string> *out) const
{
    out->push_back("cambi" + suffix_);
    if (o_.full_ref) {
        out->push_back("cambi_source");
        out->push_back("cambi_full_reference");
    }
}

void Cambi::finish(unsigned, const void *accum, double *out)
{
    const CambiAccum &a = *static_cast<const CambiAccum *>(accum);
    const double m = o_.max_val;
    out[0] = std::min(a.dis, m); // §1.1
    if (o_.full_ref) {
        out[1] = std::min(a.src, m);
        out[2] = std::min(std::max(0.0, a.dis - a.src), m);
    }
}

} // namespace vmafhip
