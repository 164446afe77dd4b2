// integer motion host side (docs/motion.md): the table entry, options and
// names (§1), the per-frame score (§3) and the late outputs motion2 and
// motion3 (§4), computed as frames complete instead of at the end of the
// stream, with the values libvmaf's flush gives.
#include "extractors/motion/motion.h"

#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <memory>

#include "base/log.h"
#include "extractors/motion/motion_cpu_rows.h"
#include "extractors/options.h"

namespace vmafhip {

namespace {

// libvmaf's options, in its order (integer_motion.c): every one but debug
// renames the outputs when it differs from its default (docs/motion.md §1.2).
const OptionSpec motion_options[] = {
    {.name = "motion_force_zero", .alias = "force_0", .type = OptionType::Bool,
     .offset = offsetof(MotionOptions, force_zero), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "every motion score is 0"},
    {.name = "motion_blend_factor", .alias = "mbf", .type = OptionType::Double,
     .offset = offsetof(MotionOptions, blend_factor), .def = 1.0, .min = 0.0, .max = 1.0,
     .in_name = true,
     .help = "motion3: weight of the score against its value limited to the blend offset"},
    {.name = "motion_blend_offset", .alias = "mbo", .type = OptionType::Double,
     .offset = offsetof(MotionOptions, blend_offset), .def = 40.0, .min = 0.0, .max = 1000.0,
     .in_name = true,
     .help = "motion3: the score above which blending limits it"},
    {.name = "motion_fps_weight", .alias = "mfw", .type = OptionType::Double,
     .offset = offsetof(MotionOptions, fps_weight), .def = 1.0, .min = 0.0, .max = 5.0,
     .in_name = true,
     .help = "factor applied to every motion score (frame-rate correction)"},
    {.name = "motion_max_val", .alias = "mmxv", .type = OptionType::Double,
     .offset = offsetof(MotionOptions, max_val), .def = 10000.0, .min = 0.0, .max = 10000.0,
     .in_name = true,
     .help = "largest motion score; larger ones are clipped to it"},
    {.name = "motion_five_frame_window", .alias = "mffw", .type = OptionType::Bool,
     .offset = offsetof(MotionOptions, five_frame_window), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "compare each frame with the one two frames earlier (five-frame window)"},
    {.name = "motion_moving_average", .alias = "mma", .type = OptionType::Bool,
     .offset = offsetof(MotionOptions, moving_average), .def = 0, .min = 0, .max = 1,
     .in_name = true,
     .help = "motion3: average of this frame's and the previous frame's value"},
    {.name = "debug", .alias = nullptr, .type = OptionType::Bool,
     .offset = offsetof(MotionOptions, debug), .def = 0, .min = 0, .max = 1,
     .in_name = false,
     .help = "also write integer_motion (the per-frame score)"},
};

const ProvidedFeature motion_provides[] = {
    // libvmaf gives the SAD score no alias: the log name is the feature name.
    {"VMAF_integer_feature_motion_sad_score", "VMAF_integer_feature_motion_sad_score"},
    {"VMAF_integer_feature_motion_score", "integer_motion"},
    {"VMAF_integer_feature_motion2_score", "integer_motion2"},
    {"VMAF_integer_feature_motion3_score", "integer_motion3"},
};

constexpr int n_motion_options = static_cast<int>(std::size(motion_options));

std::unique_ptr<Extractor> create_motion(const ExtractorConfig &c, int *ret, std::string *msg)
{
    const ExtractorInfo &e = motion_extractor;
    if (c.g.w < MOTION_MIN_SIZE || c.g.h < MOTION_MIN_SIZE) {
        // docs/motion.md §6: below 3 samples the reflect-101 mirror leaves the
        // picture; libvmaf then reads rows outside the plane and entries
        // outside its row buffer, and its scores change from run to run.
        *msg = strprintf("motion: frame size %dx%d is too small: width and height must be at "
                         "least %d (the 5-tap filter's mirror reads outside smaller pictures, "
                         "where libvmaf's scores are undefined)",
                         c.g.w, c.g.h, MOTION_MIN_SIZE);
        *ret = -ERANGE;
        return nullptr;
    }
    if (c.g.bpc < 1 || c.g.bpc > 16 || !(e.bit_depths & bit_depth(c.g.bpc))) {
        *msg = strprintf("motion: bit depth %d is not supported: accepted are 8, 10, 12 and 16",
                         c.g.bpc);
        *ret = -ENOTSUP;
        return nullptr;
    }
    if (c.options.size() != static_cast<size_t>(e.n_options)) {
        *msg = strprintf("motion: %zu option values given, %d expected", c.options.size(),
                         e.n_options);
        *ret = -EINVAL;
        return nullptr;
    }
    for (int i = 0; i < e.n_options; i++) {
        const OptionSpec &o = e.options[i];
        if (!(c.options[i] >= o.min && c.options[i] <= o.max)) {
            *msg = strprintf("motion option %s: %s is out of range: accepted values are %s", o.name,
                             format_option(o, c.options[i]).c_str(), option_range(o).c_str());
            *ret = -ERANGE;
            return nullptr;
        }
    }
    *ret = 0;
    return std::make_unique<Motion>(c, options_struct<MotionOptions>(e, c.options));
}

} // namespace

const ExtractorInfo motion_extractor = {
    .name = "motion",
    .help = "integer motion: blurred reference differences between frames (motion2, motion3)",
    .options = motion_options,
    .n_options = n_motion_options,
    .provides = motion_provides,
    .n_provides = static_cast<int>(std::size(motion_provides)),
    .min_w = MOTION_MIN_SIZE,
    .min_h = MOTION_MIN_SIZE,
    .bit_depths = bit_depth(8) | bit_depth(10) | bit_depth(12) | bit_depth(16),
    .max_lookahead = 2, // motion_five_frame_window: motion3 of frame 0 needs frame 2 (docs/motion.md §4.3)
    .create = create_motion,
    .gpu = VMAFHIP_GPU_IMPL(motion_gpu),
};

Motion::Motion(const ExtractorConfig &c, const MotionOptions &o)
    : Extractor(motion_extractor), opt_(o), suffix_(c.suffix), p_(),
      k_(&choose_kernels(c.cpu_flags, motion_kernels_scalar(), motion_kernels_avx2()))
{
    p_.w = c.g.w;
    p_.h = c.g.h;
    p_.bpc = c.g.bpc;
    p_.prev = o.five_frame_window ? 1 : 0;
}

void Motion::names(std::vector<std::string> *out) const
{
    // libvmaf's order; the suffix follows the SAD score's full name (§1.2).
    out->push_back("VMAF_integer_feature_motion_sad_score" + suffix_);
    if (opt_.debug)
        out->push_back("integer_motion" + suffix_);
}

void Motion::late_names(std::vector<std::string> *out) const
{
    out->push_back("integer_motion2" + suffix_);
    out->push_back("integer_motion3" + suffix_);
}

int Motion::lookbehind() const
{
    // The five-frame window compares frame i with frame i-2 (prev_ref[1]).
    if (opt_.force_zero)
        return 0;
    return opt_.five_frame_window ? 2 : 1;
}

int Motion::lookahead() const
{
    // §4.3: motion2[i] needs s[i+1]; motion3 of the frames before
    // min_index() needs s[min_index()], two frames ahead of frame 0 with the
    // five-frame window. With motion_force_zero every late value is 0.
    if (opt_.force_zero)
        return 0;
    return opt_.five_frame_window ? 2 : 1;
}

double Motion::score(uint64_t sad, int w, int h, double fps_weight, double max_val)
{
    // libvmaf: MIN((double)sad / 256. / (w * h) * fps_weight, max_val), with
    // an unsigned product w * h (exact: w, h <= 32768).
    const unsigned n = static_cast<unsigned>(w) * static_cast<unsigned>(h);
    const double v = static_cast<double>(sad) / 256.0 / static_cast<double>(n) * fps_weight;
    return v < max_val ? v : max_val;
}

double Motion::blend(double x, double factor, double offset)
{
    // motion_blend_tools.h: x * bf + (1 - bf) * MIN(offset, x), in this order.
    const double limited = offset < x ? offset : x;
    return x * factor + (1.0 - factor) * limited;
}

double Motion::s(unsigned i) const
{
    // A score outside the window means the caller broke the finish_late()
    // contract; NaN makes that visible instead of reading out of bounds.
    if (i < window_base_ || i - window_base_ >= window_.size())
        return std::nan("");
    return window_[i - window_base_];
}

void Motion::finish(unsigned index, const void *accum, double *out)
{
    MotionAccum a;
    std::memcpy(&a, accum, sizeof a);
    // §3: the accumulator of a frame before min_index() is ignored (the GPU
    // computes it against whatever its previous-picture buffer holds).
    const double v = opt_.force_zero || index < min_index()
                         ? 0.0
                         : score(a.sad, p_.w, p_.h, opt_.fps_weight, opt_.max_val);
    if (window_.empty())
        window_base_ = index;
    window_.push_back(v);
    out[0] = v;
    if (opt_.debug)
        out[1] = v;
}

void Motion::finish_late(unsigned index, unsigned frames, double *out)
{
    if (opt_.force_zero) {
        // §4.4: all scores 0, so motion2 = 0 and motion3 = blend(0) = 0.
        out[0] = out[1] = 0.0;
    } else {
        const unsigned m = min_index();
        const unsigned stride = opt_.five_frame_window ? 2 : 1;
        const bool has_next = frames == 0 || index + 1 < frames;
        if (index == 0) {
            // §4.2: libvmaf's flush stamps motion3 of frames 0 .. m-1 with the
            // blended score of frame m when the stream reaches it, else 0.
            const bool reaches = frames == 0 || frames > m;
            const double b = reaches ? blend(s(m), opt_.blend_factor, opt_.blend_offset) : 0.0;
            stamp_ = reaches ? (b < opt_.max_val ? b : opt_.max_val) : 0.0;
        }
        // §4.1 motion2.
        double m2;
        if (index < m) {
            m2 = 0.0;
        } else if (!has_next) {
            m2 = s(index); // the last frame
        } else {
            const double hi = s(index + 1);
            const unsigned lo_idx = index - (stride - 1);
            if (lo_idx >= m) {
                const double lo = s(lo_idx);
                m2 = lo < hi ? lo : hi;
            } else {
                m2 = hi;
            }
        }
        // §4.2 motion3.
        double m3;
        if (index < m) {
            m3 = stamp_;
            prev_processed_ = stamp_;
        } else {
            const double b = blend(m2, opt_.blend_factor, opt_.blend_offset);
            const double p = b < opt_.max_val ? b : opt_.max_val;
            m3 = opt_.moving_average ? (p + prev_processed_) / 2.0 : p;
            prev_processed_ = p;
        }
        out[0] = m2;
        out[1] = m3;
    }
    // Frame index+1 reads scores from index on (index with the five-frame window).
    while (window_base_ < index && !window_.empty()) {
        window_.pop_front();
        window_base_++;
    }
}

} // namespace vmafhip
