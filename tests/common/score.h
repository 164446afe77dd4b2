// A fixture pair scored whole through the public API: every frame's scores
// and the pooled values, on the backend the test program is built for.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "tests/common/bits.h"
#include "tests/common/context.h"
#include "tests/common/fixtures.h"
#include "vmafhip.h"

namespace testfx {

struct Scored {
    std::vector<std::string> names;
    std::vector<std::vector<double>> frames; // [frame][feature]
    std::map<std::string, VmafHipPooled> pooled;
};

// Score a whole fixture pair with the given settings (its first `frames`
// frames where frames > 0: a shorter stream).
inline Scored score(const Fixture &f, VmafHipSettings s, int frames = 0)
{
    set_backend(&s, TEST_BACKEND);
    Scored run;
    const Ctx ctx = open_ctx(s);
    if (!ctx)
        return run;
    VmafHipContext *c = ctx.get();
    const Clip ref(f.ref, f.w, f.h, f.bpc, f.chroma), dis(f.dis, f.w, f.h, f.bpc, f.chroma);
    EXPECT_EQ(ref.frames(), f.frames);
    const int n_frames = frames > 0 && frames < ref.frames() ? frames : ref.frames();
    for (int i = 0; i < n_frames; i++) {
        const VmafHipPicture r = ref.picture(i), d = dis.picture(i);
        EXPECT_EQ(vmafhip_submit(c, &d, &r), i) << vmafhip_last_error(c);
    }
    EXPECT_EQ(vmafhip_flush(c), 0) << vmafhip_last_error(c);
    const char *const *names;
    const int n = vmafhip_feature_names(c, &names);
    run.names.assign(names, names + n);
    for (int i = 0; i < n_frames; i++) {
        const double *v = nullptr;
        const int ret = vmafhip_frame_scores(c, static_cast<unsigned>(i), 1, &v);
        if (ret == VMAFHIP_FRAME_SKIPPED && i % s.n_subsample)
            continue; // like libvmaf's log: scored frames only
        EXPECT_EQ(ret, 0);
        run.frames.emplace_back(v, v + n);
    }
    for (int k = 0; k < n; k++)
        EXPECT_EQ(vmafhip_pooled(c, k, &run.pooled[names[k]]), 0);
    return run;
}

/// Every value of a golden file whose name starts with prefix against the
/// output of that name in r (any struct with names and frames[frame][k], as
/// Scored), bit for bit; outputs r lacks are skipped. A null of the golden
/// (libvmaf's JSON for NaN and infinities) takes any value that is not
/// finite. @return the number of values compared.
template <typename Run>
int compare_golden_values(const Run &r, const std::string &golden, const std::string &prefix)
{
    int compared = 0;
    for (const auto &kv : golden_frames(golden)) {
        if (kv.first.rfind(prefix, 0) != 0)
            continue;
        size_t k = 0;
        while (k < r.names.size() && r.names[k] != kv.first)
            k++;
        if (k == r.names.size())
            continue;
        EXPECT_EQ(kv.second.size(), r.frames.size()) << kv.first;
        for (size_t i = 0; i < kv.second.size() && i < r.frames.size(); i++) {
            const double ours = r.frames[i][k], theirs = kv.second[i];
            if (std::isnan(theirs))
                EXPECT_FALSE(std::isfinite(ours)) << golden << " " << kv.first << " frame " << i;
            else
                EXPECT_EQ(bits(ours), bits(theirs))
                    << golden << " " << kv.first << " frame " << i << ": " << ours << " against "
                    << theirs;
            compared++;
        }
    }
    return compared;
}

} // namespace testfx
