// One short scoring run through the public API that stops at the first
// error, for the fault-injection tests: which step failed, with what code
// and message, and every score it produced (to compare with a clean run).
#pragma once

#include <cerrno>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace testfx {

struct FaultOutcome {
    int ret = 0;          ///< first error, or 0
    std::string step;     ///< the call that returned it
    std::string message;  ///< vmafhip_last_error() after it
    std::vector<double> values; ///< per-frame scores, then pooled means
};

/// 64x48 8-bit 4:2:0, 5 frame pairs of a moving pattern, features and
/// models as given, 2 CPU threads (the pool's allocations count too); the
/// log goes to log_path. arm(), if given, runs right before open, after
/// the scenario's own allocations.
inline FaultOutcome fault_scenario(VmafHipBackend backend, const char *features, const char *models,
                                   const std::string &log_path, void (*arm)() = nullptr)
{
    constexpr int W = 64, H = 48, kFrames = 5;
    // Nothing of the test allocates between open and the first error, so
    // that the counted allocations are all the library's.
    FaultOutcome out;
    out.values.reserve(4096);
    std::vector<uint8_t> ref(W * H * 3 / 2), dis(ref.size());
    VmafHipSettings s = settings(W, H, 8, VMAFHIP_CHROMA_420, features);
    testfx::set_backend(&s, backend);
    s.threads = 2;
    s.models = models;
    s.log_level = VMAFHIP_LOG_ERROR;
    s.log_callback = [](void *, VmafHipLogLevel, const char *, va_list) {};
    VmafHipContext *c = nullptr;
    auto fail = [&](int ret, const char *step) {
        out.ret = ret;
        out.step = step;
        out.message = vmafhip_last_error(c);
        vmafhip_close(&c);
        return out;
    };
    int ret;
    if (arm)
        arm();
    if ((ret = vmafhip_open(&c, &s)) < 0)
        return fail(ret, "open");
    for (int i = 0; i < kFrames; i++) {
        for (size_t k = 0; k < ref.size(); k++) {
            ref[k] = static_cast<uint8_t>((k * 7 + static_cast<size_t>(i) * 13) & 255);
            dis[k] = static_cast<uint8_t>(ref[k] ^ ((k * 5 + static_cast<size_t>(i)) & 15));
        }
        VmafHipPicture r = {}, d = {};
        const size_t offsets[3] = {0, W * H, W * H + W * H / 4};
        for (int p = 0; p < 3; p++) {
            r.data[p] = ref.data() + offsets[p];
            d.data[p] = dis.data() + offsets[p];
            r.stride[p] = d.stride[p] = p ? W / 2 : W;
        }
        if ((ret = vmafhip_submit(c, &d, &r)) < 0)
            return fail(ret, "submit");
    }
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    // The first frame before the end of the stream (motion waits for the
    // next frames), the others after it.
    const double *v;
    if ((ret = vmafhip_frame_scores(c, 0, 1, &v)) < 0)
        return fail(ret, "frame_scores");
    out.values.insert(out.values.end(), v, v + n);
    if ((ret = vmafhip_flush(c)) < 0)
        return fail(ret, "flush");
    for (unsigned i = 1; i < kFrames; i++) {
        if ((ret = vmafhip_frame_scores(c, i, 1, &v)) < 0)
            return fail(ret, "frame_scores");
        out.values.insert(out.values.end(), v, v + n);
    }
    for (int k = 0; k < n; k++) {
        VmafHipPooled pooled;
        if ((ret = vmafhip_pooled(c, k, &pooled)) < 0)
            return fail(ret, "pooled");
        out.values.push_back(pooled.mean);
    }
    if ((ret = vmafhip_write_log(c, log_path.c_str(), VMAFHIP_LOG_FMT_JSON, 0)) < 0)
        return fail(ret, "write_log");
    vmafhip_close(&c);
    return out;
}

} // namespace testfx
