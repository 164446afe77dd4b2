// The log writers (core/output/) on a context filled by hand: exact
// text of each format, libvmaf's number rules (6 decimals, 16 when the
// fraction is below 1e-6, null for non-finite values in JSON, which ends a
// frame's line without a break as libvmaf's does), frames with
// an error left out, and vmafhip_write_log()'s errors.
#include <gtest/gtest.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <string>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/context.h"
#include "core/output/output.h"
#include "tests/cli/cli_runner.h"
#include "tests/common/json.h"

namespace {

using vmafhip::json_number;
using vmafhip::text_number;

constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double qnan = std::numeric_limits<double>::quiet_NaN();
constexpr unsigned FULL = VMAFHIP_LOG_FULL_PRECISION;

// Expected texts, printed by Python (IEEE doubles, C printf rounding) from
// the same values and libvmaf's pooling formulas; "VERSION" stands for
// vmafhip_version().
const char *const want_json = R"({
  "version": "VERSION",
  "fps": 0.00,
  "frames": [
    {
      "frameNum": 1,
      "metrics": {
        "feature_a": 0.0000001000000000,
        "feature_b": 0.500000,
        "feature_c": null      }
    },
    {
      "frameNum": 2,
      "metrics": {
        "feature_a": 27.0000008529999995,
        "feature_b": -0.250000,
        "feature_c": 1.000000
      }
    },
    {
      "frameNum": 3,
      "metrics": {
        "feature_a": 3.000000,
        "feature_b": null,        "feature_c": 2.000000
      }
    }
  ],
  "pooled_metrics": {
    "feature_a": {
      "min": 0.0000001000000000,
      "max": 27.0000008529999995,
      "mean": 10.0000003176666663,
      "harmonic_mean": 1.333334
    },
    "feature_b": {
      "min": -0.250000,
      "max": null,
      "mean": null,
      "harmonic_mean": 0.500000
    },
    "feature_c": {
      "min": null,
      "max": null,
      "mean": null,
      "harmonic_mean": null
    }
  },
  "aggregate_metrics": {
    "agg_x": null,
    "agg_y": 42.0000001000000012
  }
}
)";
const char *const want_json_full = R"({
  "version": "VERSION",
  "fps": 0.00,
  "frames": [
    {
      "frameNum": 1,
      "metrics": {
        "feature_a": 9.9999999999999995e-08,
        "feature_b": 0.5,
        "feature_c": null      }
    },
    {
      "frameNum": 2,
      "metrics": {
        "feature_a": 27.000000853,
        "feature_b": -0.25,
        "feature_c": 1
      }
    },
    {
      "frameNum": 3,
      "metrics": {
        "feature_a": 3,
        "feature_b": null,        "feature_c": 2
      }
    }
  ],
  "pooled_metrics": {
    "feature_a": {
      "min": 9.9999999999999995e-08,
      "max": 27.000000853,
      "mean": 10.000000317666666,
      "harmonic_mean": 1.3333335167893483
    },
    "feature_b": {
      "min": -0.25,
      "max": null,
      "mean": null,
      "harmonic_mean": 0.5
    },
    "feature_c": {
      "min": null,
      "max": null,
      "mean": null,
      "harmonic_mean": null
    }
  },
  "aggregate_metrics": {
    "agg_x": null,
    "agg_y": 42.000000100000001
  }
}
)";
const char *const want_csv = R"(Frame,feature_a,feature_b,feature_c,
1,0.000000,0.500000,nan,
2,27.000001,-0.250000,1.000000,
3,3.000000,inf,2.000000,
)";
const char *const want_csv_full = R"(Frame,feature_a,feature_b,feature_c,
1,9.9999999999999995e-08,0.5,nan,
2,27.000000853,-0.25,1,
3,3,inf,2,
)";
const char *const want_xml = R"(<VMAF version="VERSION">
  <params qualityWidth="64" qualityHeight="48" />
  <fyi fps="0.00" />
  <frames>
    <frame frameNum="1" feature_a="0.000000" feature_b="0.500000" feature_c="nan" />
    <frame frameNum="2" feature_a="27.000001" feature_b="-0.250000" feature_c="1.000000" />
    <frame frameNum="3" feature_a="3.000000" feature_b="inf" feature_c="2.000000" />
  </frames>
  <pooled_metrics>
    <metric name="feature_a" min="0.000000" max="27.000001" mean="10.000000" harmonic_mean="1.333334" />
    <metric name="feature_b" min="-0.250000" max="inf" mean="inf" harmonic_mean="0.500000" />
    <metric name="feature_c" min="nan" max="nan" mean="nan" harmonic_mean="nan" />
  </pooled_metrics>
  <aggregate_metrics agg_x="-inf" agg_y="42.000000" />
</VMAF>
)";
const char *const want_xml_full = R"(<VMAF version="VERSION">
  <params qualityWidth="64" qualityHeight="48" />
  <fyi fps="0.00" />
  <frames>
    <frame frameNum="1" feature_a="9.9999999999999995e-08" feature_b="0.5" feature_c="nan" />
    <frame frameNum="2" feature_a="27.000000853" feature_b="-0.25" feature_c="1" />
    <frame frameNum="3" feature_a="3" feature_b="inf" feature_c="2" />
  </frames>
  <pooled_metrics>
    <metric name="feature_a" min="9.9999999999999995e-08" max="27.000000853" mean="10.000000317666666" harmonic_mean="1.3333335167893483" />
    <metric name="feature_b" min="-0.25" max="inf" mean="inf" harmonic_mean="0.5" />
    <metric name="feature_c" min="nan" max="nan" mean="nan" harmonic_mean="nan" />
  </pooled_metrics>
  <aggregate_metrics agg_x="-inf" agg_y="42.000000100000001" />
</VMAF>
)";

void quiet_log(void *, VmafHipLogLevel, const char *, va_list) {}

// Frame 0 failed (-ERANGE); the others hold a tiny value, fractions below
// 1e-6, NaN and +inf; the aggregates -inf and a tiny fraction.
std::unique_ptr<VmafHipContext> fake_context()
{
    auto c = std::make_unique<VmafHipContext>();
    c->log = vmafhip::Logger(quiet_log, nullptr, VMAFHIP_LOG_DEBUG);
    c->settings.width = 64;
    c->settings.height = 48;
    c->metrics.names = {"feature_a", "feature_b", "feature_c"};
    for (const auto &n : c->metrics.names)
        c->name_ptrs.push_back(n.c_str());
    c->rows.set_width(3);
    const double values[] = {99, 99, 99, 1e-7, 0.5, qnan, 27.000000853, -0.25, 1.0, 3.0, inf, 2.0};
    for (int i = 0; i < 4; i++)
        std::copy(values + 3 * i, values + 3 * i + 3, c->rows.add());
    c->status = {-ERANGE, 0, 0, 0};
    c->collected = c->completed = 4;
    c->flushed = true;
    c->metrics.aggregate_names = {"agg_x", "agg_y"};
    for (const auto &n : c->metrics.aggregate_names)
        c->aggregate_name_ptrs.push_back(n.c_str());
    c->aggregate_values = {-inf, 42.0000001};
    c->aggregates_ready = true;
    return c;
}

std::string with_version(std::string text)
{
    const size_t at = text.find("VERSION");
    return text.replace(at, 7, vmafhip_version());
}

std::string capture(void (*writer)(const VmafHipContext &, unsigned, FILE *),
                    const VmafHipContext &c, unsigned flags)
{
    char *buf = nullptr;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    writer(c, flags, f);
    std::fclose(f);
    std::string out(buf, size);
    std::free(buf);
    return out;
}

} // namespace

// Values and their printed forms from the goldens (natural1 ref_vs_ref and
// the ADM scales of tests/fixtures/golden/*.json).
TEST(OutputNumbers, JsonFollowsLibvmafsRule)
{
    EXPECT_EQ(json_number(1.000000852404014, 0), "1.0000008524040140");
    EXPECT_EQ(json_number(1.0000002307032851, 0), "1.0000002307032851");
    EXPECT_EQ(json_number(1.0000017048080283, 0), "1.000002");
    EXPECT_EQ(json_number(1.0000126967007121, 0), "1.000013");
    EXPECT_EQ(json_number(60.000000000000007, 0), "60.0000000000000071");
    EXPECT_EQ(json_number(60.0, 0), "60.000000");
    EXPECT_EQ(json_number(27.302949905514602, 0), "27.302950");
    EXPECT_EQ(json_number(0.0, 0), "0.000000");
    EXPECT_EQ(json_number(1e-7, 0), "0.0000001000000000");
    EXPECT_EQ(json_number(5e-7, 0), "0.0000005000000000");
    EXPECT_EQ(json_number(2e-6, 0), "0.000002");
    // The fraction of a negative number is counted from floor(): -1e-7 has
    // the fraction 0.9999999, so it prints with 6 decimals, as in libvmaf.
    EXPECT_EQ(json_number(-1e-7, 0), "-0.000000");
    EXPECT_EQ(json_number(qnan, 0), "null");
    EXPECT_EQ(json_number(inf, 0), "null");
    EXPECT_EQ(json_number(-inf, 0), "null");
    EXPECT_EQ(json_number(qnan, FULL), "null");
    EXPECT_EQ(json_number(-inf, FULL), "null");
    EXPECT_EQ(json_number(60.0, FULL), "60");
    EXPECT_EQ(json_number(1.000000852404014, FULL), "1.000000852404014");
    EXPECT_EQ(json_number(0.1, FULL), "0.10000000000000001");
}

TEST(OutputNumbers, CsvAndXmlPrintSixDecimals)
{
    EXPECT_EQ(text_number(1.000000852404014, 0), "1.000001");
    EXPECT_EQ(text_number(1e-7, 0), "0.000000");
    EXPECT_EQ(text_number(0.1, FULL), "0.10000000000000001");
    EXPECT_EQ(text_number(qnan, 0), "nan");
    EXPECT_EQ(text_number(-qnan, 0), "nan");
    EXPECT_EQ(text_number(inf, 0), "inf");
    EXPECT_EQ(text_number(-inf, FULL), "-inf");
}

TEST(OutputWriters, JsonText)
{
    const auto c = fake_context();
    EXPECT_EQ(capture(vmafhip::write_json, *c, 0), with_version(want_json));
    EXPECT_EQ(capture(vmafhip::write_json, *c, FULL), with_version(want_json_full));
}

TEST(OutputWriters, JsonParsesWithErrorFramesLeftOut)
{
    const auto c = fake_context();
    const testjson::Value v = testjson::parse(capture(vmafhip::write_json, *c, 0));
    ASSERT_EQ(v["frames"].arr.size(), 3u);
    EXPECT_EQ(v["frames"].arr[0]["frameNum"].num, 1.0); // frame 0 failed: no entry
    EXPECT_EQ(v["frames"].arr[0]["metrics"]["feature_c"].type, testjson::Value::Null);
    EXPECT_EQ(v["frames"].arr[0]["metrics"]["feature_a"].num, 1e-7);
    // Pooling skips frame 0 (its values, 99, would be the maximum).
    EXPECT_EQ(v["pooled_metrics"]["feature_a"]["max"].num, 27.000000853);
    EXPECT_EQ(v["pooled_metrics"]["feature_b"]["mean"].type, testjson::Value::Null);
    EXPECT_EQ(v["aggregate_metrics"]["agg_x"].type, testjson::Value::Null);
}

// No frame scored at all: an empty frames array and empty pooled objects,
// still valid JSON (libvmaf prints the same shape).
TEST(OutputWriters, JsonWithNoScoredFrame)
{
    auto c = fake_context();
    c->status = {-ERANGE, -ERANGE, -ERANGE, -ERANGE};
    const std::string text = capture(vmafhip::write_json, *c, 0);
    const testjson::Value v = testjson::parse(text);
    EXPECT_TRUE(v["frames"].arr.empty());
    EXPECT_TRUE(v["pooled_metrics"]["feature_a"].obj.empty());
    EXPECT_NE(text.find("  \"frames\": [\n  ],\n"), std::string::npos) << text;
    EXPECT_NE(text.find("    \"feature_a\": {\n    },\n"), std::string::npos) << text;
}

TEST(OutputWriters, CsvText)
{
    const auto c = fake_context();
    EXPECT_EQ(capture(vmafhip::write_csv, *c, 0), want_csv);
    EXPECT_EQ(capture(vmafhip::write_csv, *c, FULL), want_csv_full);
}

TEST(OutputWriters, XmlText)
{
    const auto c = fake_context();
    EXPECT_EQ(capture(vmafhip::write_xml, *c, 0), with_version(want_xml));
    EXPECT_EQ(capture(vmafhip::write_xml, *c, FULL), with_version(want_xml_full));
}

// libvmaf's subtitle layout: a MicroDVD line per scored frame.
TEST(OutputWriters, SubText)
{
    const auto c = fake_context();
    EXPECT_EQ(capture(vmafhip::write_sub, *c, 0),
              "{1}{2}frame: 1|feature_a: 0.000000|feature_b: 0.500000|feature_c: nan|\n"
              "{2}{3}frame: 2|feature_a: 27.000001|feature_b: -0.250000|feature_c: 1.000000|\n"
              "{3}{4}frame: 3|feature_a: 3.000000|feature_b: inf|feature_c: 2.000000|\n");
}

// The entry point flushes, then writes the chosen format to the file.
TEST(OutputWriteLog, WritesEachFormatToAFile)
{
    const std::pair<VmafHipLogFormat, void (*)(const VmafHipContext &, unsigned, FILE *)>
        formats[] = {{VMAFHIP_LOG_FMT_JSON, vmafhip::write_json},
                     {VMAFHIP_LOG_FMT_CSV, vmafhip::write_csv},
                     {VMAFHIP_LOG_FMT_XML, vmafhip::write_xml},
                     {VMAFHIP_LOG_FMT_SUB, vmafhip::write_sub}};
    for (const auto &f : formats) {
        for (const unsigned flags : {0u, FULL}) {
            auto c = fake_context();
            const std::string path = clitest::scratch("log.txt");
            ASSERT_EQ(vmafhip_write_log(c.get(), path.c_str(), f.first, flags), 0)
                << vmafhip_last_error(c.get());
            EXPECT_EQ(clitest::read_file(path), capture(f.second, *c, flags));
            EXPECT_EQ(clitest::read_file(path).empty(), false);
        }
    }
}

TEST(OutputWriteLog, UnwritablePathNamesPathAndReason)
{
    auto c = fake_context();
    const char *path = "/nonexistent-vmafhip-dir/log.json";
    EXPECT_EQ(vmafhip_write_log(c.get(), path, VMAFHIP_LOG_FMT_JSON, 0), -ENOENT);
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())),
              "cannot open log file '/nonexistent-vmafhip-dir/log.json' for writing: "
              "No such file or directory");
    EXPECT_EQ(vmafhip_write_log(c.get(), "/", VMAFHIP_LOG_FMT_JSON, 0), -EISDIR);
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())),
              "cannot open log file '/' for writing: Is a directory");
    // A long path is cut, so that the reason after it stays on a log line.
    const std::string long_path = "/tmp/" + std::string(99995, 'x');
    EXPECT_EQ(vmafhip_write_log(c.get(), long_path.c_str(), VMAFHIP_LOG_FMT_JSON, 0),
              -ENAMETOOLONG);
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())),
              "cannot open log file '/tmp/" + std::string(95, 'x') + "..." + std::string(40, 'x') +
                  "' (100000 bytes) for writing: File name too long");
}

// A log path that is a symbolic link is written through it: the link stays,
// its target gets the log (relative links resolve from the link's folder; a
// link to nothing creates its target). A link under /proc (/dev/stdout, a
// descriptor's /proc/self/fd/N) names an open file: written in place, it
// reaches that file. Before, the log was renamed over the link itself.
TEST(OutputWriteLog, WritesThroughSymbolicLinks)
{
    auto c = fake_context();
    const std::string want = capture(vmafhip::write_json, *c, 0);
    const std::string target = clitest::scratch("target.json");
    const std::string link = clitest::scratch("link.json");
    const std::string chain = clitest::scratch("chain.json");
    clitest::write_file(target, "old content");
    ASSERT_EQ(symlink("target.json", link.c_str()), 0);
    ASSERT_EQ(symlink(link.c_str(), chain.c_str()), 0);
    for (const std::string &path : {link, chain}) {
        clitest::write_file(target, "old content");
        ASSERT_EQ(vmafhip_write_log(c.get(), path.c_str(), VMAFHIP_LOG_FMT_JSON, 0), 0)
            << vmafhip_last_error(c.get());
        struct stat st;
        ASSERT_EQ(lstat(path.c_str(), &st), 0);
        EXPECT_TRUE(S_ISLNK(st.st_mode)) << path;
        EXPECT_EQ(clitest::read_file(target), want);
    }

    const std::string dangling = clitest::scratch("dangling.json");
    const std::string created = clitest::scratch("created.json");
    ASSERT_EQ(symlink(created.c_str(), dangling.c_str()), 0);
    ASSERT_EQ(vmafhip_write_log(c.get(), dangling.c_str(), VMAFHIP_LOG_FMT_JSON, 0), 0)
        << vmafhip_last_error(c.get());
    EXPECT_EQ(clitest::read_file(created), want);

    // A descriptor's link, as /dev/stdout is with stdout redirected to a file.
    const std::string redirected = clitest::scratch("redirected.txt");
    const int fd = open(redirected.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    const std::string fd_link = clitest::scratch("fd.json");
    ASSERT_EQ(symlink(("/proc/self/fd/" + std::to_string(fd)).c_str(), fd_link.c_str()), 0);
    ASSERT_EQ(vmafhip_write_log(c.get(), fd_link.c_str(), VMAFHIP_LOG_FMT_JSON, 0), 0)
        << vmafhip_last_error(c.get());
    close(fd);
    struct stat st;
    ASSERT_EQ(lstat(fd_link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    EXPECT_EQ(clitest::read_file(redirected), want);
}

// A file that can be written in a folder where no file can be made (not
// writable by this user, or /proc): the temporary file beside it cannot be
// made, so the log is written in place, as libvmaf writes it. Before, every
// frame was scored and then the log failed.
TEST(OutputWriteLog, WritableFileInAFolderThatIsNot)
{
    auto c = fake_context();
    const std::string want = capture(vmafhip::write_xml, *c, 0);
    // A folder of its own, which another user can enter (the scratch folder
    // is private), with a file anyone may write.
    char tmpl[] = "/tmp/vmafhip-readonly-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    const std::string dir = tmpl, log = dir + "/log.xml";
    clitest::write_file(log, "old content");
    ASSERT_EQ(chmod(log.c_str(), 0666), 0);
    ASSERT_EQ(chmod(dir.c_str(), 0555), 0);
    // Root may create files anywhere: the writer runs as nobody then.
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (!pid) {
        if (geteuid() == 0 && (setgid(65534) || setuid(65534)))
            _exit(2);
        if (!access(dir.c_str(), W_OK))
            _exit(3); // the folder is writable after all
        _exit(vmafhip_write_log(c.get(), log.c_str(), VMAFHIP_LOG_FMT_XML, 0) ? 1 : 0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "1: the log failed; 2: setuid failed; 3: folder writable";
    EXPECT_EQ(clitest::read_file(log), want);
    chmod(dir.c_str(), 0755);
    unlink(log.c_str());
    rmdir(dir.c_str());

    // /proc/self/comm may be written (by anyone, to its own process); no
    // file can be made beside it.
    EXPECT_EQ(vmafhip_write_log(c.get(), "/proc/self/comm", VMAFHIP_LOG_FMT_XML, 0), 0)
        << vmafhip_last_error(c.get());
    // /proc/self/status cannot be written: the error is the file's own, not
    // that of the temporary file's path (ENOENT).
    const int ret = vmafhip_write_log(c.get(), "/proc/self/status", VMAFHIP_LOG_FMT_XML, 0);
    EXPECT_TRUE(ret == -EINVAL || ret == -EACCES) << ret << " " << vmafhip_last_error(c.get());
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())).find("'/proc/self/status'"),
              std::string("cannot write log file ").size())
        << vmafhip_last_error(c.get());
}

TEST(OutputWriteLog, FullDiskIsAnError)
{
    if (access("/dev/full", W_OK))
        GTEST_SKIP() << "no /dev/full";
    auto c = fake_context();
    EXPECT_EQ(vmafhip_write_log(c.get(), "/dev/full", VMAFHIP_LOG_FMT_XML, 0), -ENOSPC);
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())),
              "cannot write log file '/dev/full': No space left on device");
}

TEST(OutputWriteLog, BadArguments)
{
    auto c = fake_context();
    const std::string path = clitest::scratch("bad.log");
    EXPECT_EQ(vmafhip_write_log(c.get(), path.c_str(), static_cast<VmafHipLogFormat>(4), 0),
              -EINVAL);
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())),
              "log format 4 is not valid: accepted are json (0), csv (1), xml (2) and sub (3)");
    EXPECT_EQ(vmafhip_write_log(c.get(), path.c_str(), VMAFHIP_LOG_FMT_JSON, 2), -EINVAL);
    EXPECT_EQ(std::string(vmafhip_last_error(c.get())),
              "log flags 0x2 are not valid: accepted are 0 and VMAFHIP_LOG_FULL_PRECISION");
    EXPECT_EQ(access(path.c_str(), F_OK), -1); // nothing created
    EXPECT_EQ(vmafhip_write_log(nullptr, path.c_str(), VMAFHIP_LOG_FMT_JSON, 0), -EINVAL);
    EXPECT_EQ(vmafhip_write_log(c.get(), nullptr, VMAFHIP_LOG_FMT_JSON, 0), -EINVAL);
}
