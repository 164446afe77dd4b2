#include "tests/cli/cli_runner.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <pty.h>
#include <sstream>
#include <stdexcept>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/common/fixtures.h"

namespace clitest {

namespace {

struct Scratch {
    std::string dir;
    Scratch()
    {
        char tmpl[] = "/tmp/vmafhip-cli-XXXXXX";
        if (!mkdtemp(tmpl))
            throw std::runtime_error("mkdtemp failed");
        dir = tmpl;
    }
    ~Scratch()
    {
        const std::string cmd = "rm -rf '" + dir + "'";
        if (std::system(cmd.c_str()))
            std::fprintf(stderr, "could not remove %s\n", dir.c_str());
    }
};

const char *cli_path()
{
    const char *p = std::getenv("VMAFHIP_CLI");
    if (!p)
        throw std::runtime_error("VMAFHIP_CLI is not set: run through meson test");
    return p;
}

[[noreturn]] void exec_cli(const std::vector<std::string> &args)
{
    std::vector<char *> argv;
    static std::string prog = cli_path();
    argv.push_back(&prog[0]);
    std::vector<std::string> copy = args;
    for (auto &a : copy)
        argv.push_back(&a[0]);
    argv.push_back(nullptr);
    execv(prog.c_str(), argv.data());
    _exit(127);
}

// The child's exit status; with timeout_s, a child still running then is
// killed (128 + SIGKILL), so that a test fails instead of hanging.
int exit_status(pid_t pid, int timeout_s = 0)
{
    int st = 0;
    for (int waited_ms = 0; timeout_s; waited_ms += 10) {
        const pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid)
            return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
        if (r < 0 && errno != EINTR)
            throw std::runtime_error("waitpid failed");
        if (waited_ms >= timeout_s * 1000) {
            kill(pid, SIGKILL);
            break;
        }
        usleep(10 * 1000);
    }
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

} // namespace

std::string scratch(const std::string &file)
{
    static Scratch s;
    return s.dir + "/" + file;
}

std::string read_file(const std::string &path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void write_file(const std::string &path, const std::string &data)
{
    std::ofstream out(path, std::ios::binary);
    out << data;
    if (!out)
        throw std::runtime_error("cannot write " + path);
}

bool file_exists(const std::string &path)
{
    struct stat st;
    return !stat(path.c_str(), &st);
}

std::vector<std::string> split(const std::string &s, char sep)
{
    std::vector<std::string> out;
    std::string item;
    std::istringstream in(s);
    while (std::getline(in, item, sep))
        out.push_back(item);
    return out;
}

Result run(const std::vector<std::string> &args, bool tty, int timeout_s,
           const std::string &stdout_path)
{
    static int n = 0;
    const std::string out_path = scratch("run" + std::to_string(n) + ".out");
    const std::string err_path = scratch("run" + std::to_string(n++) + ".err");
    Result r;
    pid_t pid;
    int master = -1;
    if (tty) {
        pid = forkpty(&master, nullptr, nullptr, nullptr);
    } else {
        pid = fork();
    }
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (!pid) {
        const int out = open(stdout_path.empty() ? out_path.c_str() : stdout_path.c_str(),
                             O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(out, 1);
        if (!tty) {
            const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(err, 2);
            const int null = open("/dev/null", O_RDONLY);
            dup2(null, 0);
        }
        exec_cli(args);
    }
    if (tty) {
        // The terminal's output until the child closes it (read gives EIO).
        char buf[4096];
        ssize_t got;
        while ((got = read(master, buf, sizeof(buf))) > 0 || (got < 0 && errno == EINTR))
            if (got > 0)
                r.err.append(buf, static_cast<size_t>(got));
        close(master);
    }
    r.status = exit_status(pid, timeout_s);
    r.out = read_file(out_path);
    if (!tty)
        r.err = read_file(err_path);
    return r;
}

void make_y4m(const std::string &path, const std::string &yuv, int w, int h,
              const std::string &colorspace, size_t frame_bytes, int frames,
              const std::string &frame_params)
{
    const std::string raw = read_file(yuv);
    if (raw.empty() || raw.size() % frame_bytes)
        throw std::runtime_error(yuv + ": not whole frames of the given size");
    const size_t n = frames < 0 ? raw.size() / frame_bytes : static_cast<size_t>(frames);
    std::string y4m = "YUV4MPEG2 W" + std::to_string(w) + " H" + std::to_string(h) +
                      " F25:1 Ip A1:1" + (colorspace.empty() ? "" : " C" + colorspace) + "\n";
    for (size_t i = 0; i < n; i++)
        y4m += "FRAME" + frame_params + "\n" + raw.substr(i * frame_bytes, frame_bytes);
    write_file(path, y4m);
}

int feed_fifo(const std::string &fifo, const std::string &data, size_t pause_at, int pause_ms,
              int hold_ms)
{
    const pid_t pid = fork();
    if (pid < 0)
        throw std::runtime_error("fork failed");
    if (pid)
        return pid;
    alarm(60); // never outlive a CLI that did not open the pipe
    const int fd = open(fifo.c_str(), O_WRONLY);
    for (size_t at = 0; at < data.size();) {
        const size_t end = at < pause_at ? pause_at : data.size();
        const ssize_t w = write(fd, data.data() + at, end - at);
        if (w <= 0)
            _exit(1);
        at += static_cast<size_t>(w);
        if (at == pause_at)
            usleep(pause_ms * 1000);
    }
    usleep(hold_ms * 1000);
    _exit(0);
}

void finish_feed(int pid)
{
    exit_status(pid);
}

void stop_feed(int pid)
{
    kill(pid, SIGKILL);
    exit_status(pid);
}

std::string with_golden_header(const std::string &log, const std::string &golden)
{
    std::istringstream lg(log), gg(golden);
    std::string out, a, b;
    while (std::getline(lg, a)) {
        const bool more = static_cast<bool>(std::getline(gg, b));
        const bool header = a.find("\"version\": ") == 2 || a.find("\"fps\": ") == 2 ||
                            a.rfind("<VMAF version=", 0) == 0 || a.rfind("  <fyi fps=", 0) == 0;
        out += (header && more ? b : a) + "\n";
    }
    return out;
}

std::vector<std::string> fixture_args(const std::string &fixture_name)
{
    const testfx::Fixture &f = testfx::fixture(fixture_name);
    static const char *const pix[] = {"420", "422", "444", "400"};
    return {"-r", testfx::path(f.ref), "-d", testfx::path(f.dis), "-w", std::to_string(f.w),
            "-h", std::to_string(f.h), "-p", pix[f.chroma], "-b", std::to_string(f.bpc)};
}

} // namespace clitest
