// A context that closes itself, opened with an expectation that it opens.
#pragma once

#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "vmafhip.h"

/// The backend a test program built for both suites runs on: the CPU, or
/// what the GPU suite's build passes (-DTEST_BACKEND=VMAFHIP_BACKEND_HIP).
#ifndef TEST_BACKEND
#define TEST_BACKEND VMAFHIP_BACKEND_CPU
#endif

namespace testfx {

/// s scores on `backend`; on the GPU with gpu_wait, so that every frame is
/// scored there (not the first ones on the CPU while the GPU starts).
inline void set_backend(VmafHipSettings *s, int backend)
{
    s->backend = static_cast<VmafHipBackend>(backend);
    s->gpu_wait = backend != VMAFHIP_BACKEND_CPU;
}

struct ContextCloser {
    void operator()(VmafHipContext *c) const { vmafhip_close(&c); }
};
using Ctx = std::unique_ptr<VmafHipContext, ContextCloser>;

/// Library messages kept for a test to inspect: settings.log_callback =
/// collect_log, settings.log_cookie = &lines.
struct LogLines {
    std::vector<std::string> lines;
    std::string last() const { return lines.empty() ? "" : lines.back(); }
};

inline void collect_log(void *cookie, VmafHipLogLevel, const char *fmt, va_list vl)
{
    char buf[1024];
    std::vsnprintf(buf, sizeof buf, fmt, vl);
    static_cast<LogLines *>(cookie)->lines.push_back(buf);
}

/// Open a context and close it at once, the library's messages kept in
/// *log (out of the test's output). @return what vmafhip_open() returned.
inline int try_open(VmafHipSettings s, LogLines *log)
{
    s.log_callback = collect_log;
    s.log_cookie = log;
    VmafHipContext *c = nullptr;
    const int ret = vmafhip_open(&c, &s);
    vmafhip_close(&c);
    return ret;
}

/// Open a context; a failure is a test failure (with the library's message)
/// and gives an empty Ctx.
inline Ctx open_ctx(const VmafHipSettings &s)
{
    VmafHipContext *c = nullptr;
    EXPECT_EQ(vmafhip_open(&c, &s), 0) << vmafhip_last_error(nullptr);
    return Ctx(c);
}

} // namespace testfx
