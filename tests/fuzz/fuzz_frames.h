// Scoring a few small frames through the public API once a fuzzed context
// opened, so that every option the fuzzer set also runs, not only parses.
#pragma once

#include <cstdarg>
#include <cstdint>
#include <vector>

#include "vmafhip.h"

namespace fuzz {

// Above every minimum size but CAMBI's, SpEED's and MS-SSIM's, whose options are still parsed.
constexpr int kW = 64, kH = 48;

/// Settings for a kW x kH 8-bit 4:2:0 context on the CPU that logs nothing.
inline VmafHipSettings quiet_settings()
{
    VmafHipSettings s;
    vmafhip_default_settings(&s);
    s.width = kW;
    s.height = kH;
    s.bitdepth = 8;
    s.chroma = VMAFHIP_CHROMA_420;
    s.backend = VMAFHIP_BACKEND_CPU;
    s.threads = 1;
    s.log_level = VMAFHIP_LOG_ERROR;
    s.log_callback = [](void *, enum VmafHipLogLevel, const char *, va_list) {};
    return s;
}

/// Open with s; if that works, score `frames` pairs of a moving pattern,
/// read every score, pool and write a log to /dev/null.
inline void score_some(const VmafHipSettings &s, int frames, VmafHipLogFormat log_fmt)
{
    VmafHipContext *c = nullptr;
    if (vmafhip_open(&c, &s) < 0)
        return;
    std::vector<uint8_t> ref(kW * kH * 3 / 2), dis(ref.size());
    for (int i = 0; i < frames; i++) {
        for (size_t k = 0; k < ref.size(); k++) {
            ref[k] = static_cast<uint8_t>((k * 7 + static_cast<size_t>(i) * 13) & 255);
            dis[k] = static_cast<uint8_t>(ref[k] ^ ((k * 5 + static_cast<size_t>(i)) & 7));
        }
        VmafHipPicture r = {}, d = {};
        const uint8_t *rp = ref.data(), *dp = dis.data();
        const ptrdiff_t strides[3] = {kW, kW / 2, kW / 2};
        const size_t sizes[3] = {kW * kH, kW * kH / 4, kW * kH / 4};
        for (int p = 0; p < 3; p++) {
            r.data[p] = rp;
            d.data[p] = dp;
            r.stride[p] = d.stride[p] = strides[p];
            rp += sizes[p];
            dp += sizes[p];
        }
        if (vmafhip_submit(c, &d, &r) < 0)
            break;
    }
    vmafhip_flush(c);
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    for (int i = 0; i < frames; i++) {
        const double *v;
        vmafhip_frame_scores(c, static_cast<unsigned>(i), 1, &v);
    }
    for (int k = 0; k < n; k++) {
        VmafHipPooled pooled;
        vmafhip_pooled(c, k, &pooled);
    }
    const char *const *agg_names;
    const double *agg;
    vmafhip_aggregate_scores(c, &agg_names, &agg);
    for (int m = 0; m < vmafhip_model_count(c); m++) {
        const char *source;
        int feature;
        vmafhip_model_info(c, m, &source, &feature);
    }
    vmafhip_write_log(c, "/dev/null", log_fmt, 0);
    vmafhip_close(&c);
}

} // namespace fuzz
