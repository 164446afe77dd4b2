// Test steps shared by libvmaf's float family (float_adm, float_vif,
// float_motion, float_psnr, float_ansnr, float_moment): their .float goldens
// (tests/fixtures/MANIFEST.md, "Float goldens") on every pair that has one.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/common/fixtures.h"
#include "tests/common/score.h"
#include "vmafhip.h"

namespace testfx {

/// The pairs with a .float golden: 8 and 10 bits, 4:2:0, 4:2:2 and 4:4:4,
/// identical pictures.
inline std::vector<Fixture> float_pairs()
{
    return {
        fixture("natural1_576x324_yuv420p__ref_vs_mpeg2q28"),
        fixture("natural1_576x324_yuv420p__ref_vs_x264crf38"),
        fixture("natural1_576x324_yuv420p__ref_vs_ref"),
        fixture("natural2_352x288_yuv420p10le__ref_vs_x265crf32"),
        fixture("natural4_176x144_yuv422p__ref_vs_x264crf34"),
        fixture("natural5_176x144_yuv444p__ref_vs_mjpegq20"),
    };
}

/// Runs `features` (a VmafHipSettings::features string, e.g.
/// "float_adm=adm_enhn_gain_limit=1") on every float_pairs() pair with 1 and 3
/// threads and compares each output the pair's .float golden holds, bit for
/// bit; each run must compare outputs_per_frame values a frame (so an output
/// missing from the run, or named otherwise, fails). @return the number of
/// values compared.
inline int compare_float_goldens(const std::string &features, int outputs_per_frame)
{
    int compared = 0;
    for (const Fixture &f : float_pairs()) {
        for (int threads : {1, 3}) {
            SCOPED_TRACE(f.name + " " + features + " threads " + std::to_string(threads));
            VmafHipSettings s = settings(f.w, f.h, f.bpc, f.chroma, features.c_str());
            s.threads = threads;
            const int n = compare_golden_values(score(f, s),
                                                "golden/" + f.name + ".float.fullprec.json", "");
            EXPECT_EQ(n, outputs_per_frame * f.frames);
            compared += n;
        }
    }
    return compared;
}

} // namespace testfx
