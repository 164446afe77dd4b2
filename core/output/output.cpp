// vmafhip_write_log(): opens the destination, picks the writer, reports
// I/O errors; plus the number formats the writers share.
#include "core/output/output.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include <climits>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "base/quote.h"

namespace vmafhip {

namespace {

// libvmaf output.c count_leading_zeroes_d(): zeros between the decimal point
// and the first non-zero digit of the fraction, counted by repeated
// multiplication so the boundaries round as libvmaf's do. The goldens pin
// the threshold: 1.0000008524 (fraction 8.5e-7) prints with 16 decimals,
// 1.0000017048 with 6.
unsigned fraction_digits_to_first_nonzero(double v)
{
    double frac = v - std::floor(v);
    unsigned n = 0;
    while (frac != 0 && frac < 1) {
        frac *= 10;
        n++;
    }
    return n;
}

using Writer = void (*)(const VmafHipContext &, unsigned, FILE *);

Writer writer_for(VmafHipLogFormat fmt)
{
    switch (fmt) {
    case VMAFHIP_LOG_FMT_JSON: return write_json;
    case VMAFHIP_LOG_FMT_CSV: return write_csv;
    case VMAFHIP_LOG_FMT_XML: return write_xml;
    case VMAFHIP_LOG_FMT_SUB: return write_sub;
    }
    return nullptr;
}

} // namespace

std::string json_number(double v, unsigned flags)
{
    if (!std::isfinite(v))
        return "null";
    if (flags & VMAFHIP_LOG_FULL_PRECISION)
        return strprintf("%.17g", v);
    return strprintf(fraction_digits_to_first_nonzero(v) > 6 ? "%.16f" : "%.6f", v);
}

std::string text_number(double v, unsigned flags)
{
    // printf prints NaN as "nan" or "-nan" after its sign bit, which means
    // nothing (0/0 on x86 gives "-nan"): one spelling, stable across runs.
    if (std::isnan(v))
        return "nan";
    return strprintf(flags & VMAFHIP_LOG_FULL_PRECISION ? "%.17g" : "%.6f", v);
}

bool log_has_frame(const VmafHipContext &c, unsigned i)
{
    // libvmaf lists the frames its collector holds a score of: none when
    // nothing writes one (the null extractor alone).
    return i < c.completed && c.status[i] == FRAME_DONE && !c.names().empty();
}

double log_fps(const VmafHipContext &c)
{
    const double seconds = std::chrono::duration<double>(c.last_finish - c.first_submit).count();
    return c.collected && seconds > 0 ? c.collected / seconds : 0;
}

} // namespace vmafhip

using namespace vmafhip;

namespace {

int open_failed(VmafHipContext *c, const std::string &path)
{
    const int err = errno;
    return context_fail(c, -err, strprintf("cannot open log file %s for writing: %s",
                                           quote_cut(path).c_str(), std::strerror(err)));
}

// A new file beside `path` ("<path>.<pid>.<n>"), its name in *tmp. O_EXCL
// with a fresh name rather than mkstemp: the file gets 0666 less the umask,
// as any new file, without touching the process-wide umask.
int open_beside(const std::string &path, std::string *tmp)
{
    static std::atomic<unsigned> seq{0};
    for (int tries = 0; tries < 100; tries++) {
        *tmp = strprintf("%s.%d.%u", path.c_str(), static_cast<int>(getpid()), seq++);
        const int fd = open(tmp->c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            return fd;
    }
    errno = EEXIST;
    return -1;
}

bool on_procfs(const std::string &path)
{
    constexpr long proc_super_magic = 0x9fa0; // linux/magic.h
    const size_t slash = path.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash ? slash : 1);
    struct statfs fs;
    return !statfs(dir.c_str(), &fs) && fs.f_type == proc_super_magic;
}

// The file a log path names, following the symbolic links of its last
// component: a log written beside a link and renamed over it would replace
// the link and leave its target as it was. *in_place is set when the path
// must be written through as it is: a link under /proc (/dev/stdout leads to
// /proc/self/fd/1, which names an open file, not a place in a folder), or a
// chain of links too long or too deep to follow (opening it then says why).
std::string log_target(const char *path, bool *in_place)
{
    std::string target = path;
    *in_place = false;
    for (int hops = 0; hops < 40; hops++) {
        struct stat st;
        if (lstat(target.c_str(), &st) || !S_ISLNK(st.st_mode))
            return target;
        char link[PATH_MAX];
        const ssize_t n = on_procfs(target) ? -1 : readlink(target.c_str(), link, sizeof(link));
        if (n <= 0 || static_cast<size_t>(n) == sizeof(link))
            break;
        const size_t slash = target.rfind('/');
        target = link[0] == '/' || slash == std::string::npos
                     ? std::string(link, static_cast<size_t>(n))
                     : target.substr(0, slash + 1) + std::string(link, static_cast<size_t>(n));
    }
    *in_place = true;
    return path;
}

// Write the log to f and close it (but not stdout); `where` names it in
// messages (quoted). Write errors (a full disk) surface at any write, the flush or
// the close.
int write_to(VmafHipContext *c, Writer writer, unsigned flags, FILE *f, const std::string &where)
{
    const bool is_stdout = f == stdout;
    errno = 0;
    try {
        writer(*c, flags, f);
    } catch (const std::bad_alloc &) {
        if (!is_stdout)
            std::fclose(f);
        throw;
    }
    int err = 0;
    if (std::fflush(f) || std::ferror(f))
        err = errno ? errno : EIO;
    if (!is_stdout && std::fclose(f) && !err)
        err = errno;
    if (err)
        return context_fail(c, -err, strprintf("cannot write log file %s: %s", where.c_str(),
                                               std::strerror(err)));
    return 0;
}

// Write the log to `path` in place, as libvmaf does.
int write_in_place(VmafHipContext *c, const std::string &path, Writer writer, unsigned flags)
{
    FILE *f = std::fopen(path.c_str(), "w");
    if (!f)
        return open_failed(c, path);
    return write_to(c, writer, flags, f, quote_cut(path));
}

// The log to `path` ("-": standard output).
int write_log_file(VmafHipContext *c, const char *path, Writer writer, unsigned flags)
{
    if (!std::strcmp(path, "-"))
        return write_to(c, writer, flags, stdout, "'standard output'");
    // A regular file (or a new one) is written beside itself and renamed
    // over it at the end, so that a failure (a full disk) leaves the old
    // file or none, never half a log. Anything else (/dev/null, a pipe,
    // /dev/stdout) is written in place, and so is a file beside which no
    // file can be made (its folder is not writable, or is /proc): libvmaf
    // writes such a file, and so do we, and an error then is the file's own.
    bool in_place;
    const std::string target = log_target(path, &in_place);
    struct stat st;
    const bool exists = stat(target.c_str(), &st) == 0;
    if (in_place || (exists && !S_ISREG(st.st_mode)))
        return write_in_place(c, target, writer, flags);
    std::string tmp;
    const int fd = open_beside(target, &tmp);
    if (fd < 0)
        return write_in_place(c, target, writer, flags);
    // A log that replaces one keeps its mode, as writing it in place did.
    if (exists)
        (void)fchmod(fd, st.st_mode & 07777);
    FILE *f = fdopen(fd, "w");
    if (!f) {
        close(fd);
        unlink(tmp.c_str());
        return open_failed(c, target);
    }
    int ret;
    try {
        ret = write_to(c, writer, flags, f, quote_cut(target));
    } catch (const std::bad_alloc &) {
        unlink(tmp.c_str());
        throw;
    }
    if (ret == 0 && std::rename(tmp.c_str(), target.c_str()) != 0) {
        const int err = errno;
        ret = context_fail(c, -err, strprintf("cannot write log file %s: %s",
                                              quote_cut(target).c_str(), std::strerror(err)));
    }
    if (ret < 0)
        unlink(tmp.c_str());
    return ret;
}

int write_log(VmafHipContext *c, const char *path, VmafHipLogFormat fmt, unsigned flags)
{
    const Writer writer = writer_for(fmt);
    if (!writer)
        return context_fail(c, -EINVAL,
                            strprintf("log format %d is not valid: accepted are json (%d), "
                                      "csv (%d), xml (%d) and sub (%d)",
                                      static_cast<int>(fmt), VMAFHIP_LOG_FMT_JSON,
                                      VMAFHIP_LOG_FMT_CSV, VMAFHIP_LOG_FMT_XML,
                                      VMAFHIP_LOG_FMT_SUB));
    if (flags & ~VMAFHIP_LOG_FULL_PRECISION)
        return context_fail(c, -EINVAL,
                            strprintf("log flags 0x%x are not valid: accepted are 0 and "
                                      "VMAFHIP_LOG_FULL_PRECISION",
                                      flags));
    // A frame error (-ERANGE) only leaves that frame out of the log; a
    // backend failure leaves frames without scores, so nothing is written.
    const int flushed = vmafhip_flush(c);
    if (flushed < 0 && c->fatal)
        return flushed;
    return write_log_file(c, path, writer, flags);
}

} // namespace

extern "C" int vmafhip_write_log(VmafHipContext *c, const char *path, enum VmafHipLogFormat fmt,
                                 unsigned flags)
{
    if (!c || !path)
        return -EINVAL;
    // Out of memory while writing: the scores stay; only this log fails.
    try {
        return write_log(c, path, fmt, flags);
    } catch (const std::bad_alloc &) {
        return context_out_of_memory(c, "while writing the log", false);
    }
}
