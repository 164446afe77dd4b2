// Messages to the caller's log callback (or stderr), and the context's
// last-error text.
#pragma once

#include <cstdarg>
#include <string>

#include "vmafhip.h"

namespace vmafhip {

class Logger {
public:
    Logger() = default;
    Logger(VmafHipLogCallback cb, void *cookie, VmafHipLogLevel level)
        : cb_(cb), cookie_(cookie), level_(level)
    {
    }

    void log(VmafHipLogLevel level, const char *fmt, ...) const __attribute__((format(printf, 3, 4)));
    void vlog(VmafHipLogLevel level, const char *fmt, va_list vl) const;

private:
    VmafHipLogCallback cb_ = nullptr;
    void *cookie_ = nullptr;
    VmafHipLogLevel level_ = VMAFHIP_LOG_INFO;
};

/// printf into a std::string.
std::string strprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

} // namespace vmafhip
