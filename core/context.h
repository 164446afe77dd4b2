// The scoring context behind the public API: metrics, backend, and the
// per-frame results in submission order.
#pragma once

#include <chrono>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "base/log.h"
#include "core/backend.h"
#include "core/frame_rows.h"
#include "core/lent_pictures.h"
#include "core/metrics.h"
#include "vmafhip.h"

namespace vmafhip {

/// Per-frame state besides errors (negative errno values).
enum FrameState {
    FRAME_DONE = 0,     ///< scores complete
    FRAME_SKIPPED = 1,  ///< complete, left out by n_subsample (VMAFHIP_FRAME_SKIPPED)
    FRAME_IN_FLIGHT,    ///< submitted, accumulators not collected yet
    FRAME_PENDING,      ///< finished, waiting for later frames (motion2, models)
};

} // namespace vmafhip

struct VmafHipContext {
    vmafhip::Logger log;
    VmafHipSettings settings{};  ///< as given, without the caller's string pointers
    vmafhip::Metrics metrics;
    std::unique_ptr<vmafhip::Backend> backend;
    std::shared_ptr<vmafhip::LentPictures> lent; ///< vmafhip_picture_borrow()'s

    std::vector<const char *> name_ptrs, aggregate_name_ptrs;
    vmafhip::FrameRows rows;        ///< per-frame values, metrics.names order
    std::vector<int> status;        ///< per frame: a FrameState or a negative errno
    std::vector<uint8_t> accum;     ///< one frame's accumulator block, scratch
    unsigned collected = 0;         ///< frames [0, collected) are no longer in flight
    unsigned completed = 0;         ///< frames [0, completed) have their final state
    bool flushed = false;           ///< the stream has ended: no more submits
    int fatal = 0;                  ///< sticky failure

    std::vector<double> aggregate_values;
    bool aggregates_ready = false;

    std::string last_error;

    /// Wall time from the first submit to the last finished frame (the log's fps).
    std::chrono::steady_clock::time_point first_submit, last_finish;

    unsigned submitted() const { return static_cast<unsigned>(status.size()); }
    const std::vector<std::string> &names() const { return metrics.names; }
    const double *frame_values(unsigned i) const { return rows.row(i); }
};

namespace vmafhip {

/// The context becomes unusable with err: every later call returns it, and
/// the backend reads no kept picture any more (Backend::abandon()).
void context_set_fatal(VmafHipContext *c, int err) noexcept;

/// Log an error, keep it as the context's last error, return ret.
int context_fail(VmafHipContext *c, int ret, const std::string &msg);

/// Host memory ran out `during` something (std::bad_alloc): logged as the
/// last error; with `fatal` (the scoring state may be half updated) the
/// context becomes unusable. Returns -ENOMEM.
int context_out_of_memory(VmafHipContext *c, const char *during, bool fatal = true) noexcept;

/// f() for a public entry point: std::bad_alloc from anywhere below becomes
/// -ENOMEM with a message instead of crossing the C boundary.
template <typename F> int context_guard(VmafHipContext *c, const char *during, F &&f) noexcept
{
    try {
        return f();
    } catch (const std::bad_alloc &) {
        return context_out_of_memory(c, during);
    }
}

/// Collect and complete frames until frames [0, count) are complete.
/// @return 0; -EAGAIN when a frame is still in flight (wait == false) or
///         needs frames that were not submitted; or the fatal error.
int context_complete_until(VmafHipContext *c, unsigned count, bool wait);

/// Pool feature `feature` over the complete, scored frames (libvmaf's
/// formulas). @return 0 or -EAGAIN when no frame has scores.
int context_pool(const VmafHipContext *c, int feature, VmafHipPooled *out);

} // namespace vmafhip
