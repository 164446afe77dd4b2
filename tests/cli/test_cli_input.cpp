// CLI input: .y4m (every colorspace family, mono, 10-bit, odd sizes, FRAME
// parameters) scores exactly as the same frames in raw .yuv; the header is
// authoritative; and every input error exits 1 with its own message.
#include <gtest/gtest.h>

#include <cmath>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/cli/cli_runner.h"
#include "tests/common/fixtures.h"
#include "tests/common/json.h"
#include "vmafhip.h"

using clitest::fixture_args;
using clitest::run;
using clitest::scratch;
using testjson::Value;

namespace {

size_t frame_bytes(const testfx::Fixture &f)
{
    return testfx::Clip(f.ref, f.w, f.h, f.bpc, f.chroma).frame_bytes();
}

// The flags for what a fixture's golden holds: --feature per feature, and
// its model (-m) or none (-n).
std::vector<std::string> feature_args(const testfx::Fixture &f)
{
    std::vector<std::string> out;
    for (const auto &feature : clitest::split(f.features, '|'))
        out.insert(out.end(), {"--feature", feature});
    if (f.models.empty())
        out.push_back("-n");
    else
        out.insert(out.end(), {"-m", f.models});
    return out;
}

// A full-precision JSON log of a run that must succeed quietly.
Value run_log(std::vector<std::string> args)
{
    args.insert(args.end(), {"--backend", "cpu", "--json", "--full-precision", "-o", "-"});
    const clitest::Result r = run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return testjson::parse(r.out);
}

bool same_number(const Value &a, const Value &b)
{
    return a.type == b.type && (a.type == Value::Null || a.num == b.num);
}

// Same frames, names (in order) and values, same pooled statistics.
void expect_same_scores(const Value &a, const Value &b)
{
    ASSERT_EQ(a["frames"].arr.size(), b["frames"].arr.size());
    ASSERT_FALSE(a["frames"].arr.empty());
    for (size_t i = 0; i < a["frames"].arr.size(); i++) {
        const auto &ma = a["frames"].arr[i]["metrics"].obj, &mb = b["frames"].arr[i]["metrics"].obj;
        ASSERT_EQ(ma.size(), mb.size());
        for (size_t j = 0; j < ma.size(); j++) {
            EXPECT_EQ(ma[j].first, mb[j].first);
            EXPECT_TRUE(same_number(ma[j].second, mb[j].second))
                << "frame " << i << " " << ma[j].first << ": " << ma[j].second.num << " vs "
                << mb[j].second.num;
        }
    }
    const auto &pa = a["pooled_metrics"].obj, &pb = b["pooled_metrics"].obj;
    ASSERT_EQ(pa.size(), pb.size());
    for (size_t j = 0; j < pa.size(); j++)
        for (const char *s : {"min", "max", "mean", "harmonic_mean"})
            EXPECT_TRUE(same_number(pa[j].second[s], pb[j].second[s])) << pa[j].first << " " << s;
}

// Both clips of a fixture as .y4m files with colorspace tag `tag`.
std::vector<std::string> y4m_pair(const testfx::Fixture &f, const std::string &tag,
                                  const std::string &frame_params = "", int frames = -1)
{
    const std::string ref = scratch(f.name + "_" + tag + "_ref.y4m");
    const std::string dis = scratch(f.name + "_" + tag + "_dis.y4m");
    clitest::make_y4m(ref, testfx::path(f.ref), f.w, f.h, tag, frame_bytes(f), frames, frame_params);
    clitest::make_y4m(dis, testfx::path(f.dis), f.w, f.h, tag, frame_bytes(f), frames, frame_params);
    return {"-r", ref, "-d", dis};
}

// The message vmafhip_open() gives for these settings, which the CLI must
// print as is.
std::string open_error(int w, int h, int bpc, const char *features, VmafHipBackend backend)
{
    VmafHipSettings s = testfx::settings(w, h, bpc, VMAFHIP_CHROMA_420, features);
    s.backend = backend;
    s.log_callback = [](void *, VmafHipLogLevel, const char *, va_list) {};
    VmafHipContext *c = nullptr;
    EXPECT_LT(vmafhip_open(&c, &s), 0);
    vmafhip_close(&c);
    return vmafhip_last_error(nullptr);
}

clitest::Result run_expecting_failure(std::vector<std::string> args)
{
    args.insert(args.end(), {"--backend", "cpu"});
    const clitest::Result r = run(args);
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "");
    return r;
}

const char *const natural1 = "natural1_576x324_yuv420p__ref_vs_x264crf38";
const char *const natural2 = "natural2_352x288_yuv420p10le__ref_vs_x265crf32";

} // namespace

TEST(CliY4m, ScoresEqualRawYuv)
{
    const struct {
        const char *fixture;
        const char *tag; // "" = no C tag: 420jpeg
        const char *frame_params;
    } cases[] = {
        {natural1, "420jpeg", ""},
        {"natural1_576x324_yuv420p__ref_vs_mpeg2q28", "", ""},
        {natural2, "420p10", ""},
        {"natural3_97x61_yuv420p__ref_vs_mjpegq24", "420", ""}, // odd: ceil chroma
        {"natural4_176x144_yuv422p__ref_vs_x264crf34", "422", " Ixyz"},
        {"natural5_176x144_yuv444p__ref_vs_mjpegq20", "444", ""},
        {"natural6_176x144_gray__ref_vs_gblur1p2noise12", "mono", ""},
        {"minsize_psnr_chroma_2x2_yuv420p__ref_vs_noise20", "420mpeg2", ""},
        {"minsize_psnr_1x1_yuv420p__ref_vs_noise20", "420paldv", ""},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(std::string(c.fixture) + " C" + c.tag);
        const testfx::Fixture &f = testfx::fixture(c.fixture);
        std::vector<std::string> raw = fixture_args(f.name), y4m = y4m_pair(f, c.tag, c.frame_params);
        for (const auto &a : feature_args(f)) {
            raw.push_back(a);
            y4m.push_back(a);
        }
        const Value want = run_log(raw);
        EXPECT_EQ(want["frames"].arr.size(), static_cast<size_t>(f.frames));
        expect_same_scores(run_log(y4m), want);
    }
}

// 10-bit gray: the luma planes of the 10-bit fixture, as raw -p 400 -b 10
// and as a Cmono10 .y4m.
TEST(CliY4m, Mono10ScoresEqualRawYuv)
{
    const testfx::Fixture &f = testfx::fixture(natural2);
    const size_t luma = static_cast<size_t>(f.w) * f.h * 2;
    std::vector<std::string> raw = {"-w", std::to_string(f.w), "-h", std::to_string(f.h), "-p",
                                    "400", "-b", "10"};
    std::vector<std::string> y4m;
    for (const auto &[clip, flag] : {std::make_pair(f.ref, "-r"), std::make_pair(f.dis, "-d")}) {
        const std::string data = clitest::read_file(testfx::path(clip));
        std::string gray;
        for (size_t at = 0; at < data.size(); at += frame_bytes(f))
            gray += data.substr(at, luma);
        const std::string raw_path = scratch(std::string("gray10") + flag + ".yuv");
        const std::string y4m_path = scratch(std::string("gray10") + flag + ".y4m");
        clitest::write_file(raw_path, gray);
        clitest::make_y4m(y4m_path, raw_path, f.w, f.h, "mono10", luma);
        raw.insert(raw.end(), {flag, raw_path});
        y4m.insert(y4m.end(), {flag, y4m_path});
    }
    const Value want = run_log(raw);
    ASSERT_EQ(want["frames"].arr.size(), 6u);
    EXPECT_EQ(want["frames"].arr[0]["metrics"].get("psnr_cb"), nullptr); // luma only
    expect_same_scores(run_log(y4m), want);
}

// FRAME lines of different lengths in one file (each frame is found from the
// one before it), from a file and from a pipe, every plane read (psnr) or
// luma only (the model), score as the raw frames.
TEST(CliY4m, FrameLinesOfDifferentLengths)
{
    const testfx::Fixture &f = testfx::fixture(natural1);
    const std::string data = clitest::read_file(testfx::path(f.dis));
    std::string y4m = "YUV4MPEG2 W576 H324 F25:1 C420jpeg\n";
    for (size_t at = 0, i = 0; at < data.size(); at += frame_bytes(f), i++)
        y4m += std::string(i % 3 == 0 ? "FRAME\n" : i % 3 == 1 ? "FRAME Ip\n" : "FRAME Ib XA=1:1\n") +
               data.substr(at, frame_bytes(f));
    const std::string path = scratch("frame-lines.y4m"), fifo = scratch("dis-y4m.fifo");
    clitest::write_file(path, y4m);
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    for (const std::vector<std::string> &flags : {std::vector<std::string>{"-n", "--feature", "psnr"},
                                                  std::vector<std::string>{"-m", "version=vmaf_v0.6.1"}}) {
        SCOPED_TRACE(flags[1]);
        std::vector<std::string> args = fixture_args(f.name);
        args.insert(args.end(), flags.begin(), flags.end());
        const Value want = run_log(args);
        args[3] = path;
        expect_same_scores(run_log(args), want);
        const int writer = clitest::feed_fifo(fifo, y4m);
        args[3] = fifo;
        expect_same_scores(run_log(args), want);
        clitest::finish_feed(writer);
    }
}

// One .y4m sets the format of a raw .yuv beside it; flags that agree are fine.
TEST(CliY4m, HeaderSetsTheFormat)
{
    const testfx::Fixture &f = testfx::fixture(natural2);
    const Value want = run_log(fixture_args(f.name));
    const std::vector<std::string> y4m = y4m_pair(f, "420p10");
    expect_same_scores(run_log({"-r", y4m[1], "-d", testfx::path(f.dis)}), want);
    expect_same_scores(run_log({"-r", testfx::path(f.ref), "-d", y4m[3]}), want);
    std::vector<std::string> agreeing = y4m;
    agreeing.insert(agreeing.end(), {"-w", "352", "-h", "288", "-p", "420", "-b", "10"});
    expect_same_scores(run_log(agreeing), want);
}

TEST(CliY4m, FlagsThatDisagreeWithTheHeader)
{
    const testfx::Fixture &f = testfx::fixture(natural2);
    const std::vector<std::string> y4m = y4m_pair(f, "420p10");
    const std::string where = "the y4m header of reference '" + y4m[1] + "' says ";
    const struct {
        std::vector<std::string> flags;
        std::string message;
    } cases[] = {
        {{"-w", "576"}, "-w/--width is 576 but " + where + "352"},
        {{"-h", "287"}, "-h/--height is 287 but " + where + "288"},
        {{"-p", "444"}, "-p/--pixel_format is 444 but " + where + "420"},
        {{"-b", "8"}, "-b/--bitdepth is 8 but " + where + "10"},
    };
    for (const auto &c : cases) {
        std::vector<std::string> args = y4m;
        args.insert(args.end(), c.flags.begin(), c.flags.end());
        const clitest::Result r = run_expecting_failure(args);
        EXPECT_EQ(r.err, "vmafhip: " + c.message + ": leave the flag out or make it match\n");
    }
}

TEST(CliY4m, InputsOfDifferentFormats)
{
    const std::vector<std::string> a = y4m_pair(testfx::fixture(natural1), "420jpeg");
    const std::vector<std::string> b = y4m_pair(testfx::fixture(natural2), "420p10");
    const clitest::Result r = run_expecting_failure({"-r", a[1], "-d", b[3]});
    EXPECT_EQ(r.err, "vmafhip: reference '" + a[1] + "' is 576x324 4:2:0 8-bit but distorted '" +
                         b[3] + "' is 352x288 4:2:0 10-bit: both inputs must have the same size "
                                "and pixel format\n");
}

TEST(CliY4m, BadHeaders)
{
    const std::string two_frames(12, '\x80'); // 2x2 4:2:0 8-bit: 6 bytes a frame
    const struct {
        const char *file;
        std::string content;
        std::string message;
    } cases[] = {
        {"raw.y4m", two_frames, "the file does not start with \"YUV4MPEG2 \""},
        {"now.y4m", "YUV4MPEG2 H2 C420jpeg\nFRAME\n" + two_frames.substr(6), "it has no W (width) tag"},
        {"noh.y4m", "YUV4MPEG2 W2 C420jpeg\nFRAME\n" + two_frames.substr(6), "it has no H (height) tag"},
        {"w0.y4m", "YUV4MPEG2 W0 H2\n", "width W0 is not a positive whole number"},
        {"hx.y4m", "YUV4MPEG2 W2 H2x\n", "height H2x is not a positive whole number"},
        {"c411.y4m", "YUV4MPEG2 W2 H2 C411\n",
         "colorspace C411 is not supported: accepted are 420jpeg, 420paldv, 420mpeg2, 420, 422, "
         "444, mono, and 420p10, 422p10, 444p10, mono10 and their 12- and 16-bit forms"},
        {"cut.y4m", "YUV4MPEG2 W2 H2", "the file ends inside it"},
        {"long.y4m", "YUV4MPEG2 W2 H2 X" + std::string(5000, 'x') + "\n",
         "its first line is longer than 4096 bytes"},
    };
    for (const auto &c : cases) {
        const std::string path = scratch(c.file);
        clitest::write_file(path, c.content);
        const clitest::Result r = run_expecting_failure({"-r", path, "-d", path});
        EXPECT_EQ(r.err, "vmafhip: bad y4m header in reference '" + path + "': " + c.message + "\n");
    }
}

TEST(CliY4m, BadFrameLine)
{
    const std::string path = scratch("framx.y4m");
    clitest::write_file(path, "YUV4MPEG2 W2 H2\nFRAME\n123456FRAMX\n123456");
    const clitest::Result r = run_expecting_failure({"-r", path, "-d", path, "-n", "--feature", "psnr"});
    EXPECT_EQ(r.err, "vmafhip: bad y4m frame in reference '" + path +
                         "': frame 1 (counted from 0) does not start with a FRAME line\n");
}

TEST(CliY4m, NoFrames)
{
    const std::string empty = scratch("header-only.y4m");
    clitest::write_file(empty, "YUV4MPEG2 W2 H2 C420jpeg\n");
    const std::vector<std::string> y4m =
        y4m_pair(testfx::fixture("minsize_psnr_chroma_2x2_yuv420p__ref_vs_noise20"), "420jpeg");
    for (const bool ref_empty : {true, false}) {
        const clitest::Result r = run_expecting_failure(
            {"-r", ref_empty ? empty : y4m[1], "-d", ref_empty ? y4m[3] : empty, "-n", "--feature", "psnr"});
        EXPECT_EQ(r.err, std::string("vmafhip: no frame to score: ") +
                             (ref_empty ? "reference '" : "distorted '") + empty +
                             "' has no frames\n");
    }
}

TEST(CliY4m, TruncatedFrame)
{
    const testfx::Fixture &f = testfx::fixture(natural1);
    const std::vector<std::string> y4m = y4m_pair(f, "420jpeg");
    const std::string data = clitest::read_file(y4m[3]);
    clitest::write_file(y4m[3], data.substr(0, data.size() - 100));
    const std::string log = scratch("truncated.json");
    const clitest::Result r =
        run_expecting_failure({"-r", y4m[1], "-d", y4m[3], "-n", "--feature", "psnr", "-o", log});
    EXPECT_EQ(r.err, "vmafhip: truncated y4m frame in distorted '" + y4m[3] +
                         "': frame 9 (counted from 0) has 279836 of its 279936 bytes\n");
    EXPECT_FALSE(clitest::file_exists(log));
}

TEST(CliYuv, MissingOrUnreadableFiles)
{
    const testfx::Fixture &f = testfx::fixture(natural1);
    std::vector<std::string> args = fixture_args(f.name);
    args[1] = "/nonexistent-vmafhip/ref.yuv";
    clitest::Result r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: cannot open reference '/nonexistent-vmafhip/ref.yuv': No such file "
                     "or directory\n");
    args = fixture_args(f.name);
    args[3] = scratch("missing.y4m");
    r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: cannot open distorted '" + args[3] +
                         "': No such file or directory\n");
    args = fixture_args(f.name);
    args[1] = "/";
    r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: cannot read reference '/': it is a folder\n");
}

TEST(CliYuv, NotAWholeNumberOfFrames)
{
    const testfx::Fixture &f = testfx::fixture(natural1);
    const std::string cut = scratch("cut.yuv");
    const std::string data = clitest::read_file(testfx::path(f.dis));
    clitest::write_file(cut, data.substr(0, data.size() - 1));
    std::vector<std::string> args = fixture_args(f.name);
    args[3] = cut;
    clitest::Result r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: distorted '" + cut +
                         "' is 2799359 bytes, not a whole number of frames: one 576x324 4:2:0 "
                         "8-bit frame is 279936 bytes (FFmpeg's planar layout); check -w, -h, -p "
                         "and -b\n");

    // Gray clips read as 4:2:0: 101376 bytes are 2.67 frames of 38016.
    args = fixture_args("natural6_176x144_gray__ref_vs_gblur1p2noise12");
    args[9] = "420";
    r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: reference '" + args[1] +
                         "' is 101376 bytes, not a whole number of frames: one 176x144 4:2:0 "
                         "8-bit frame is 38016 bytes (FFmpeg's planar layout); check -w, -h, -p "
                         "and -b\n");

    const std::string empty = scratch("empty.yuv");
    clitest::write_file(empty, "");
    args = fixture_args(f.name);
    args[1] = empty;
    r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: reference '" + empty + "' is empty\n");
}

TEST(CliYuv, RawInputNeedsTheFormat)
{
    const std::vector<std::string> all = fixture_args(natural1);
    const char *const flags[] = {"-w/--width", "-h/--height", "-p/--pixel_format", "-b/--bitdepth"};
    for (size_t drop = 0; drop < 4; drop++) {
        std::vector<std::string> args = all;
        args.erase(args.begin() + 4 + 2 * drop, args.begin() + 6 + 2 * drop);
        const clitest::Result r = run_expecting_failure(args);
        EXPECT_EQ(r.err, std::string("vmafhip: raw .yuv input needs -w/--width, -h/--height, "
                                     "-p/--pixel_format and -b/--bitdepth: ") +
                             flags[drop] + " is missing\n");
    }
}

// Width, height and bit depth are the library's to accept: its message.
TEST(CliYuv, FormatRejectedByTheLibrary)
{
    const std::vector<std::string> base = fixture_args("minsize_psnr_chroma_2x2_yuv420p__ref_vs_noise20");
    const struct {
        int index; // into base: 5 = -w value, 7 = -h value, 11 = -b value
        const char *value;
        int w, h, bpc;
        const char *features;
    } cases[] = {
        {5, "0", 0, 2, 8, "psnr"},
        {5, "40000", 40000, 2, 8, "psnr"},
        {7, "0", 2, 0, 8, "psnr"},
        {11, "9", 2, 2, 9, "psnr"},
        {11, "16", 2, 2, 16, "adm"}, // integer ADM has no 16-bit path
    };
    for (const auto &c : cases) {
        std::vector<std::string> args = base;
        args[c.index] = c.value;
        args.insert(args.end(), {"-n", "--feature", c.features});
        const std::string want = open_error(c.w, c.h, c.bpc, c.features, VMAFHIP_BACKEND_CPU);
        ASSERT_FALSE(want.empty());
        const clitest::Result r = run_expecting_failure(args);
        EXPECT_EQ(r.err, "vmafhip: " + want + "\n");
    }
}

// libvmaf stops at the shorter input; so do we, with a warning naming both
// counts. Raw sizes are known up front; .y4m lengths are read to the end.
TEST(CliInput, DifferentLengthsScoreTheCommonFrames)
{
    const testfx::Fixture &f = testfx::fixture(natural1);
    const Value golden = testjson::parse_file(testfx::path(f.golden));
    const std::string short_dis = scratch("seven.yuv");
    clitest::write_file(short_dis,
                        clitest::read_file(testfx::path(f.dis)).substr(0, 7 * frame_bytes(f)));
    std::vector<std::string> args = fixture_args(f.name);
    args[3] = short_dis;
    args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu", "--json", "--full-precision",
                             "-o", "-"});
    clitest::Result r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "vmafhip: warning: reference '" + args[1] + "' has 10 frames and distorted '" +
                         short_dis +
                         "' has 7: scored the 7 frames both have (libvmaf also stops at the "
                         "shorter input)\n");
    const Value log = testjson::parse(r.out);
    ASSERT_EQ(log["frames"].arr.size(), 7u);
    for (size_t i = 0; i < 7; i++)
        EXPECT_EQ(log["frames"].arr[i]["metrics"]["psnr_y"].num,
                  golden["frames"].arr[i]["metrics"]["psnr_y"].num);

    // .y4m, the reference shorter this time.
    const std::string ref4 = scratch("ref4.y4m"), dis10 = scratch("dis10.y4m");
    clitest::make_y4m(ref4, testfx::path(f.ref), f.w, f.h, "420jpeg", frame_bytes(f), 4);
    clitest::make_y4m(dis10, testfx::path(f.dis), f.w, f.h, "420jpeg", frame_bytes(f));
    r = run({"-r", ref4, "-d", dis10, "-n", "--feature", "psnr", "--backend", "cpu", "--json", "-o", "-"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "vmafhip: warning: distorted '" + dis10 + "' has 10 frames and reference '" +
                         ref4 +
                         "' has 4: scored the 4 frames both have (libvmaf also stops at the "
                         "shorter input)\n");
    EXPECT_EQ(testjson::parse(r.out)["frames"].arr.size(), 4u);
}

// A pipe or a device has no size and may never end: the run stops at the
// shorter input without reading the other further, and says only that it is
// longer. Before, the length warning read /dev/zero without end and waited
// forever on a FIFO whose writer kept it open (here: killed after 30 s).
struct EndlessInput {
    const testfx::Fixture &f = testfx::fixture(natural1);
    std::string ref = scratch("endless_ref.y4m");

    EndlessInput() { clitest::make_y4m(ref, testfx::path(f.ref), f.w, f.h, "420jpeg", frame_bytes(f)); }

    std::vector<std::string> args(const std::string &dis) const
    {
        return {"-r", ref, "-d", dis, "-w", std::to_string(f.w), "-h", std::to_string(f.h),
                "-p", "420", "-b", "8", "-n", "--feature", "psnr", "--backend", "cpu", "--json",
                "-o", "-"};
    }

    void expect_ten_frames(const clitest::Result &r, const std::string &dis) const
    {
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(r.err, "vmafhip: warning: distorted '" + dis +
                             "' has more than 10 frames (not read further: a pipe or device has "
                             "no size) and reference '" + ref + "' has 10: scored the 10 frames "
                             "both have (libvmaf also stops at the shorter input)\n");
        EXPECT_EQ(testjson::parse(r.out)["frames"].arr.size(), 10u);
    }
};

TEST(CliInput, EndlessDeviceStopsAtTheShorterInput)
{
    const EndlessInput e;
    e.expect_ten_frames(run(e.args("/dev/zero"), false, 30), "/dev/zero");
}

// 12 frames, and the writer keeps the pipe open for longer than the run may
// take: the reader waits inside a read for a 13th.
TEST(CliInput, PipeHeldOpenStopsAtTheShorterInput)
{
    const EndlessInput e;
    const std::string fifo = scratch("endless.fifo");
    unlink(fifo.c_str()); // --gtest_repeat
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const std::string dis = clitest::read_file(testfx::path(e.f.dis));
    const int writer = clitest::feed_fifo(fifo, dis + dis.substr(0, 2 * frame_bytes(e.f)), 0, 0,
                                          59 * 1000);
    const clitest::Result r = run(e.args(fifo), false, 30);
    clitest::stop_feed(writer);
    e.expect_ten_frames(r, fifo);
}

TEST(CliInput, FrameCountLimit)
{
    std::vector<std::string> args = fixture_args(natural1);
    args.insert(args.end(), {"-n", "--feature", "psnr", "--frame_cnt", "3"});
    EXPECT_EQ(run_log(args)["frames"].arr.size(), 3u); // and no length warning
    args.back() = "0"; // libvmaf's default: every frame
    EXPECT_EQ(run_log(args)["frames"].arr.size(), 10u);
}

// A 10-bit sample above 1023 makes the library refuse the frame (-ERANGE):
// the run stops with its message and writes nothing.
TEST(CliInput, UnscorableFrameFailsTheRun)
{
    const testfx::Fixture &f = testfx::fixture(natural2);
    const size_t fb = frame_bytes(f);
    std::string dis = clitest::read_file(testfx::path(f.dis)).substr(0, 2 * fb);
    dis[fb + 200] = dis[fb + 201] = '\xff'; // frame 1, luma sample 100: 65535
    const std::string dis_path = scratch("bad10.yuv"), ref_path = scratch("ref10.yuv");
    clitest::write_file(dis_path, dis);
    clitest::write_file(ref_path, clitest::read_file(testfx::path(f.ref)).substr(0, 2 * fb));
    std::vector<std::string> args = fixture_args(f.name);
    args[1] = ref_path;
    args[3] = dis_path;
    const std::string log = scratch("range.json");
    args.insert(args.end(), {"-n", "--feature", "psnr", "--json", "-o", log});
    const clitest::Result r = run_expecting_failure(args);
    EXPECT_EQ(r.err, "vmafhip: frame 1: sample value 65535 is above the 10-bit maximum 1023: this "
                     "frame is not scored; nothing was written\n");
    EXPECT_FALSE(clitest::file_exists(log));
}

// Pipes have no size: frames are checked as they come, and a partial last
// frame is an error.
TEST(CliInput, RawFromAPipe)
{
    const testfx::Fixture &f = testfx::fixture(natural1);
    const std::string fifo = scratch("ref.fifo");
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    const Value want = run_log([&] {
        std::vector<std::string> a = fixture_args(f.name);
        a.insert(a.end(), {"-n", "--feature", "psnr"});
        return a;
    }());
    for (const bool partial : {false, true}) {
        const std::string data = clitest::read_file(testfx::path(f.ref));
        const int writer =
            clitest::feed_fifo(fifo, partial ? data.substr(0, 3 * frame_bytes(f) + 1000) : data);
        std::vector<std::string> args = fixture_args(f.name);
        args[1] = fifo;
        args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu", "--json",
                                 "--full-precision", "-o", "-"});
        const clitest::Result r = run(args);
        clitest::finish_feed(writer);
        if (partial) {
            EXPECT_EQ(r.status, 1);
            EXPECT_EQ(r.err, "vmafhip: reference '" + fifo +
                                 "' ends inside frame 3 (counted from 0): 1000 of 279936 bytes; "
                                 "check -w, -h, -p and -b\n");
        } else {
            ASSERT_EQ(r.status, 0) << r.err;
            expect_same_scores(testjson::parse(r.out), want);
        }
    }
}
