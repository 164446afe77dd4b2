// Creating the metrics of a context and finishing a frame's scores from its
// accumulators: the same host code for every backend.
#pragma once

#include <string>
#include <vector>

#include "core/backend.h"

namespace vmafhip {

/// Validate s (sizes, formats, option ranges, each metric's limits) and
/// create the enabled metrics, appending the per-frame feature names (in
/// libvmaf's order: adm, psnr, float_ssim) and the aggregate names.
/// @return 0 or a negative errno with *msg saying what is wrong and what is accepted.
int metrics_create(const VmafHipSettings &s, Metrics *m, std::vector<std::string> *names,
                   std::vector<std::string> *aggregate_names, std::string *msg);

/// Scores of one frame, in names order, from its accumulators. Call in frame
/// order (psnr keeps stream totals for apsnr).
void metrics_finish(const Metrics &m, const FrameAccum &a, double *out);

} // namespace vmafhip
