#include "args.h"

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "quote.h"
#include "format.h"

namespace cli {

namespace {

using cli::quote_cut;

enum class Id {
    Reference, Distorted, Width, Height, PixelFormat, Bitdepth, FrameCnt, SkipRef, SkipDist,
    Subsample, Feature, NoPrediction, Model,
    Output, Xml, Json, Csv, Sub, FullPrecision, Quiet,
    Backend, Device, GpuWait, Threads, CpuMask, GpuMask,
    Help, Version,
};

struct Flag {
    Id id;
    char short_name;   ///< 0: long form only
    const char *name;  ///< long form, without "--"
    const char *value; ///< what the value is, for --help; nullptr: takes none
    const char *help;
};

// libvmaf's spellings (underscores); --full-precision and --gpu-wait are ours.
const Flag flags[] = {
    {Id::Reference, 'r', "reference", "PATH", "reference video: raw .yuv or .y4m"},
    {Id::Distorted, 'd', "distorted", "PATH", "distorted video: raw .yuv or .y4m"},
    {Id::Width, 'w', "width", "N", "luma width (raw .yuv; a .y4m header gives it)"},
    {Id::Height, 'h', "height", "N", "luma height (raw .yuv; a .y4m header gives it)"},
    {Id::PixelFormat, 'p', "pixel_format", "FMT", "420, 422, 444 or 400 (gray) (raw .yuv)"},
    {Id::Bitdepth, 'b', "bitdepth", "N",
     "8, 10, 12 or 16 (raw .yuv); above 8 bits samples are 16-bit little-endian"},
    {Id::FrameCnt, 0, "frame_cnt", "N", "score at most N frames (default: all)"},
    {Id::SkipRef, 0, "frame_skip_ref", "N", "skip the first N frames of the reference"},
    {Id::SkipDist, 0, "frame_skip_dist", "N", "skip the first N frames of the distorted video"},
    {Id::Subsample, 0, "subsample", "N",
     "score only frames 0, N, 2N, ... (motion still reads every frame) (default: 1)"},
    {Id::Model, 'm', "model", "PARAMS",
     "a VMAF model, repeatable: version=NAME (built in, below) or path=FILE (a libvmaf JSON "
     "model), with :name=OUTPUT, :enable_transform=true, :disable_clip=true, "
     ":FEATURE.OPTION=VALUE (default: version=vmaf_v0.6.1)"},
    {Id::NoPrediction, 'n', "no_prediction", nullptr, "no model: compute the features only"},
    {Id::Feature, 0, "feature", "SPEC",
     "a feature besides the models', repeatable: NAME or NAME=option=value:option=value "
     "(NAME and options below)"},
    {Id::Output, 'o', "output", "PATH",
     "log file, \"-\" for stdout; without -o the pooled mean of every feature is printed"},
    {Id::Xml, 0, "xml", nullptr, "write the log as XML (default)"},
    {Id::Json, 0, "json", nullptr, "write the log as JSON"},
    {Id::Csv, 0, "csv", nullptr, "write the log as CSV"},
    {Id::Sub, 0, "sub", nullptr, "write the log as subtitles (MicroDVD, one line per frame)"},
    {Id::FullPrecision, 0, "full-precision", nullptr,
     "print numbers with 17 significant digits (exact doubles) instead of 6 decimals"},
    {Id::Quiet, 'q', "quiet", nullptr, "no progress line on a terminal"},
    {Id::Backend, 0, "backend", "B", "auto (GPU if present, else CPU), cpu or hip"},
    {Id::Device, 0, "device", "N", "GPU index (default: 0)"},
    {Id::GpuWait, 0, "gpu-wait", nullptr,
     "wait for the GPU to start and score every frame on it (default for files of 150 million "
     "luma samples or more, such as 73 1080p frames; otherwise the CPU scores the frames read "
     "while the GPU starts, with the same scores)"},
    {Id::Threads, 0, "threads", "N", "CPU threads, 0 = one per core (default: 0)"},
    {Id::CpuMask, 0, "cpumask", "MASK",
     "instruction sets the CPU code must not use, as libvmaf's: 8 (or 63) runs the plain C++ "
     "kernels instead of AVX2; scores are the same, libvmaf's plain-C values (default: 0)"},
    {Id::GpuMask, 0, "gpumask", "MASK", "accepted for libvmaf compatibility; use --backend"},
    {Id::Help, 0, "help", nullptr, "print this text"},
    {Id::Version, 'v', "version", nullptr, "print the version"},
};

// libvmaf flags with no counterpart here: named as such, not as typos.
const char *const libvmaf_only[] = {"aom_ctc", "nflx_ctc"};

const char see_help[] = " (vmafhip --help lists the options)";

std::string spelling(const Flag &f)
{
    std::string s = f.short_name ? std::string("-") + f.short_name + "/" : std::string();
    return s + "--" + f.name;
}

// Every number flag takes 0 to INT_MAX (--threads to the library's limit);
// the library checks what the value means (e.g. width 0, bit depth 9) and
// says what it accepts.
int set_int(const Flag &f, const std::string &text, int *out, std::string *err,
            long max = INT_MAX)
{
    char *end = nullptr;
    errno = 0;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end || errno || v < 0 || v > max) {
        *err = spelling(f) + ": " + quote_cut(text) + " is not a whole number from 0 to " +
               std::to_string(max);
        return -1;
    }
    *out = static_cast<int>(v);
    return 0;
}

int apply(const Flag &f, const std::string &v, Options *o, std::string *err)
{
    switch (f.id) {
    case Id::Reference: o->reference = v; return 0;
    case Id::Distorted: o->distorted = v; return 0;
    case Id::Width: return set_int(f, v, &o->width, err);
    case Id::Height: return set_int(f, v, &o->height, err);
    case Id::Bitdepth: return set_int(f, v, &o->bitdepth, err);
    case Id::FrameCnt: return set_int(f, v, &o->frame_cnt, err);
    case Id::SkipRef: return set_int(f, v, &o->skip_ref, err);
    case Id::SkipDist: return set_int(f, v, &o->skip_dist, err);
    case Id::Subsample:
        if (set_int(f, v, &o->subsample, err) < 0)
            return -1;
        if (o->subsample < 1) {
            *err = spelling(f) + ": 0 is not valid: 1 scores every frame, N every N-th";
            return -1;
        }
        return 0;
    case Id::Threads: return set_int(f, v, &o->threads, err, VMAFHIP_MAX_THREADS);
    case Id::Device: return set_int(f, v, &o->device, err);
    case Id::PixelFormat:
        for (int c = VMAFHIP_CHROMA_420; c <= VMAFHIP_CHROMA_400; c++)
            if (v == chroma_name(static_cast<VmafHipChroma>(c))) {
                o->chroma = c;
                return 0;
            }
        *err = spelling(f) + ": " + quote_cut(v) + " is not supported: accepted are 420, 422, 444 and 400";
        return -1;
    case Id::Backend:
        if (v == "auto" || v == "cpu" || v == "hip") {
            o->backend = v == "auto" ? VMAFHIP_BACKEND_AUTO
                         : v == "cpu" ? VMAFHIP_BACKEND_CPU
                                      : VMAFHIP_BACKEND_HIP;
            return 0;
        }
        *err = spelling(f) + ": " + quote_cut(v) + " is not a backend: accepted are auto, cpu and hip";
        return -1;
    case Id::Feature: o->features.push_back(v); return 0;
    case Id::Output: o->output = v; return 0;
    case Id::Xml: o->format = VMAFHIP_LOG_FMT_XML; return 0;
    case Id::Json: o->format = VMAFHIP_LOG_FMT_JSON; return 0;
    case Id::Csv: o->format = VMAFHIP_LOG_FMT_CSV; return 0;
    case Id::Sub: o->format = VMAFHIP_LOG_FMT_SUB; return 0;
    case Id::FullPrecision: o->full_precision = true; return 0;
    case Id::Quiet: o->quiet = true; return 0;
    case Id::GpuWait: o->gpu_wait = true; return 0;
    case Id::NoPrediction: o->no_prediction = true; return 0;
    case Id::Model: o->models.push_back(v); return 0;
    case Id::CpuMask: return set_int(f, v, &o->cpumask, err);
    case Id::GpuMask: return 0;
    case Id::Help:
    case Id::Version: return 0;
    }
    return 0;
}

const Flag *find_long(const std::string &name)
{
    for (const auto &f : flags)
        if (name == f.name)
            return &f;
    return nullptr;
}

const Flag *find_short(char c)
{
    for (const auto &f : flags)
        if (f.short_name == c)
            return &f;
    return nullptr;
}

// Which flag `arg` names, and its attached value ("--x=v", "-xv") if any.
// @return nullptr with *err set when it names none.
const Flag *lookup(const std::string &arg, std::string *inline_value, bool *has_inline,
                   std::string *err)
{
    *has_inline = false;
    if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
        const size_t eq = arg.find('=');
        const std::string name = arg.substr(2, eq == std::string::npos ? eq : eq - 2);
        if (eq != std::string::npos) {
            *inline_value = arg.substr(eq + 1);
            *has_inline = true;
        }
        if (const Flag *f = find_long(name))
            return f;
        for (const char *n : libvmaf_only)
            if (name == n) {
                *err = "libvmaf's option --" + name + " is not supported by vmafhip";
                return nullptr;
            }
        *err = "unknown option " + quote_cut(arg);
        return nullptr;
    }
    if (arg.size() >= 2 && arg[0] == '-' && arg[1] != '-') {
        if (arg.size() > 2) {
            *inline_value = arg.substr(2);
            *has_inline = true;
        }
        if (const Flag *f = find_short(arg[1]))
            return f;
        *err = std::string("unknown option '-") + arg[1] + "'";
        return nullptr;
    }
    *err = "unexpected argument " + quote_cut(arg) + ": every input is given with an option (-r, -d)";
    return nullptr;
}

// "  head" padded to column 30, then `text` wrapped at 80 columns with
// continuation lines indented to column 30.
std::string help_entry(const std::string &head, const std::string &text)
{
    std::string out = "  " + head, line;
    // A head that reaches the text column gets a line of its own.
    out += out.size() < 30 ? std::string(30 - out.size(), ' ') : "\n" + std::string(30, ' ');
    std::istringstream words(text);
    for (std::string w; words >> w;) {
        if (!line.empty() && 30 + line.size() + 1 + w.size() > 80) {
            out += line + "\n" + std::string(30, ' ');
            line.clear();
        }
        line += (line.empty() ? "" : " ") + w;
    }
    return out + line + "\n";
}

} // namespace

int parse_args(int argc, const char *const *argv, Options *o, Action *action, std::string *err)
{
    *action = Action::Run;
    for (int i = 1; i < argc; i++) {
        const std::string arg = argv[i];
        std::string value;
        bool has_inline;
        const Flag *f = lookup(arg, &value, &has_inline, err);
        if (!f) {
            *err += see_help;
            return -1;
        }
        if (f->id == Id::Help || f->id == Id::Version) {
            *action = f->id == Id::Help ? Action::Help : Action::Version;
            return 0;
        }
        if (!f->value && has_inline) {
            *err = "option " + spelling(*f) + " takes no value (in " + quote_cut(arg) + ")";
            return -1;
        }
        if (f->value && !has_inline) {
            if (i + 1 >= argc) {
                *err = "option " + spelling(*f) + " needs a value (" + f->value + ")";
                return -1;
            }
            value = argv[++i];
        }
        if (f->value && value.empty()) {
            *err = "option " + spelling(*f) + " needs a value (" + f->value + "), got ''";
            return -1;
        }
        if (apply(*f, value, o, err) < 0)
            return -1;
    }
    if (o->reference.empty()) {
        *err = std::string("missing -r/--reference: the reference video") + see_help;
        return -1;
    }
    if (o->distorted.empty()) {
        *err = std::string("missing -d/--distorted: the distorted video") + see_help;
        return -1;
    }
    return 0;
}

std::string help_text()
{
    std::string out =
        "Usage: vmafhip -r REF -d DIS [-w W -h H -p FMT -b BITS] [options]\n"
        "\n"
        "Scores a distorted video against its reference with libvmaf's VMAF models and\n"
        "features, with the flags and log formats of libvmaf's vmaf tool. Raw .yuv\n"
        "inputs are in FFmpeg's planar layout and need -w, -h, -p and -b; a .y4m header\n"
        "gives them (if given too, they must agree).\n"
        "\n"
        "Options:\n";
    for (const auto &f : flags)
        out += help_entry(std::string(f.short_name ? std::string("-") + f.short_name + ", " : "    ") +
                              "--" + f.name + (f.value ? std::string(" ") + f.value : ""),
                          f.help);
    out += "\nBuilt-in models (-m version=NAME):\n";
    for (int i = 0; const char *m = vmafhip_builtin_model(i); i++)
        out += std::string("  ") + m + (i ? "\n" : " (the default)\n");
    out += "\nFeatures (--feature NAME=option=value:option=value):\n";
    for (int k = 0; k < vmafhip_feature_count(); k++) {
        const char *feature, *about;
        vmafhip_feature_info(k, &feature, &about);
        out += help_entry(feature, about);
        for (int i = 0; i < vmafhip_option_count(); i++) {
            const char *owner, *name, *alias, *help, *def, *range;
            vmafhip_option_info(i, &owner, &name, &alias, &help, &def, &range);
            if (std::strcmp(owner, feature))
                continue;
            out += help_entry(std::string("  ") + name + (alias ? std::string(" (") + alias + ")" : ""),
                              std::string(help) + "; default " + def + ", accepted: " + range);
        }
    }
    out += "\nExit status: 0 on success, 1 on any error (nothing is written then).\n";
    return out;
}

} // namespace cli
