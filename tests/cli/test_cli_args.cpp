// CLI flags: libvmaf's spellings and forms, every argument error with its
// message and exit status 1, --help (every feature option with default and
// range), --version, output destinations, and the progress line (on a
// pseudo-terminal only, never with -q).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include "tests/cli/cli_runner.h"
#include "tests/common/fixtures.h"
#include "tests/common/json.h"
#include "vmafhip.h"

using clitest::fixture_args;
using clitest::run;

namespace {

const char *const tiny = "minsize_psnr_chroma_2x2_yuv420p__ref_vs_noise20";
const std::string see_help = " (vmafhip --help lists the options)";

// The tiny fixture, psnr only (no model), on the CPU, plus `extra`.
std::vector<std::string> tiny_args(const std::vector<std::string> &extra = {})
{
    std::vector<std::string> args = fixture_args(tiny);
    args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu"});
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

// Runs of blanks and line breaks as one blank: the help text is wrapped.
std::string squeeze(const std::string &s)
{
    std::string out;
    for (char c : s) {
        const bool blank = c == ' ' || c == '\n';
        if (!blank || (!out.empty() && out.back() != ' '))
            out += blank ? ' ' : c;
    }
    return out;
}

void expect_error(const std::vector<std::string> &args, const std::string &message)
{
    const clitest::Result r = run(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(r.err, "vmafhip: " + message + "\n");
}

void expect_error_starting(const std::vector<std::string> &args, const std::string &head,
                           const std::string &contains)
{
    const clitest::Result r = run(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err.rfind("vmafhip: " + head, 0), 0u) << r.err;
    EXPECT_NE(r.err.find(contains), std::string::npos) << r.err;
    EXPECT_EQ(r.err.back(), '\n');
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
}

} // namespace

TEST(CliArgs, MissingInputs)
{
    expect_error({}, "missing -r/--reference: the reference video" + see_help);
    expect_error({"-r", "a.yuv"}, "missing -d/--distorted: the distorted video" + see_help);
}

TEST(CliArgs, UnknownFlags)
{
    expect_error(tiny_args({"--bogus"}), "unknown option '--bogus'" + see_help);
    expect_error(tiny_args({"--bogus=3"}), "unknown option '--bogus=3'" + see_help);
    expect_error(tiny_args({"-x"}), "unknown option '-x'" + see_help);
    expect_error(tiny_args({"extra.yuv"}),
                 "unexpected argument 'extra.yuv': every input is given with an option (-r, -d)" +
                     see_help);
    for (const char *flag : {"aom_ctc", "nflx_ctc"})
        expect_error(tiny_args({std::string("--") + flag, "1"}),
                     std::string("libvmaf's option --") + flag + " is not supported by vmafhip" +
                         see_help);
}

TEST(CliArgs, Values)
{
    expect_error(tiny_args({"-o"}), "option -o/--output needs a value (PATH)");
    expect_error(tiny_args({"--threads"}), "option --threads needs a value (N)");
    expect_error(tiny_args({"-o", ""}), "option -o/--output needs a value (PATH), got ''");
    expect_error(tiny_args({"--json=yes"}), "option --json takes no value (in '--json=yes')");
    expect_error(tiny_args({"-qq"}), "option -q/--quiet takes no value (in '-qq')");
    const std::string range = "' is not a whole number from 0 to 2147483647";
    expect_error(tiny_args({"-w", "abc"}), "-w/--width: 'abc" + range);
    expect_error(tiny_args({"--height=12x"}), "-h/--height: '12x" + range);
    expect_error(tiny_args({"-b", "-8"}), "-b/--bitdepth: '-8" + range);
    expect_error(tiny_args({"--threads", "1.5"}),
                 "--threads: '1.5' is not a whole number from 0 to 1024");
    expect_error(tiny_args({"--device", "99999999999"}), "--device: '99999999999" + range);
    expect_error(tiny_args({"--frame_cnt", "-1"}), "--frame_cnt: '-1" + range);
    // --threads says the library's limit; long values are cut.
    expect_error(tiny_args({"--threads", "-1"}),
                 "--threads: '-1' is not a whole number from 0 to 1024");
    expect_error(tiny_args({"--threads", "5000"}),
                 "--threads: '5000' is not a whole number from 0 to 1024");
    const std::string long_value(200, '4');
    expect_error(tiny_args({"-w", long_value}), "-w/--width: '" + std::string(100, '4') + "..." +
                                                    std::string(40, '4') + "' (200 bytes)" +
                                                    range.substr(1));
    expect_error(tiny_args({"-p", "411"}),
                 "-p/--pixel_format: '411' is not supported: accepted are 420, 422, 444 and 400");
    expect_error(tiny_args({"--backend", "gpu"}),
                 "--backend: 'gpu' is not a backend: accepted are auto, cpu and hip");
}

// The forms libvmaf's getopt_long accepts: "-w 2", "-w2", "--width 2", "--width=2".
TEST(CliArgs, FlagForms)
{
    const std::vector<std::string> forms[] = {
        {"-r", "R", "-d", "D", "-w", "2", "-h", "2", "-p", "420", "-b", "8"},
        {"--reference=R", "--distorted=D", "-w2", "-h2", "-p420", "-b8"},
        {"--reference", "R", "--distorted", "D", "--width=2", "--height", "2",
         "--pixel_format=420", "--bitdepth", "8"},
    };
    const testfx::Fixture &f = testfx::fixture(tiny);
    for (auto args : forms) {
        for (auto &a : args) {
            for (const auto &[from, to] : {std::make_pair(std::string("R"), testfx::path(f.ref)),
                                           std::make_pair(std::string("D"), testfx::path(f.dis))}) {
                const size_t at = a.rfind(from);
                if (at != std::string::npos && at + 1 == a.size())
                    a.replace(at, 1, to);
            }
        }
        args.insert(args.end(), {"-n", "--feature=psnr", "--backend=cpu", "--json", "-o", "-", "-q"});
        const clitest::Result r = run(args);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(testjson::parse(r.out)["frames"].arr.size(), 3u);
    }
}

TEST(CliArgs, NoPredictionAndCompatibilityFlags)
{
    expect_error(tiny_args({"-m"}), "option -m/--model needs a value (PARAMS)");
    expect_error(tiny_args({"--subsample", "0"}),
                 "--subsample: 0 is not valid: 1 scores every frame, N every N-th");
    for (const char *n : {"-n", "--no_prediction"}) {
        std::vector<std::string> args = fixture_args(tiny);
        args.insert(args.end(), {n, "--feature", "psnr", "--backend", "cpu"});
        const clitest::Result r = run(args);
        EXPECT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.out.rfind("psnr_y: ", 0), 0u) << r.out;
    }
    // libvmaf's --cpumask (here: the plain kernels) and --gpumask are accepted, and the
    // scores are the same.
    const clitest::Result plain = run(tiny_args());
    const clitest::Result masked = run(tiny_args({"--cpumask", "63", "--gpumask=1"}));
    EXPECT_EQ(masked.status, 0) << masked.err;
    EXPECT_EQ(masked.out, plain.out);
}

// The spec is the library's to parse: its message, after the spec.
TEST(CliArgs, BadFeatureSpecs)
{
    const std::vector<std::string> base = fixture_args(tiny);
    const struct {
        const char *spec, *contains;
    } cases[] = {
        {"no_such_feature", "unknown feature 'no_such_feature': accepted features are psnr, float_ssim, adm"},
        {"psnr=nope=1", "unknown option 'nope' for feature psnr"},
        {"psnr=enable_chroma=maybe", "'maybe' is not a valid value"},
        {"adm=egl=0", "out of range"},
        {"psnr=enable_chroma", "not of the form option=value"},
    };
    for (const auto &c : cases) {
        std::vector<std::string> args = base;
        args.insert(args.end(), {"-n", "--feature", c.spec});
        expect_error_starting(args, std::string("feature '") + c.spec + "': ", c.contains);
    }
}

TEST(CliArgs, HelpListsEveryFlagAndFeatureOption)
{
    for (const std::vector<std::string> &args :
         {std::vector<std::string>{"--help"}, tiny_args({"--help", "--bogus"})}) {
        const clitest::Result r = run(args);
        ASSERT_EQ(r.status, 0);
        EXPECT_EQ(r.err, "");
        const std::string &h = r.out;
        for (const char *flag :
             {"-r, --reference PATH", "-d, --distorted PATH", "-w, --width N", "-h, --height N",
              "-p, --pixel_format FMT", "-b, --bitdepth N", "--frame_cnt N", "--feature SPEC",
              "-n, --no_prediction", "-m, --model PARAMS", "-o, --output PATH", "--xml", "--json",
              "--csv", "--sub", "--full-precision", "-q, --quiet", "--backend B", "--device N",
              "--threads N", "--subsample N", "--frame_skip_ref N", "--frame_skip_dist N",
              "--cpumask MASK", "--gpumask MASK", "--help", "-v, --version"})
            EXPECT_NE(h.find(flag), std::string::npos) << flag;
        const std::string flat = squeeze(h);
        for (int i = 0; const char *m = vmafhip_builtin_model(i); i++)
            EXPECT_NE(h.find(m), std::string::npos) << m;
        for (int i = 0; i < vmafhip_feature_count(); i++) {
            const char *feature, *about;
            ASSERT_EQ(vmafhip_feature_info(i, &feature, &about), 0);
            EXPECT_NE(flat.find(std::string(" ") + feature + " " + squeeze(about) + " "),
                      std::string::npos)
                << feature;
        }
        ASSERT_GT(vmafhip_option_count(), 0);
        for (int i = 0; i < vmafhip_option_count(); i++) {
            const char *feature, *name, *alias, *help, *def, *range;
            ASSERT_EQ(vmafhip_option_info(i, &feature, &name, &alias, &help, &def, &range), 0);
            EXPECT_NE(h.find(std::string("\n    ") + name + " "), std::string::npos) << name;
            const std::string head = alias ? std::string(name) + " (" + alias + ")" : name;
            EXPECT_NE(flat.find(" " + head + " " + squeeze(help) + "; default " + def +
                                ", accepted: " + range + " "),
                      std::string::npos)
                << name;
        }
        for (const std::string &line : clitest::split(h, '\n'))
            EXPECT_LE(line.size(), 80u) << line;
    }
}

// Everything libvmaf 3.2's CLI takes by name is here: its extractor
// registry (feature_extractor.c, the vmaf_fex_* of the anchor's libvmaf.a)
// and its built-in models (the src_*_json of the same library), each listed
// by --help.
TEST(CliArgs, HelpListsEveryLibvmafExtractorAndModel)
{
    const clitest::Result r = run({"--help"});
    ASSERT_EQ(r.status, 0);
    const std::string flat = squeeze(r.out);
    for (const char *e : {"cambi", "ciede", "float_adm", "float_ansnr", "float_moment",
                          "float_motion", "float_ms_ssim", "float_psnr", "float_ssim", "float_vif",
                          "adm", "motion", "vif", "null", "psnr", "psnr_hvs", "speed_chroma",
                          "speed_temporal"})
        EXPECT_NE(flat.find(std::string(" ") + e + " "), std::string::npos) << e;
    for (const char *m :
         {"vmaf_v0.6.1", "vmaf_v0.6.1neg", "vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1neg", "vmaf_b_v0.6.3",
          "vmaf_float_v0.6.1", "vmaf_float_v0.6.1neg", "vmaf_float_4k_v0.6.1",
          "vmaf_float_b_v0.6.3", "vmaf_v1.0.16_3d0h", "vmaf_v1.0.16_5d0h", "vmaf_v1.0.16_1d5h_2160",
          "vmaf_v1.0.16_3d0h_2160", "vmaf_v1.0.16_hfr_3d0h", "vmaf_v1.0.16_hfr_5d0h",
          "vmaf_v1.0.16_hfr_1d5h_2160", "vmaf_v1.0.16_hfr_3d0h_2160"})
        EXPECT_TRUE(r.out.find(std::string("\n  ") + m + "\n") != std::string::npos ||
                    r.out.find(std::string("\n  ") + m + " (the default)\n") != std::string::npos)
            << m;
}

TEST(CliArgs, Version)
{
    for (const char *flag : {"--version", "-v"}) {
        const clitest::Result r = run({flag});
        EXPECT_EQ(r.status, 0);
        EXPECT_EQ(r.out, std::string("vmafhip ") + vmafhip_version() + "\n");
    }
}

TEST(CliArgs, LibraryRejectsSettings)
{
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    s.width = s.height = 2;
    s.features = "psnr";
    s.models = nullptr;
    s.threads = 5000;
    s.log_callback = [](void *, VmafHipLogLevel, const char *, va_list) {};
    VmafHipContext *c = nullptr;
    ASSERT_LT(vmafhip_open(&c, &s), 0);

    if (vmafhip_device_count() > 0)
        return; // with a GPU, backend=hip works
    s.threads = 0;
    s.backend = VMAFHIP_BACKEND_HIP;
    ASSERT_LT(vmafhip_open(&c, &s), 0);
    std::vector<std::string> args = tiny_args({"--backend", "hip"});
    expect_error(args, vmafhip_last_error(nullptr));

    // auto without a GPU: a warning, then the CPU scores.
    args.back() = "auto";
    const clitest::Result r = run(args);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err.rfind("vmafhip: warning: no GPU backend", 0), 0u) << r.err;
}

TEST(CliOutput, Destinations)
{
    // "-": the log on stdout and nothing else.
    clitest::Result r = run(tiny_args({"--csv", "-o", "-"}));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("Frame,psnr_y,psnr_cb,psnr_cr,\n0,", 0), 0u) << r.out;

    // A file: the log there, nothing on stdout; an existing file is replaced.
    const std::string path = clitest::scratch("out.json");
    clitest::write_file(path, std::string(100000, 'x'));
    r = run(tiny_args({"--json", "-o", path}));
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(testjson::parse(clitest::read_file(path))["frames"].arr.size(), 3u);

    expect_error(tiny_args({"-o", "/nonexistent-vmafhip/out.json"}),
                 "cannot write the log to '/nonexistent-vmafhip/out.json': No such file or "
                 "directory");
    expect_error(tiny_args({"-o", path + "/x.json"}),
                 "cannot write the log to '" + path + "/x.json': Not a directory");
    const std::string folder = clitest::scratch("");
    expect_error(tiny_args({"-o", folder}), "cannot write the log to '" + folder +
                                                "': it is a folder");
    // Passes the early check, fails in the write: the library's message.
    expect_error(tiny_args({"-o", "/dev/full"}),
                 "cannot write log file '/dev/full': No space left on device");

    // A link: written through, the link stays.
    const std::string target = clitest::scratch("target.json"), link = clitest::scratch("link.json");
    clitest::write_file(target, "old content");
    ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
    r = run(tiny_args({"--json", "-o", link}));
    EXPECT_EQ(r.status, 0) << r.err;
    struct stat st;
    ASSERT_EQ(lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    EXPECT_EQ(testjson::parse(clitest::read_file(target))["frames"].arr.size(), 3u);
}

// Standard output that cannot be written (a full disk) fails the run, as
// the help's exit status says: the summary without -o, the log with -o -,
// the help.
TEST(CliOutput, UnwritableStandardOutput)
{
    if (access("/dev/full", W_OK))
        GTEST_SKIP() << "no /dev/full";
    const std::string full = "/dev/full";
    clitest::Result r = run(tiny_args(), false, 0, full);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "vmafhip: cannot write to standard output: No space left on device\n");
    r = run(tiny_args({"--json", "-o", "-"}), false, 0, full);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "vmafhip: cannot write log file 'standard output': No space left on device\n");
    r = run({"--help"}, false, 0, full);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.err, "vmafhip: cannot write to standard output: No space left on device\n");
}

TEST(CliProgress, OnATerminalOnly)
{
    const std::vector<std::string> args = fixture_args("natural1_576x324_yuv420p__ref_vs_x264crf38");
    auto with = [&](const std::vector<std::string> &extra) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"-n", "--feature", "psnr", "--backend", "cpu", "-o", clitest::scratch("p.xml")});
        a.insert(a.end(), extra.begin(), extra.end());
        return a;
    };
    clitest::Result r = run(with({}), true);
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.err.find("\rframe 10/10 fps "), std::string::npos) << r.err;
    EXPECT_EQ(r.err.substr(r.err.size() - 2), "\r\n"); // the line ends (the pty adds the \r)

    r = run(with({"--frame_cnt", "4"}), true);
    EXPECT_NE(r.err.find("\rframe 4/4 fps "), std::string::npos) << r.err;

    r = run(with({"-q"}), true);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");

    r = run(with({}), false);
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.err, "");
}

// A run that fails after drawing progress ends the line first, so the error
// starts a line of its own: a frame, a pause (the line is drawn at most
// every 100 ms), two more frames and a partial one.
TEST(CliProgress, ErrorStartsItsOwnLine)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    const size_t frame = 279936;
    const std::string fifo = clitest::scratch("slow.fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::string data = clitest::read_file(testfx::path(f.ref)).substr(0, 3 * frame + 1000);
    const int writer = clitest::feed_fifo(fifo, data, frame, 300);
    std::vector<std::string> args = fixture_args(f.name);
    args[1] = fifo;
    args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu"});
    const clitest::Result r = run(args, true);
    clitest::finish_feed(writer);
    EXPECT_EQ(r.status, 1);
    const std::string msg = "vmafhip: reference '" + fifo + "' ends inside frame 3";
    const size_t at = r.err.find(msg);
    ASSERT_NE(at, std::string::npos) << r.err;
    EXPECT_EQ(r.err.rfind("\rframe ", 0), 0u) << r.err;
    EXPECT_EQ(r.err.substr(at - 5, 5), "\033[K\r\n") << r.err; // line ended, then the message
}
