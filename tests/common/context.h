// A context that closes itself, opened with an expectation that it opens.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "vmafhip.h"

namespace testfx {

struct ContextCloser {
    void operator()(VmafHipContext *c) const { vmafhip_close(&c); }
};
using Ctx = std::unique_ptr<VmafHipContext, ContextCloser>;

/// Open a context; a failure is a test failure (with the library's message)
/// and gives an empty Ctx.
inline Ctx open_ctx(const VmafHipSettings &s)
{
    VmafHipContext *c = nullptr;
    EXPECT_EQ(vmafhip_open(&c, &s), 0) << vmafhip_last_error(nullptr);
    return Ctx(c);
}

} // namespace testfx
