// integer ADM: libvmaf's integer_adm.c, spec adm.md.
// Host side shared by both backends: validation, names (with libvmaf's
// option suffixes), CSF weights, per-scale regions and shifts, and the
// float tail (§5.3, §7.3, §9) from exact integer accumulators.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/plane.h"
#include "vmafhip.h"

namespace vmafhip {

class ThreadPool;

/// Per-frame accumulators, [scale][orientation H, V, D]; also the GPU layout.
struct AdmAccum {
    int64_t num[4][3];  ///< DLM contrast-masked numerator sums (§7.3), per-row shifted
    uint64_t den[4][3]; ///< reference energy sums (§5), per-row shifted
    int64_t aim[4][3];  ///< AIM numerator sums (§8); 0 when skip_aim
};

} // namespace vmafhip

namespace vmafhip {

// Placeholder declarations: replaced by the ADM implementation.
class Adm {
public:
    static int check(const VmafHipAdmSettings &s, const Geometry &g, std::string *msg);
    Adm(const VmafHipAdmSettings &s, const Geometry &g, const std::string &name_suffix);
    void names(std::vector<std::string> *out) const;
    void finish(const AdmAccum &a, double *out) const;
};

void adm_cpu(const Adm &m, const Geometry &g, const FrameView &f, AdmAccum *a, ThreadPool &pool);

} // namespace vmafhip
