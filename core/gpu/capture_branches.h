// Side-by-side branches of a captured graph. A frame's extractors read the
// same planes and write disjoint workspaces and accumulators, so nothing
// orders one extractor's kernels after another's. Captured on one stream
// they form a single chain, and the small launches of one extractor (the
// coarse scales, the reductions) leave most of the GPU idle. Forked onto a
// stream each during capture, they become parallel branches of the graph,
// which the runtime runs side by side.
#pragma once

#include <string>
#include <vector>

#include "kernels/gpu_compat.h"

namespace vmafhip {

class CaptureBranches {
public:
    CaptureBranches() = default;
    CaptureBranches(const CaptureBranches &) = delete;
    CaptureBranches &operator=(const CaptureBranches &) = delete;
    ~CaptureBranches();

    /// Make `n` branch streams on the current device. @return 0, or a
    /// negative errno with *err set (nothing is left made).
    int init(int n, std::string *err);
    int size() const { return static_cast<int>(streams_.size()); }

    /// While `main` is capturing: branches 0..n-1 start after what `main`
    /// has so far.
    int fork(hipStream_t main, int n, std::string *err);
    hipStream_t branch(int i) const { return streams_[i]; }
    /// What comes next on `main` waits for branches 0..n-1. Every forked
    /// branch must be joined before the capture ends.
    int join(hipStream_t main, int n, std::string *err);

    /// Give the streams back: size() is 0 after.
    void release();

private:
    std::vector<hipStream_t> streams_;
    std::vector<hipEvent_t> ended_;  ///< per branch
    hipEvent_t forked_ = nullptr;
};

} // namespace vmafhip
