// The scoring context behind the public API: metrics, backend, and the
// per-frame results in submission order.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/backend.h"
#include "base/log.h"
#include "vmafhip.h"

struct VmafHipContext {
    vmafhip::Logger log;
    VmafHipSettings settings{};
    vmafhip::Metrics metrics;
    std::unique_ptr<vmafhip::Backend> backend;

    std::vector<std::string> names;    ///< per-frame feature names, output order
    std::vector<const char *> name_ptrs;
    std::vector<double> values;        ///< frames x names, row-major
    std::vector<int> status;           ///< per frame: 1 in flight, 0 scored, < 0 error
    unsigned finished = 0;             ///< frames [0, finished) are no longer in flight
    int fatal = 0;                     ///< sticky backend failure

    std::vector<std::string> aggregate_names;
    std::vector<const char *> aggregate_name_ptrs;
    std::vector<double> aggregate_values;
    bool aggregates_ready = false;

    std::string last_error;

    /// Wall time from the first submit to the last finished frame (the log's fps).
    std::chrono::steady_clock::time_point first_submit, last_finish;

    unsigned submitted() const { return static_cast<unsigned>(status.size()); }
    const double *frame_values(unsigned i) const { return values.data() + i * names.size(); }
};

namespace vmafhip {

/// Log an error, keep it as the context's last error, return ret.
int context_fail(VmafHipContext *c, int ret, const std::string &msg);

/// Collect and finish frames until frame `index` is no longer in flight.
/// @return 0, -EAGAIN (wait == false and still in flight) or the fatal error.
int context_finish_until(VmafHipContext *c, unsigned index, bool wait);

/// Pool feature `feature` over the scored frames (libvmaf's formulas).
/// @return 0 or -EAGAIN when no frame has scores.
int context_pool(const VmafHipContext *c, int feature, VmafHipPooled *out);

} // namespace vmafhip
