// Running the vmafhip CLI from tests: exit status and captured stdout and
// stderr (optionally with stderr on a pseudo-terminal), a scratch folder,
// and .y4m files made from the raw fixtures.
#pragma once

#include <string>
#include <vector>

namespace clitest {

struct Result {
    int status = -1;  ///< exit status; 128 + signal number if killed
    std::string out;  ///< stdout
    std::string err;  ///< stderr
};

/// Run the CLI (path in $VMAFHIP_CLI, set by meson) with `args`.
/// @param tty stderr is a pseudo-terminal (for the progress line)
/// @param timeout_s kill the CLI if it runs longer (status 128 + SIGKILL);
///        0: wait for it however long it takes
/// @param stdout_path stdout goes there (e.g. /dev/full) instead of to out
Result run(const std::vector<std::string> &args, bool tty = false, int timeout_s = 0,
           const std::string &stdout_path = "");

/// A folder of this test program, removed at exit.
std::string scratch(const std::string &file);

std::string read_file(const std::string &path);
void write_file(const std::string &path, const std::string &data);
bool file_exists(const std::string &path);

/// The pieces of s between separators (a trailing separator ends the last).
std::vector<std::string> split(const std::string &s, char sep);

/// Write a .y4m with header "YUV4MPEG2 W<w> H<h> F25:1 Ip A1:1 C<colorspace>"
/// (no C tag if colorspace is empty) and the frames of the raw clip `yuv`,
/// the first `frames` of them (-1: all), each after "FRAME<frame_params>\n".
void make_y4m(const std::string &path, const std::string &yuv, int w, int h,
              const std::string &colorspace, size_t frame_bytes, int frames = -1,
              const std::string &frame_params = "");

/// Write `data` into the FIFO at `fifo` from a child process, pausing
/// `pause_ms` after the first `pause_at` bytes, and keep the pipe open
/// `hold_ms` after the last. @return the child's pid (wait for it with
/// finish_feed(), or end it at once with stop_feed()).
int feed_fifo(const std::string &fifo, const std::string &data, size_t pause_at = 0,
              int pause_ms = 0, int hold_ms = 0);
void finish_feed(int pid);
void stop_feed(int pid);

/// A log with the lines that name the writer (JSON "version" and "fps",
/// XML <VMAF version> and <fyi fps>) taken from the golden: libvmaf's and
/// ours differ there only.
std::string with_golden_header(const std::string &log, const std::string &golden);

/// Raw fixture clip arguments: -r REF -d DIS -w W -h H -p P -b B.
std::vector<std::string> fixture_args(const std::string &fixture_name);

} // namespace clitest
