// float_motion host side: the table entry and options (§1), the checks (§5),
// names, the per-frame score (§3) and the late outputs motion2 and motion3
// (§4), computed as frames complete, with the values libvmaf's flush gives.
#include "extractors/float_motion/float_motion.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iterator>

#include "base/log.h"
#include "extractors/motion/motion.h"
#include "extractors/options.h"

namespace vmafhip {

extern const GpuImpl float_motion_gpu;

namespace {

#define FMOT_OPT(f) offsetof(FloatMotionOptions, f)

// libvmaf 3.2's options (float_motion.c), in its order: every one but debug
// renames the outputs when it differs from its default (§1.2).
constexpr OptionSpec options[] = {
    {.name = "debug", .alias = nullptr, .type = OptionType::Bool, .offset = FMOT_OPT(debug),
     .def = 1, .min = 0, .max = 1, .in_name = false,
     .help = "debug mode: enable additional output (motion, the per-frame score)"},
    {.name = "motion_force_zero", .alias = "force_0", .type = OptionType::Bool,
     .offset = FMOT_OPT(force_zero), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "forcing motion score to zero"},
    {.name = "motion_fps_weight", .alias = "mfw", .type = OptionType::Double,
     .offset = FMOT_OPT(fps_weight), .def = 1, .min = 0, .max = 5, .in_name = true,
     .help = "fps-aware multiplicative weight/correction"},
    {.name = "motion_blend_factor", .alias = "mbf", .type = OptionType::Double,
     .offset = FMOT_OPT(blend_factor), .def = 1, .min = 0, .max = 1, .in_name = true,
     .help = "blend motion score given an offset (motion3)"},
    {.name = "motion_blend_offset", .alias = "mbo", .type = OptionType::Double,
     .offset = FMOT_OPT(blend_offset), .def = 40, .min = 0, .max = 1000, .in_name = true,
     .help = "blend motion score starting from this offset (motion3)"},
    {.name = "motion_add_scale1", .alias = "mdc", .type = OptionType::Bool,
     .offset = FMOT_OPT(add_scale1), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "add motion score from scale1 (the half-size pictures)"},
    {.name = "motion_filter_size", .alias = "mfs", .type = OptionType::Int,
     .offset = FMOT_OPT(filter_size), .def = 5, .min = 0, .max = 9, .in_name = true,
     .help = "filtering size: 3 (3-tap blur), 1 (no blur), any other value the 5-tap blur"},
    {.name = "motion_add_uv", .alias = "mau", .type = OptionType::Bool,
     .offset = FMOT_OPT(add_uv), .def = 0, .min = 0, .max = 1, .in_name = true,
     .help = "add the chroma planes' motion scores to the luma's"},
    {.name = "motion_max_val", .alias = "mmxv", .type = OptionType::Double,
     .offset = FMOT_OPT(max_val), .def = 10000, .min = 0, .max = 10000, .in_name = true,
     .help = "maximum value allowed; larger values will be clipped to this value"},
};
#undef FMOT_OPT

// libvmaf's provided_features, with the names its output files use.
const ProvidedFeature provides[] = {
    {"VMAF_feature_motion_score", "motion"},
    {"VMAF_feature_motion2_score", "motion2"},
    {"VMAF_feature_motion3_score", "motion3"},
};

// §2: libvmaf's blurs (FILTER_5_s, FILTER_3_s, FILTER_5_NO_OP_s), as float bit patterns.
constexpr uint32_t filter5[] = {0x3d5f2f87, 0x3e7a0feb, 0x3ece2434, 0x3e7a0feb, 0x3d5f2f87};
constexpr uint32_t filter3[] = {0x3e2a5f20, 0x3f2ad070, 0x3e2a5f20};
constexpr uint32_t filter5_no_op[] = {0, 0, 0x3f800000, 0, 0};

template <size_t N> std::vector<float> taps(const uint32_t (&bits)[N])
{
    std::vector<float> t;
    for (uint32_t b : bits) {
        float f;
        std::memcpy(&f, &b, sizeof f);
        t.push_back(f);
    }
    return t;
}

// §5: the widest half-size picture libvmaf's init accepts with motion_add_scale1.
constexpr int MAX_HALF_WIDTH = 7680;

std::unique_ptr<Extractor> create(const ExtractorConfig &c, int *ret, std::string *msg)
{
    return create_checked<FloatMotion>(float_motion_extractor, c, ret, msg);
}

} // namespace

const ExtractorInfo float_motion_extractor = {
    .name = "float_motion",
    .help = "libvmaf's float motion: blurred reference differences between frames, motion2 and "
            "motion3",
    .options = options,
    .n_options = static_cast<int>(std::size(options)),
    .provides = provides,
    .n_provides = static_cast<int>(std::size(provides)),
    .min_w = 2, // check() says which sizes, by filter size
    .min_h = 2,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 1, // motion2 of frame i needs frame i + 1 (§4)
    .create = create,
    .gpu = VMAFHIP_GPU_IMPL(float_motion_gpu),
};

int FloatMotion::min_side(int filter_size)
{
    // §5: one reflection of a tap r samples out stays inside from r + 1 samples on.
    return filter_size == 3 ? 2 : 3;
}

int FloatMotion::check(const ExtractorConfig &c, std::string *msg)
{
    const FloatMotionOptions o =
        options_struct<FloatMotionOptions>(float_motion_extractor, c.options);
    const Geometry &g = c.g;
    if (!(g.bpc == 8 || g.bpc == 10 || g.bpc == 12 || g.bpc == 16)) {
        *msg = strprintf("float_motion: bit depth %d is not supported: accepted are 8, 10, 12 "
                         "and 16", g.bpc);
        return -ENOTSUP;
    }
    const int need = min_side(o.filter_size);
    if (g.w < need || g.h < need) {
        *msg = strprintf("float_motion: frame size %dx%d is too small: with motion_filter_size "
                         "%d width and height must be at least %d (the blur's mirror leaves "
                         "smaller pictures, where libvmaf reads outside its buffers)",
                         g.w, g.h, o.filter_size, need);
        return -ERANGE;
    }
    if (o.add_uv && g.chroma == VMAFHIP_CHROMA_400) {
        *msg = "float_motion option motion_add_uv: 4:0:0 has no chroma planes to score; use "
               "4:2:0, 4:2:2 or 4:4:4, or leave motion_add_uv off";
        return -EINVAL;
    }
    if (o.add_uv && (g.scored_w(1) < need || g.scored_h(1) < need)) {
        *msg = strprintf("float_motion option motion_add_uv: chroma planes %dx%d are too small: "
                         "with motion_filter_size %d they must be at least %dx%d (the blur's "
                         "mirror leaves smaller planes)",
                         g.scored_w(1), g.scored_h(1), o.filter_size, need, need);
        return -ERANGE;
    }
    if (o.add_scale1 && scaled_size(g.w, 0.5) > MAX_HALF_WIDTH) {
        *msg = strprintf("float_motion option motion_add_scale1: frame width %d is too large: "
                         "libvmaf's half-size pictures are at most %d wide (frames up to %d)",
                         g.w, MAX_HALF_WIDTH, 2 * MAX_HALF_WIDTH);
        return -ERANGE;
    }
    return 0;
}

FloatMotion::FloatMotion(const ExtractorConfig &c)
    : Extractor(float_motion_extractor),
      o_(options_struct<FloatMotionOptions>(float_motion_extractor, c.options)), g_(c.g),
      bpc_(c.g.bpc),
      suffix_(c.suffix),
      taps_(o_.filter_size == 3 ? taps(filter3)
                                : o_.filter_size == 1 ? taps(filter5_no_op) : taps(filter5))
{
    // §3.2: (int)(n * 0.5 + 0.5) samples each way, bilinear, per plane size.
    for (int q = 0; q < (o_.add_uv ? 2 : 1) && o_.add_scale1; q++) {
        const int w = q ? c.g.scored_w(1) : c.g.w, h = q ? c.g.scored_h(1) : c.g.h;
        half_[q] = resampling(Scaler::Bilinear, w, h, scaled_size(w, 0.5), scaled_size(h, 0.5));
    }
}

void FloatMotion::names(std::vector<std::string> *out) const
{
    if (o_.debug)
        out->push_back("motion" + suffix_);
}

void FloatMotion::late_names(std::vector<std::string> *out) const
{
    out->push_back("motion2" + suffix_);
    out->push_back("motion3" + suffix_);
}

double FloatMotion::s(unsigned i) const
{
    // A score outside the window means the caller broke the finish_late()
    // contract; NaN makes that visible instead of reading out of bounds.
    if (i < base_ || i - base_ >= window_.size())
        return std::nan("");
    return window_[i - base_];
}

double FloatMotion::clipped(double x) const
{
    const double v = x * o_.fps_weight;
    return v < o_.max_val ? v : o_.max_val;
}

double FloatMotion::blended(double x) const
{
    // §4: the blend of the weighted score, unclipped, then the clip.
    const double b = Motion::blend(x * o_.fps_weight, o_.blend_factor, o_.blend_offset);
    return b < o_.max_val ? b : o_.max_val;
}

double FloatMotion::score(const FloatMotionAccum &a) const
{
    // §3.3: the planes' float scores added in double, (Y + Cb) + Cr.
    return o_.add_uv ? (a.plane[0] + a.plane[1]) + a.plane[2] : a.plane[0];
}

void FloatMotion::finish(unsigned index, const void *accum, double *out)
{
    FloatMotionAccum a;
    std::memcpy(&a, accum, sizeof a);
    // §3: frame 0 has no score (and none is computed with motion_force_zero).
    const double v = o_.force_zero || index == 0 ? 0.0 : score(a);
    if (window_.empty())
        base_ = index;
    window_.push_back(v);
    if (o_.debug)
        out[0] = o_.force_zero || index == 0 ? 0.0 : clipped(v);
}

void FloatMotion::finish_late(unsigned index, unsigned frames, double *out)
{
    const bool has_next = frames == 0 || index + 1 < frames;
    if (o_.force_zero) {
        out[0] = out[1] = 0.0; // §4.3
    } else if (index == 0) {
        // §4.2: frame 0's motion2 is 0; its motion3 is frame 1's blended
        // score, or 0 where the stream has one frame.
        out[0] = 0.0;
        out[1] = has_next ? blended(s(1)) : 0.0;
    } else {
        // §4.1: the smaller of this frame's and the next frame's score;
        // the last frame's own.
        double m = s(index);
        if (has_next) {
            const double next = s(index + 1);
            m = m < next ? m : next;
        }
        out[0] = clipped(m);
        out[1] = blended(m);
    }
    while (base_ < index && !window_.empty()) {
        window_.pop_front();
        base_++;
    }
}

} // namespace vmafhip
