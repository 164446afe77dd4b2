// The CLI's logs against libvmaf's goldens (tests/fixtures/golden):
// psnr values and pooled statistics at full precision and at 6 decimals,
// the JSON layout byte for byte where a golden holds psnr only, CSV and XML
// structure and numbers, the summary without -o, and the structure (names,
// counts) of runs with every feature. ADM and SSIM values are other tests'.
//
// Quick start for a case: run({args...}) returns status, stdout, stderr;
// fixture_args(name) gives -r -d -w -h -p -b of a fixture pair.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tests/cli/cli_runner.h"
#include "tests/common/fixtures.h"
#include "tests/common/float_family.h"
#include "tests/common/json.h"
#include "vmafhip.h"

using clitest::fixture_args;
using clitest::run;
using clitest::split;
using clitest::with_golden_header;
using testjson::Value;

namespace {

const char *const stats[] = {"min", "max", "mean", "harmonic_mean"};

bool is_psnr(const std::string &name)
{
    return name.compare(0, 5, "psnr_") == 0;
}

// A fixture's psnr-only run through the CLI, as a log on stdout.
clitest::Result run_psnr(const testfx::Fixture &f, const std::vector<std::string> &extra)
{
    std::vector<std::string> args = fixture_args(f.name);
    args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu", "-o", "-"});
    args.insert(args.end(), extra.begin(), extra.end());
    return run(args);
}

Value run_psnr_json(const testfx::Fixture &f, bool full)
{
    const clitest::Result r =
        run_psnr(f, full ? std::vector<std::string>{"--json", "--full-precision"}
                         : std::vector<std::string>{"--json"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return testjson::parse(r.out);
}

// The 6-decimal golden of a fixture (the .json beside its .fullprec.json;
// psnr does not depend on libvmaf's SIMD path, so any of them serves).
std::string six_digit_golden(const testfx::Fixture &f)
{
    return "golden/" + f.name + ".json";
}

std::vector<const testfx::Fixture *> psnr_fixtures()
{
    std::vector<const testfx::Fixture *> out;
    for (const auto &f : testfx::fixtures())
        if (f.has("psnr"))
            out.push_back(&f);
    return out;
}

// Compare the psnr values of a log with a golden: frames (count, frameNum,
// names in order, values) and pooled statistics, all exactly.
void expect_psnr_equal(const Value &got, const Value &golden, const std::string &what)
{
    ASSERT_EQ(got["frames"].arr.size(), golden["frames"].arr.size()) << what;
    for (size_t i = 0; i < golden["frames"].arr.size(); i++) {
        const Value &g = golden["frames"].arr[i];
        const Value &o = got["frames"].arr[i];
        EXPECT_EQ(o["frameNum"].num, g["frameNum"].num) << what;
        std::vector<std::string> want, have;
        for (const auto &kv : g["metrics"].obj)
            if (is_psnr(kv.first))
                want.push_back(kv.first);
        for (const auto &kv : o["metrics"].obj)
            have.push_back(kv.first);
        EXPECT_EQ(have, want) << what << " frame " << i;
        for (const auto &name : want)
            EXPECT_EQ(o["metrics"][name].num, g["metrics"][name].num)
                << what << " frame " << i << " " << name;
    }
    for (const auto &kv : golden["pooled_metrics"].obj) {
        if (!is_psnr(kv.first))
            continue;
        for (const char *s : stats)
            EXPECT_EQ(got["pooled_metrics"][kv.first][s].num, kv.second[s].num)
                << what << " pooled " << kv.first << " " << s;
    }
}

// Attributes of one XML element line: name -> value.
std::map<std::string, std::string> attributes(const std::string &line)
{
    static const std::regex attr("([A-Za-z_0-9]+)=\"([^\"]*)\"");
    std::map<std::string, std::string> out;
    for (std::sregex_iterator it(line.begin(), line.end(), attr), end; it != end; ++it)
        out[(*it)[1]] = (*it)[2];
    return out;
}

} // namespace

TEST(CliGolden, PsnrFullPrecisionEqualsGoldenOnEveryFixture)
{
    for (const testfx::Fixture *f : psnr_fixtures()) {
        SCOPED_TRACE(f->name);
        const Value got = run_psnr_json(*f, true);
        expect_psnr_equal(got, testjson::parse_file(testfx::path(f->golden)), f->golden);
    }
}

// 6 decimals, or 16 where the fraction is below 1e-6 (natural1 ref_vs_ref:
// harmonic_mean "60.0000000000000071"): the parsed numbers are equal only
// if the printed digits are.
TEST(CliGolden, PsnrSixDecimalsEqualsGoldenOnEveryFixture)
{
    for (const testfx::Fixture *f : psnr_fixtures()) {
        SCOPED_TRACE(f->name);
        const Value got = run_psnr_json(*f, false);
        expect_psnr_equal(got, testjson::parse_file(testfx::path(six_digit_golden(*f))),
                          six_digit_golden(*f));
    }
}

TEST(CliGolden, SmallFractionsPrintWithSixteenDecimals)
{
    const clitest::Result r =
        run_psnr(testfx::fixture("natural1_576x324_yuv420p__ref_vs_ref"), {"--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"harmonic_mean\": 60.0000000000000071"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"psnr_y\": 60.000000,"), std::string::npos);
}

// Where the golden holds psnr only, the whole file must be libvmaf's, byte
// for byte, but for the version and the fps.
TEST(CliGolden, JsonLayoutIsLibvmafsByteForByte)
{
    int compared = 0;
    for (const char *name : {"minsize_psnr_1x1_yuv420p__ref_vs_noise20",
                             "minsize_psnr_chroma_2x2_yuv420p__ref_vs_noise20"}) {
        const testfx::Fixture &f = testfx::fixture(name);
        for (const bool full : {false, true}) {
            const std::string golden = clitest::read_file(
                testfx::path("golden/" + f.name + (full ? ".fullprec.json" : ".json")));
            const clitest::Result r =
                run_psnr(f, full ? std::vector<std::string>{"--json", "--full-precision"}
                                 : std::vector<std::string>{"--json"});
            ASSERT_EQ(r.status, 0) << r.err;
            EXPECT_EQ(r.out.find("  \"version\": \"" + std::string(vmafhip_version()) + "\",\n"),
                      r.out.find('\n') + 1);
            // fps: the measured scoring rate, "%.2f" and positive.
            const size_t fps = r.out.find("\n  \"fps\": ");
            ASSERT_NE(fps, std::string::npos);
            EXPECT_GT(std::strtod(r.out.c_str() + fps + 10, nullptr), 0.0);
            EXPECT_EQ(with_golden_header(r.out, golden), golden) << name << " full=" << full;
            compared++;
        }
    }
    EXPECT_EQ(compared, 4);
}

// float_ms_ssim, psnr_hvs and ciede: the whole log is libvmaf's, byte for
// byte but for the version and the fps, nulls included (identical frames
// make psnr_hvs and ciede2000 infinite; libvmaf ends such a line without a
// break).
TEST(CliGolden, CtcJsonIsLibvmafsByteForByte)
{
    int compared = 0;
    for (const char *name : {"natural1_576x324_yuv420p__ref_vs_ref",
                             "natural1_576x324_yuv420p__ref_vs_x264crf38"}) {
        for (const bool full : {false, true}) {
            const std::string golden = clitest::read_file(testfx::path(
                std::string("golden/") + name + (full ? ".ctc.fullprec.json" : ".ctc.json")));
            std::vector<std::string> args = fixture_args(name);
            args.insert(args.end(), {"-n", "--feature", "float_ms_ssim", "--feature", "psnr_hvs",
                                     "--feature", "ciede", "--backend", "cpu", "--json", "-o", "-"});
            if (full)
                args.push_back("--full-precision");
            const clitest::Result r = run(args);
            ASSERT_EQ(r.status, 0) << r.err;
            EXPECT_EQ(with_golden_header(r.out, golden), golden) << name << " full=" << full;
            compared++;
        }
    }
    EXPECT_EQ(compared, 4);
}

// libvmaf's float family and its four float models: the whole log is
// libvmaf's, byte for byte but for the version and the fps, key order
// included (float_motion's motion2 before its motion, motion3 after every
// extractor's per-frame outputs).
TEST(CliGolden, FloatJsonIsLibvmafsByteForByte)
{
    int compared = 0;
    for (const testfx::Fixture &f : testfx::float_pairs()) {
        const std::string golden =
            clitest::read_file(testfx::path("golden/" + f.name + ".float.fullprec.json"));
        std::vector<std::string> args = fixture_args(f.name);
        for (const char *m : {"version=vmaf_float_v0.6.1:name=vmaf_float",
                              "version=vmaf_float_v0.6.1neg:name=vmaf_float_neg",
                              "version=vmaf_float_4k_v0.6.1:name=vmaf_float_4k",
                              "version=vmaf_float_b_v0.6.3:name=vmaf_float_b"})
            args.insert(args.end(), {"-m", m});
        args.insert(args.end(), {"--feature", "float_psnr", "--feature", "float_ansnr", "--feature",
                                 "float_moment", "--backend", "cpu", "--json", "--full-precision",
                                 "-o", "-"});
        const clitest::Result r = run(args);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(with_golden_header(r.out, golden), golden) << f.name;
        compared++;
    }
    EXPECT_EQ(compared, 6);
}

// libvmaf's null extractor writes nothing: alone, the log lists no frame.
TEST(CliGolden, NullExtractorLogsNothing)
{
    const char name[] = "natural4_176x144_yuv422p__ref_vs_x264crf34";
    const std::string golden =
        clitest::read_file(testfx::path(std::string("golden/") + name + ".null.json"));
    std::vector<std::string> args = fixture_args(name);
    args.insert(args.end(), {"-n", "--feature", "null", "--json", "-o", "-"});
    const clitest::Result r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(with_golden_header(r.out, golden), golden);
    // Beside another feature it changes nothing.
    args = fixture_args(name);
    args.insert(args.end(), {"-n", "--feature", "psnr", "--json", "-o", "-"});
    const clitest::Result psnr = run(args);
    args.insert(args.end() - 3, {"--feature", "null"}); // before --json -o -
    const clitest::Result both = run(args);
    ASSERT_EQ(both.status, 0) << both.err;
    EXPECT_EQ(with_golden_header(both.out, psnr.out), psnr.out);
}

TEST(CliGolden, CsvHoldsTheGoldenNumbers)
{
    const testfx::Fixture &f = testfx::fixture("natural1_576x324_yuv420p__ref_vs_x264crf38");
    for (const bool full : {false, true}) {
        SCOPED_TRACE(full ? "full precision" : "6 decimals");
        const Value golden =
            testjson::parse_file(testfx::path(full ? f.golden : six_digit_golden(f)));
        const clitest::Result r =
            run_psnr(f, full ? std::vector<std::string>{"--csv", "--full-precision"}
                             : std::vector<std::string>{"--csv"});
        ASSERT_EQ(r.status, 0) << r.err;
        const std::vector<std::string> lines = split(r.out, '\n');
        ASSERT_EQ(lines.size(), 11u) << r.out;
        EXPECT_EQ(lines[0], "Frame,psnr_y,psnr_cb,psnr_cr,");
        const std::vector<std::string> names = {"psnr_y", "psnr_cb", "psnr_cr"};
        for (size_t i = 0; i < 10; i++) {
            const std::vector<std::string> cells = split(lines[i + 1], ',');
            ASSERT_EQ(cells.size(), 4u) << lines[i + 1]; // the trailing ',' ends the row
            EXPECT_EQ(lines[i + 1].back(), ',');
            EXPECT_EQ(cells[0], std::to_string(i));
            for (size_t j = 0; j < names.size(); j++) {
                const double want = golden["frames"].arr[i]["metrics"][names[j]].num;
                EXPECT_EQ(std::strtod(cells[j + 1].c_str(), nullptr), want)
                    << "frame " << i << " " << names[j];
                if (!full) { // "%.6f", as std::to_string prints a double
                    EXPECT_EQ(cells[j + 1], std::to_string(want));
                }
            }
        }
    }
}

TEST(CliGolden, XmlHoldsTheGoldenNumbers)
{
    const testfx::Fixture &f = testfx::fixture("natural4_176x144_yuv422p__ref_vs_x264crf34");
    for (const bool full : {false, true}) {
        SCOPED_TRACE(full ? "full precision" : "6 decimals");
        const Value golden =
            testjson::parse_file(testfx::path(full ? f.golden : six_digit_golden(f)));
        const clitest::Result r =
            run_psnr(f, full ? std::vector<std::string>{"--xml", "--full-precision"}
                             : std::vector<std::string>{"--xml"});
        ASSERT_EQ(r.status, 0) << r.err;
        const std::vector<std::string> lines = split(r.out, '\n');
        ASSERT_EQ(lines.size(), 16u) << r.out; // 4 frames, 3 pooled metrics
        EXPECT_EQ(lines[0], "<VMAF version=\"" + std::string(vmafhip_version()) + "\">");
        EXPECT_EQ(lines[1], "  <params qualityWidth=\"176\" qualityHeight=\"144\" />");
        EXPECT_EQ(lines[2].rfind("  <fyi fps=\"", 0), 0u) << lines[2];
        EXPECT_GT(std::strtod(lines[2].c_str() + 13, nullptr), 0.0) << lines[2];
        EXPECT_EQ(lines[3], "  <frames>");
        for (size_t i = 0; i < 4; i++) {
            const std::string &line = lines[4 + i];
            EXPECT_EQ(line.rfind("    <frame frameNum=\"" + std::to_string(i) + "\" ", 0), 0u)
                << line;
            EXPECT_EQ(line.substr(line.size() - 3), " />");
            const auto a = attributes(line);
            EXPECT_EQ(a.size(), 4u) << line;
            for (const auto &kv : golden["frames"].arr[i]["metrics"].obj) {
                if (is_psnr(kv.first)) {
                    EXPECT_EQ(std::strtod(a.at(kv.first).c_str(), nullptr), kv.second.num)
                        << "frame " << i << " " << kv.first;
                }
            }
        }
        EXPECT_EQ(lines[8], "  </frames>");
        EXPECT_EQ(lines[9], "  <pooled_metrics>");
        const char *const names[] = {"psnr_y", "psnr_cb", "psnr_cr"};
        for (size_t j = 0; j < 3; j++) {
            const auto a = attributes(lines[10 + j]);
            EXPECT_EQ(lines[10 + j].rfind("    <metric name=\"", 0), 0u);
            EXPECT_EQ(a.at("name"), names[j]);
            for (const char *s : stats)
                EXPECT_EQ(std::strtod(a.at(s).c_str(), nullptr),
                          golden["pooled_metrics"][names[j]][s].num)
                    << names[j] << " " << s;
        }
        EXPECT_EQ(lines[13], "  </pooled_metrics>");
        EXPECT_EQ(lines[14], "  <aggregate_metrics />");
        EXPECT_EQ(lines[15], "</VMAF>");
    }
}

// Without -o: "name: value" per feature, the pooled mean (libvmaf's "%f",
// 17 digits with --full-precision).
TEST(CliGolden, SummaryPrintsPooledMeans)
{
    const testfx::Fixture &f = testfx::fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32");
    const Value golden = testjson::parse_file(testfx::path(f.golden));
    for (const bool full : {false, true}) {
        std::vector<std::string> args = fixture_args(f.name);
        args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu"});
        if (full)
            args.push_back("--full-precision");
        const clitest::Result r = run(args);
        ASSERT_EQ(r.status, 0) << r.err;
        std::string want;
        for (const char *name : {"psnr_y", "psnr_cb", "psnr_cr"}) {
            char line[128];
            std::snprintf(line, sizeof(line), full ? "%s: %.17g\n" : "%s: %.6f\n", name,
                          golden["pooled_metrics"][name]["mean"].num);
            want += line;
        }
        EXPECT_EQ(r.out, want);
    }
}

TEST(CliGolden, LogToAFileDefaultsToXml)
{
    const std::string out = clitest::scratch("default-format.log");
    std::vector<std::string> args = fixture_args("minsize_psnr_chroma_2x2_yuv420p__ref_vs_noise20");
    args.insert(args.end(), {"-n", "--feature", "psnr", "--backend", "cpu", "-o", out});
    const clitest::Result r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, ""); // a log file, so no summary
    EXPECT_EQ(clitest::read_file(out).rfind("<VMAF version=\"", 0), 0u);
}

// Every feature of the golden at once: per-frame names are the golden's, in
// every frame and pooled with the four statistics. Values: test_cli_dropin
// and the extractors' tests.
TEST(CliGolden, AllFeaturesHaveTheGoldensStructure)
{
    for (const auto &f : testfx::fixtures()) {
        SCOPED_TRACE(f.name);
        std::vector<std::string> args = fixture_args(f.name);
        args.insert(args.end(), {"--backend", "cpu", "--json", "-o", "-"});
        for (const auto &feature : split(f.features, '|'))
            args.insert(args.end(), {"--feature", feature});
        if (f.models.empty())
            args.push_back("-n");
        else
            args.insert(args.end(), {"-m", f.models});
        const clitest::Result r = run(args);
        ASSERT_EQ(r.status, 0) << r.err;
        const Value log = testjson::parse(r.out);
        const Value golden = testjson::parse_file(testfx::path(f.golden));
        std::set<std::string> want;
        for (const auto &kv : golden["frames"].arr[0]["metrics"].obj) {
            const bool adm = kv.first.rfind("integer_adm", 0) == 0 || kv.first == "integer_aim";
            if (!adm || f.has("adm")) // 17x17: libvmaf's ADM is undefined, not run
                want.insert(kv.first);
        }
        for (const char *key : {"version", "fps", "frames", "pooled_metrics", "aggregate_metrics"})
            EXPECT_NE(log.get(key), nullptr) << key;
        ASSERT_EQ(log["frames"].arr.size(), static_cast<size_t>(f.frames));
        for (size_t i = 0; i < log["frames"].arr.size(); i++) {
            const Value &frame = log["frames"].arr[i];
            EXPECT_EQ(frame["frameNum"].num, static_cast<double>(i));
            std::set<std::string> have;
            for (const auto &kv : frame["metrics"].obj)
                have.insert(kv.first);
            EXPECT_EQ(have, want) << "frame " << i;
        }
        std::set<std::string> pooled;
        for (const auto &kv : log["pooled_metrics"].obj) {
            pooled.insert(kv.first);
            std::vector<std::string> keys;
            for (const auto &s : kv.second.obj)
                keys.push_back(s.first);
            EXPECT_EQ(keys, std::vector<std::string>(std::begin(stats), std::end(stats)))
                << kv.first;
        }
        EXPECT_EQ(pooled, want);
        EXPECT_TRUE(log["aggregate_metrics"].obj.empty());
    }
}

// apsnr is an end-of-stream aggregate; on gray its chroma values are -inf
// (docs/psnr.md §5): JSON null, XML "-inf", and the summary lists them too.
TEST(CliGolden, AggregatesAndNonFiniteValues)
{
    const testfx::Fixture &f = testfx::fixture("natural6_176x144_gray__ref_vs_gblur1p2noise12");
    std::vector<std::string> args = fixture_args(f.name);
    args.insert(args.end(), {"-n", "--feature", "psnr=enable_apsnr=true", "--backend", "cpu"});

    std::vector<std::string> json = args;
    json.insert(json.end(), {"--json", "-o", "-"});
    clitest::Result r = run(json);
    ASSERT_EQ(r.status, 0) << r.err;
    const Value log = testjson::parse(r.out);
    const Value &agg = log["aggregate_metrics"];
    ASSERT_EQ(agg.obj.size(), 3u);
    EXPECT_EQ(agg.obj[0].first, "apsnr_y");
    EXPECT_EQ(agg["apsnr_y"].type, Value::Number);
    EXPECT_GT(agg["apsnr_y"].num, 20.0);
    EXPECT_EQ(agg["apsnr_cb"].type, Value::Null);
    EXPECT_EQ(agg["apsnr_cr"].type, Value::Null);
    EXPECT_NE(r.out.find("\"apsnr_cb\": null,\n"), std::string::npos);

    std::vector<std::string> xml = args;
    xml.insert(xml.end(), {"--xml", "-o", "-"});
    r = run(xml);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("apsnr_cb=\"-inf\" apsnr_cr=\"-inf\" />"), std::string::npos) << r.out;

    r = run(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\napsnr_y: "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\napsnr_cb: -inf\n"), std::string::npos) << r.out;
}
