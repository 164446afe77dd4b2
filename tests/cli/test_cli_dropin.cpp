// The CLI as a drop-in for libvmaf's `vmaf` tool: the same flags give the
// same log files, byte for byte but for the lines that name the writer
// (version, fps): libvmaf's default run in each layout, every fixture pair
// with the flags its golden was made with (full precision), several models
// in one run, the bootstrap model, frame subsampling; and the pooled model
// score lines libvmaf prints.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "tests/cli/cli_runner.h"
#include "tests/common/fixtures.h"
#include "tests/common/json.h"

using clitest::fixture_args;
using clitest::run;

namespace {

const char natural1[] = "natural1_576x324_yuv420p__ref_vs_x264crf38";

// libvmaf's flags of the .fullprec.json goldens (tests/fixtures/MANIFEST.md).
const std::vector<std::string> golden_flags = {
    "--feature", "psnr", "--feature", "float_ssim", "--feature", "adm", "--feature", "vif",
    "--feature", "motion", "--model", "version=vmaf_v0.6.1"};

// Run the CLI on a fixture pair with `flags` (on the CPU), the log on stdout.
std::string log_of(const std::string &fixture, const std::vector<std::string> &flags)
{
    std::vector<std::string> args = fixture_args(fixture);
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {"--backend", "cpu", "-o", "-", "-q"});
    const clitest::Result r = run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return r.out;
}

void expect_golden(const std::string &log, const std::string &golden_file)
{
    const std::string golden = clitest::read_file(testfx::path(golden_file));
    EXPECT_EQ(clitest::with_golden_header(log, golden), golden) << golden_file;
}

} // namespace

// No flag but the inputs: libvmaf's default model, nothing else.
TEST(CliDropIn, DefaultRunInEveryLayout)
{
    for (const char *fmt : {"json", "xml", "csv", "sub"}) {
        SCOPED_TRACE(fmt);
        expect_golden(log_of(natural1, {std::string("--") + fmt}),
                      std::string("golden/extra/") + natural1 + ".default." + fmt);
    }
}

TEST(CliDropIn, EveryFixtureAtFullPrecision)
{
    int compared = 0;
    for (const testfx::Fixture &f : testfx::fixtures()) {
        if (f.models.empty())
            continue; // the feature-only goldens were made with other flags
        SCOPED_TRACE(f.name);
        std::vector<std::string> flags = golden_flags;
        flags.insert(flags.end(), {"--json", "--full-precision"});
        expect_golden(log_of(f.name, flags), f.golden);
        compared++;
    }
    EXPECT_EQ(compared, 12);
}

// Each VMAF v1.0.16 model by its built-in name gives the log libvmaf wrote
// with the model file, on every pair libvmaf can run it on.
TEST(CliDropIn, VmafV1BuiltInModels)
{
    int compared = 0;
    for (const testfx::Fixture &f : testfx::fixtures())
        for (const auto &[model, golden] : f.v1_goldens) {
            SCOPED_TRACE(f.name + " " + model);
            expect_golden(log_of(f.name, {"-m", "version=" + model, "--json", "--full-precision"}),
                          golden);
            compared++;
        }
    EXPECT_EQ(compared, 8 * 7 + 6);
}

// Where libvmaf 3.2 crashes or refuses a v1 model, the CLI says why and
// what is accepted.
TEST(CliDropIn, VmafV1TooSmallSaysTheSmallestSize)
{
    const struct {
        const char *pair, *model, *message;
    } cases[] = {
        {"natural2_352x288_yuv420p10le__ref_vs_x265crf32", "vmaf_v1.0.16_3d0h_2160",
         "speed_chroma: 352x288 is too small: with speed_prescale 0.5 the chroma planes (176x144) scale "
         "to 88x72, below 80x80 (libvmaf crashes); the smallest accepted frame is 318 wide and 318 high"},
        {"natural4_176x144_yuv422p__ref_vs_x264crf34", "vmaf_v1.0.16_3d0h",
         "cambi: encode size 176x144 is too small: width or height must be at least 216"},
        {"natural5_176x144_yuv444p__ref_vs_mjpegq20", "vmaf_v1.0.16_hfr_5d0h",
         "cambi: encode size 176x144 is too small: width or height must be at least 216"},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(std::string(c.pair) + " " + c.model);
        std::vector<std::string> args = fixture_args(c.pair);
        args.insert(args.end(), {"-m", std::string("version=") + c.model, "--backend", "cpu", "-q"});
        const clitest::Result r = run(args);
        EXPECT_EQ(r.status, 1);
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
    }
}

TEST(CliDropIn, SeveralModelsAndTheBootstrapModel)
{
    for (const testfx::Fixture &f : testfx::fixtures()) {
        if (f.models_golden.empty())
            continue;
        SCOPED_TRACE(f.name);
        expect_golden(log_of(f.name, {"-m", "version=vmaf_v0.6.1:name=vmaf", "-m",
                                      "version=vmaf_4k_v0.6.1:name=vmaf_4k", "-m",
                                      "version=vmaf_v0.6.1neg:name=vmaf_neg", "--feature", "psnr",
                                      "--feature", "float_ssim", "--json", "--full-precision"}),
                      f.models_golden);
        expect_golden(log_of(f.name, {"-m", "version=vmaf_b_v0.6.3:name=vmaf_b", "--json",
                                      "--full-precision"}),
                      f.bootstrap_golden);
    }
}

TEST(CliDropIn, Subsample)
{
    expect_golden(log_of(natural1, {"--feature", "psnr", "--feature", "float_ssim", "--subsample",
                                    "3", "--json", "--full-precision"}),
                  std::string("golden/extra/") + natural1 + ".subsample3.fullprec.json");
}

// psnr's mse columns (plane by plane), APSNR over every frame although only
// every third is scored (psnr is temporal in libvmaf), and adm_skip_aim,
// which still writes integer_aim (0) and integer_adm3.
TEST(CliDropIn, PsnrAndAdmOptionsWithSubsample)
{
    expect_golden(log_of(natural1, {"--no_prediction", "--feature", "psnr=enable_mse=true:enable_apsnr=true",
                                    "--feature", "adm=adm_skip_aim=true", "--subsample", "3", "--json",
                                    "--full-precision"}),
                  std::string("golden/extra/") + natural1 + ".psnropts_skipaim_subsample3.fullprec.json");
}

// libvmaf prints "<model>: <pooled mean>" per model, and for a bootstrap
// model a second line with its interval, on stderr when it is a terminal;
// without -o we print them on stdout, followed by every feature's pooled
// mean.
TEST(CliDropIn, PooledModelLines)
{
    const testjson::Value golden =
        testjson::parse_file(testfx::path(std::string("golden/") + natural1 + ".bootstrap.fullprec.json"));
    const auto mean = [&](const char *name) { return golden["pooled_metrics"][name]["mean"].num; };
    std::vector<std::string> args = fixture_args(natural1);
    args.insert(args.end(), {"-m", "version=vmaf_b_v0.6.3", "--backend", "cpu", "-q", "-o",
                             clitest::scratch("b.xml")});
    const clitest::Result r = run(args, true);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "");
    char want[512];
    std::snprintf(want, sizeof want,
                  "vmaf_b_v0.6.3: %f\nvmaf_b_v0.6.3: %f, ci.p95: [%f, %f], stddev: %f\n",
                  mean("vmaf_b"), mean("vmaf_b_bagging"), mean("vmaf_b_ci_p95_lo"),
                  mean("vmaf_b_ci_p95_hi"), mean("vmaf_b_stddev"));
    std::string err = r.err; // the terminal turns "\n" into "\r\n"
    for (size_t at; (at = err.find("\r\n")) != std::string::npos;)
        err.erase(at, 1);
    EXPECT_EQ(err, want);
    EXPECT_EQ(run(args).err, ""); // not a terminal: nothing

    args = fixture_args(natural1);
    args.insert(args.end(), {"--feature", "psnr", "--backend", "cpu", "-q"});
    const clitest::Result s = run(args);
    ASSERT_EQ(s.status, 0) << s.err;
    const testjson::Value g =
        testjson::parse_file(testfx::path(std::string("golden/") + natural1 + ".fullprec.json"));
    std::snprintf(want, sizeof want, "vmaf_v0.6.1: %f\n", g["pooled_metrics"]["vmaf"]["mean"].num);
    EXPECT_EQ(s.out.rfind(want, 0), 0u) << s.out;
    EXPECT_NE(s.out.find("\npsnr_y: "), std::string::npos) << s.out;
    EXPECT_EQ(s.out.find("\nvmaf: "), std::string::npos) << s.out; // models are the first lines
}
