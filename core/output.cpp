// vmafhip_write_log(): opens the destination, picks the writer, reports
// I/O errors; plus the number formats the writers share.
#include "core/output.h"

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>

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
    return i < c.completed && c.status[i] == FRAME_DONE;
}

double log_fps(const VmafHipContext &c)
{
    const double seconds = std::chrono::duration<double>(c.last_finish - c.first_submit).count();
    return c.collected && seconds > 0 ? c.collected / seconds : 0;
}

} // namespace vmafhip

using namespace vmafhip;

extern "C" int vmafhip_write_log(VmafHipContext *c, const char *path, enum VmafHipLogFormat fmt,
                                 unsigned flags)
{
    if (!c || !path)
        return -EINVAL;
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
    const int ret = vmafhip_flush(c);
    if (ret < 0 && c->fatal)
        return ret;

    const bool to_stdout = !std::strcmp(path, "-");
    FILE *f = to_stdout ? stdout : std::fopen(path, "w");
    if (!f) {
        const int err = errno;
        return context_fail(c, -err, strprintf("cannot open log file '%s' for writing: %s", path,
                                               std::strerror(err)));
    }
    errno = 0;
    writer(*c, flags, f);
    // Write errors (a full disk) surface at any write, the flush or the close.
    int err = 0;
    if (std::fflush(f) || std::ferror(f))
        err = errno ? errno : EIO;
    if (!to_stdout && std::fclose(f) && !err)
        err = errno;
    if (err)
        return context_fail(c, -err, strprintf("cannot write log file '%s': %s", path,
                                               std::strerror(err)));
    return 0;
}
