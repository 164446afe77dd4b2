// Test steps shared by the CTC metrics (float_ms_ssim, psnr_hvs, ciede):
// their libvmaf goldens on every pair that has one, and the refusal by the
// GPU backend of those that are CPU only.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

namespace testfx {

/// The pairs with a .ctc golden (tests/fixtures/MANIFEST.md, "CTC goldens"),
/// each with the extractors its golden holds (Fixture::features).
inline std::vector<Fixture> ctc_pairs()
{
    const auto with = [](Fixture f, const char *features) {
        f.features = features;
        return f;
    };
    const char ALL[] = "float_ms_ssim|psnr_hvs|ciede";
    return {
        with(fixture("natural1_576x324_yuv420p__ref_vs_mpeg2q28"), ALL),
        with(fixture("natural1_576x324_yuv420p__ref_vs_x264crf38"), ALL),
        with(fixture("natural1_576x324_yuv420p__ref_vs_ref"), ALL), // psnr_hvs, ciede: +inf (null)
        with(fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32"), ALL),
        with(fixture("natural1_576x324_yuv420p10le__ref_vs_x264crf38"), ALL),
        with(fixture("natural1_576x324_yuv444p__ref_vs_x264crf38"), ALL),
        // libvmaf's ciede reads outside the chroma planes in 4:2:2 (docs/ciede.md §2)
        with(fixture("natural1_576x324_yuv422p__ref_vs_x264crf38"), "float_ms_ssim|psnr_hvs"),
        with(pair("minsize_ms_ssim_176x176_yuv420p__ref_vs_x264crf38", 8, VMAFHIP_CHROMA_420, 3), ALL),
        with(pair("minsize_ms_ssim_176x176_yuv420p12le__ref_vs_x264crf38", 12, VMAFHIP_CHROMA_420, 3),
             ALL),
        // libvmaf's psnr_hvs refuses 16 bits
        with(pair("minsize_ms_ssim_176x176_yuv420p16le__ref_vs_x264crf38", 16, VMAFHIP_CHROMA_420, 1),
             "float_ms_ssim|ciede"),
    };
}

/// A run of `features` on a pair, with `threads` (0: the default).
inline Scored run_features(const Fixture &f, const std::string &features, int threads = 0)
{
    VmafHipSettings s = settings(f.w, f.h, f.bpc, f.chroma, features.c_str());
    s.threads = threads;
    return score(f, s);
}

/// Runs extractor `feature` on every ctc_pairs() pair whose golden holds it,
/// with 1 and 3 threads, and compares each output whose name starts with
/// prefix with the pair's .ctc golden, bit for bit; each run must give
/// outputs_per_frame values a frame. @return the number of values compared.
inline int compare_ctc_goldens(const std::string &feature, const std::string &prefix,
                               int outputs_per_frame)
{
    int compared = 0;
    for (const Fixture &f : ctc_pairs()) {
        if (!f.has(feature))
            continue;
        for (int threads : {1, 3}) {
            SCOPED_TRACE(f.name + " threads " + std::to_string(threads));
            const int n = compare_golden_values(run_features(f, feature, threads),
                                                "golden/" + f.name + ".ctc.fullprec.json", prefix);
            EXPECT_EQ(n, outputs_per_frame * f.frames);
            compared += n;
        }
    }
    return compared;
}

/// The GPU backend refuses a context with `feature` (no GPU implementation,
/// or no GPU in this build): the message names the feature when the build has one.
inline void expect_gpu_backend_refuses(const std::string &feature)
{
    VmafHipSettings s = settings(576, 324, 8, VMAFHIP_CHROMA_420, feature.c_str());
    s.backend = VMAFHIP_BACKEND_HIP;
    LogLines log;
    ASSERT_LT(try_open(s, &log), 0);
    const std::string msg = vmafhip_last_error(nullptr);
    if (msg.find(feature) != std::string::npos) {
        EXPECT_NE(msg.find(feature + " has no GPU implementation in this build"), std::string::npos)
            << msg;
    }
}

} // namespace testfx
