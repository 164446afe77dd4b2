// vmafhip: the command-line scorer, a stand-in for libvmaf's `vmaf` tool.
// Parse the flags, open both inputs, settle the frame format, open a
// context, score frame pairs as they are read, then write the log (-o) and
// print the pooled model scores as libvmaf does (on a terminal), or without
// -o the pooled model scores and the pooled mean of every feature.
//
// Failures exit with status 1 and one message on stderr. A frame the library
// cannot score (e.g. -ERANGE: a 10-bit sample above 1023) stops the run and
// nothing is written: a log without that frame would pool the others as if
// the video were shorter, a wrong number the user did not ask for.
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <system_error>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include "args.h"
#include "quote.h"
#include "format.h"
#include "clip.h"
#include "input.h"
#include "progress.h"
#include "reader.h"
#include "vmafhip.h"

using namespace cli;

namespace {

struct ContextCloser {
    void operator()(VmafHipContext *c) const { vmafhip_close(&c); }
};
using Context = std::unique_ptr<VmafHipContext, ContextCloser>;

// Library errors are kept, not printed: the CLI prints each failure once,
// with what it was doing. Warnings (e.g. no GPU, scoring on the CPU) print.
struct LogSink {
    std::string last_error;
};

void log_message(void *cookie, VmafHipLogLevel level, const char *fmt, va_list vl)
{
    char buf[2048];
    std::vsnprintf(buf, sizeof(buf), fmt, vl);
    std::string msg(buf);
    if (!msg.empty() && msg.back() == '\n')
        msg.pop_back();
    if (level == VMAFHIP_LOG_ERROR)
        static_cast<LogSink *>(cookie)->last_error = msg;
    else
        std::fprintf(stderr, "vmafhip: %s: %s\n", level == VMAFHIP_LOG_WARNING ? "warning" : "info",
                     msg.c_str());
}

// Specs joined with '|', the library's list separator.
std::string join(const std::vector<std::string> &specs)
{
    std::string out;
    for (const auto &s : specs)
        out += (out.empty() ? "" : "|") + s;
    return out;
}

int fail(const std::string &msg)
{
    std::fprintf(stderr, "vmafhip: %s\n", msg.c_str());
    return 1;
}

// A .y4m header sets the format, and flags given as well must agree with it;
// raw .yuv needs all four flags.
int resolve_format(const Options &o, const Input &ref, const Input &dis, Format *fmt,
                   std::string *err)
{
    const Format *r = ref.declared(), *d = dis.declared();
    if (r && d && *r != *d) {
        *err = ref.label() + " is " + describe(*r) + " but " + dis.label() + " is " +
               describe(*d) + ": both inputs must have the same size and pixel format";
        return -1;
    }
    if (r || d) {
        const Format &h = r ? *r : *d;
        const std::string where = "the y4m header of " + (r ? ref : dis).label();
        auto disagree = [&](const char *flag, const std::string &given, const std::string &said) {
            *err = std::string(flag) + " is " + given + " but " + where + " says " + said +
                   ": leave the flag out or make it match";
            return -1;
        };
        if (o.width >= 0 && o.width != h.w)
            return disagree("-w/--width", std::to_string(o.width), std::to_string(h.w));
        if (o.height >= 0 && o.height != h.h)
            return disagree("-h/--height", std::to_string(o.height), std::to_string(h.h));
        if (o.chroma >= 0 && o.chroma != h.chroma)
            return disagree("-p/--pixel_format", chroma_name(static_cast<VmafHipChroma>(o.chroma)),
                            chroma_name(h.chroma));
        if (o.bitdepth >= 0 && o.bitdepth != h.bpc)
            return disagree("-b/--bitdepth", std::to_string(o.bitdepth), std::to_string(h.bpc));
        *fmt = h;
        return 0;
    }
    const char *missing = o.width < 0      ? "-w/--width"
                          : o.height < 0   ? "-h/--height"
                          : o.chroma < 0   ? "-p/--pixel_format"
                          : o.bitdepth < 0 ? "-b/--bitdepth"
                                           : nullptr;
    if (missing) {
        *err = std::string("raw .yuv input needs -w/--width, -h/--height, -p/--pixel_format and "
                           "-b/--bitdepth: ") +
               missing + " is missing";
        return -1;
    }
    fmt->w = o.width;
    fmt->h = o.height;
    fmt->chroma = static_cast<VmafHipChroma>(o.chroma);
    fmt->bpc = o.bitdepth;
    return 0;
}

// Checked before scoring so that a long run does not end in a path error;
// vmafhip_write_log() still reports any error of the real write.
int check_writable(const std::string &path, std::string *err)
{
    if (path.empty() || path == "-")
        return 0;
    struct stat st;
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash ? slash : 1);
    const char *why = nullptr;
    if (!stat(path.c_str(), &st))
        why = S_ISDIR(st.st_mode) ? "it is a folder"
              : access(path.c_str(), W_OK) ? std::strerror(errno)
                                           : nullptr;
    else if (errno != ENOENT || access(dir.c_str(), W_OK | X_OK))
        why = std::strerror(errno);
    if (!why)
        return 0;
    *err = "cannot write the log to " + cli::quote_cut(path) + ": " + why;
    return -1;
}

// Read and drop the first n frames of an input (--frame_skip_ref/_dist).
int skip(Input &in, int n, const Format &fmt, std::string *err)
{
    std::vector<uint8_t> buf(n ? frame_bytes(fmt) : 0);
    for (int i = 0; i < n; i++) {
        const int r = in.read(buf.data(), err);
        if (r < 0)
            return -1;
        if (!r) {
            *err = in.label() + " has only " + std::to_string(i) + " frames: cannot skip " +
                   std::to_string(n);
            return -1;
        }
    }
    return 0;
}

// Frame pairs the run scores, for the progress line: -1 when no input's
// length is known before it is read (.y4m, pipes) and there is no --frame_cnt.
long long expected_frames(const Options &o, const Input &ref, const Input &dis)
{
    return frames_to_score(ref.frame_count(), dis.frame_count(), o.skip_ref, o.skip_dist,
                           o.frame_cnt);
}

// At most about the frame pairs the run scores, before the inputs are
// started: from the files' sizes over a frame's (.y4m FRAME lines aside; the
// inputs are checked later, once the library has taken the format); a pipe's
// length is unknown.
long long clip_frames(const Options &o, const Format &fmt, const Input &ref, const Input &dis)
{
    const auto bytes = static_cast<long long>(frame_bytes(fmt));
    const auto frames = [bytes](const Input &in) {
        const long long size = in.file_size();
        return size < 0 || bytes <= 0 ? -1 : size / bytes;
    };
    return frames_to_score(frames(ref), frames(dis), o.skip_ref, o.skip_dist, o.frame_cnt);
}

// Frames of the input whose reader did not end: known from its size, or
// counted by reading it to its end when it is a regular file. A pipe or a
// device may never end (/dev/zero, a FIFO whose writer keeps it open): -2,
// only "more than the frames read" is known.
long long total_frames(const Input &in, FrameReader &reader, std::string *err)
{
    if (in.frame_count() >= 0)
        return in.frame_count();
    if (!in.positional())
        return -2;
    std::unique_ptr<Frame> f;
    int r;
    while ((r = reader.next(&f, err)) > 0)
        f.reset();
    return r < 0 ? -1 : reader.frames_read();
}

// Read (a thread per input) and submit frame pairs until an input ends or
// --frame_cnt is reached. @return frames scored, or -1 with *err set.
long long score(VmafHipContext *ctx, const Options &o, const Format &fmt, Input &ref, Input &dis,
                std::string *err)
{
    Progress progress(!o.quiet && isatty(STDERR_FILENO), expected_frames(o, ref, dis));
    FrameReader ref_reader(ctx, ref, fmt, o.frame_cnt), dis_reader(ctx, dis, fmt, o.frame_cnt);
    unsigned n = 0, done = 0;
    int rr, dr;
    for (;;) {
        std::unique_ptr<Frame> rf, df;
        if ((rr = ref_reader.next(&rf, err)) < 0 || (dr = dis_reader.next(&df, err)) < 0)
            return -1;
        if (!rr || !dr)
            break;
        if (vmafhip_submit(ctx, &df->picture(), &rf->picture()) < 0) {
            *err = vmafhip_last_error(ctx);
            return -1;
        }
        n++;
        // Collect what is done without waiting: a frame error stops the run
        // at once, and the progress line counts scored frames.
        const double *values;
        int ret;
        while (done < n && (ret = vmafhip_frame_scores(ctx, done, 0, &values)) != -EAGAIN) {
            if (ret < 0) {
                *err = std::string(vmafhip_last_error(ctx)) + "; nothing was written";
                return -1;
            }
            done++;
        }
        progress.update(done);
    }
    if (!n) {
        *err = "no frame to score: " + (rr ? dis : ref).label() + " has no frames";
        return -1;
    }
    if (vmafhip_flush(ctx) < 0) {
        *err = std::string(vmafhip_last_error(ctx)) + "; nothing was written";
        return -1;
    }
    progress.finish(n);
    if (rr != dr) {
        // One input ended; the other (whose last read succeeded) is longer.
        Input &longer = rr ? ref : dis;
        const long long total = total_frames(longer, rr ? ref_reader : dis_reader, err);
        if (total == -1)
            return -1;
        const std::string count =
            total >= 0 ? "has " + std::to_string(total) + " frames"
                       : "has more than " + std::to_string(n) +
                             " frames (not read further: a pipe or device has no size)";
        std::fprintf(stderr,
                     "vmafhip: warning: %s %s and %s has %u: scored the %u frames both have "
                     "(libvmaf also stops at the shorter input)\n",
                     longer.label().c_str(), count.c_str(), (rr ? dis : ref).label().c_str(), n, n);
    }
    return n;
}

// The index of feature `name`, or -1.
int feature_index(VmafHipContext *ctx, const std::string &name)
{
    const char *const *names;
    const int n = vmafhip_feature_names(ctx, &names);
    for (int i = 0; i < n; i++)
        if (name == names[i])
            return i;
    return -1;
}

// libvmaf's lines for each model: "<version or path>: <pooled mean>", and
// for a bootstrap model a second line with its bagging score, 95 %
// interval and spread.
void print_models(VmafHipContext *ctx, bool full_precision, FILE *f)
{
    const char *const num = full_precision ? "%.17g" : "%f";
    for (int k = 0; k < vmafhip_model_count(ctx); k++) {
        const char *source;
        int main_score;
        VmafHipPooled p;
        vmafhip_model_info(ctx, k, &source, &main_score);
        if (vmafhip_pooled(ctx, main_score, &p) < 0)
            continue;
        std::fprintf(f, "%s: ", source);
        std::fprintf(f, num, p.mean);
        std::fprintf(f, "\n");
        const char *const *names;
        vmafhip_feature_names(ctx, &names);
        const std::string base = names[main_score];
        const int bagging = feature_index(ctx, base + "_bagging");
        if (bagging < 0)
            continue;
        VmafHipPooled b, lo, hi, sd;
        vmafhip_pooled(ctx, bagging, &b);
        vmafhip_pooled(ctx, feature_index(ctx, base + "_ci_p95_lo"), &lo);
        vmafhip_pooled(ctx, feature_index(ctx, base + "_ci_p95_hi"), &hi);
        vmafhip_pooled(ctx, feature_index(ctx, base + "_stddev"), &sd);
        const std::string line = std::string("%s: ") + num + ", ci.p95: [" + num + ", " + num +
                                 "], stddev: " + num + "\n";
        std::fprintf(f, line.c_str(), source, b.mean, lo.mean, hi.mean, sd.mean);
    }
}

// "name: value" lines: the pooled mean of each feature that is not a model
// score, then the end-of-stream aggregates.
void print_summary(VmafHipContext *ctx, bool full_precision)
{
    const char *const fmt = full_precision ? "%s: %.17g\n" : "%s: %.6f\n";
    const char *const *names;
    const int n = vmafhip_feature_names(ctx, &names);
    int first_model = n;
    for (int k = 0; k < vmafhip_model_count(ctx); k++) {
        int main_score;
        vmafhip_model_info(ctx, k, nullptr, &main_score);
        first_model = main_score < first_model ? main_score : first_model;
    }
    for (int i = 0; i < first_model; i++) {
        VmafHipPooled p;
        if (!vmafhip_pooled(ctx, i, &p))
            std::printf(fmt, names[i], p.mean);
    }
    const double *values;
    const int na = vmafhip_aggregate_scores(ctx, &names, &values);
    for (int i = 0; i < na; i++)
        std::printf(fmt, names[i], values[i]);
}

int run(const Options &o)
{
    LogSink sink;
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    s.log_callback = log_message;
    s.log_cookie = &sink;
    s.log_level = VMAFHIP_LOG_WARNING;
    // libvmaf's CLI: the default model unless -n or -m; features besides.
    const std::string features = join(o.features), models = join(o.models);
    s.features = features.c_str();
    s.models = o.no_prediction ? nullptr : o.models.empty() ? s.models : models.c_str();
    s.n_subsample = o.subsample;
    s.backend = o.backend;
    s.device = o.device;
    s.threads = o.threads;
    s.cpumask = static_cast<unsigned>(o.cpumask);

    std::string err;
    const auto ref = open_input(o.reference, "reference", &err);
    if (!ref)
        return fail(err);
    const auto dis = open_input(o.distorted, "distorted", &err);
    if (!dis)
        return fail(err);
    Format fmt;
    if (resolve_format(o, *ref, *dis, &fmt, &err) < 0)
        return fail(err);
    s.width = fmt.w;
    s.height = fmt.h;
    s.bitdepth = fmt.bpc;
    s.chroma = fmt.chroma;
    s.gpu_wait = o.gpu_wait || wait_for_gpu(clip_frames(o, fmt, *ref, *dis), fmt);
    VmafHipContext *raw_ctx;
    if (vmafhip_open(&raw_ctx, &s) < 0)
        return fail(vmafhip_last_error(nullptr));
    const Context ctx(raw_ctx);
    if (ref->start(fmt, &err) < 0 || dis->start(fmt, &err) < 0 ||
        skip(*ref, o.skip_ref, fmt, &err) < 0 || skip(*dis, o.skip_dist, fmt, &err) < 0 ||
        check_writable(o.output, &err) < 0 || score(ctx.get(), o, fmt, *ref, *dis, &err) < 0)
        return fail(err);

    if (!o.output.empty() &&
        vmafhip_write_log(ctx.get(), o.output.c_str(), o.format,
                          o.full_precision ? VMAFHIP_LOG_FULL_PRECISION : 0) < 0)
        return fail(vmafhip_last_error(ctx.get()));
    // Without -o the summary is the output. With a log, libvmaf prints the
    // model lines on a terminal only, on stderr (the log may be on stdout).
    if (o.output.empty()) {
        print_models(ctx.get(), o.full_precision, stdout);
        print_summary(ctx.get(), o.full_precision);
    } else if (isatty(STDERR_FILENO)) {
        print_models(ctx.get(), o.full_precision, stderr);
    }
    return 0;
}

// What was printed on standard output must have reached it (a full disk,
// /dev/full): otherwise the run failed, as the help's exit status says.
// An error already reported is not reported twice.
int flush_stdout(int status)
{
    errno = 0;
    if ((std::fflush(stdout) || std::ferror(stdout)) && status == 0)
        return fail(std::string("cannot write to standard output: ") +
                    std::strerror(errno ? errno : EIO));
    return status;
}

int run_main(int argc, char **argv)
{
    Options o;
    Action action;
    std::string err;
    if (parse_args(argc, argv, &o, &action, &err) < 0)
        return fail(err);
    if (action == Action::Help) {
        std::fputs(help_text().c_str(), stdout);
        return 0;
    }
    if (action == Action::Version) {
        std::printf("vmafhip %s\n", vmafhip_version());
        return 0;
    }
    try {
        return run(o);
    } catch (const std::bad_alloc &) {
        return fail("out of memory (frame buffers of the given size)");
    } catch (const std::system_error &e) {
        return fail(std::string("cannot start a thread to read the inputs: ") + e.what());
    }
}

} // namespace

int main(int argc, char **argv)
{
    // What goes to standard output (the summary, the help) stays in the
    // buffer until the end, so that a failed write is seen with its errno
    // by flush_stdout() and not lost in an earlier printf.
    static char out_buffer[1 << 16];
    std::setvbuf(stdout, out_buffer, _IOFBF, sizeof(out_buffer));
    return flush_stdout(run_main(argc, argv));
}
