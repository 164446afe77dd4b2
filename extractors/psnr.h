// psnr: libvmaf's integer PSNR (integer_psnr.c), spec psnr.md.
// Host side shared by both backends: names, per-stream constants and the
// scalar finish from exact per-plane SSE sums.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "extractors/frame_view.h"
#include "vmafhip.h"

namespace vmafhip {

class ThreadPool;

/// Per-frame accumulators; also the layout the GPU writes.
struct PsnrAccum {
    uint64_t sse[3]; ///< exact sum of squared differences per plane (Y, Cb, Cr)
};

class Psnr {
public:
    /// @return 0, or a negative errno with *msg saying what is wrong and what is accepted.
    static int check(const VmafHipPsnrSettings &s, const Geometry &g, std::string *msg);

    Psnr(const VmafHipPsnrSettings &s, const Geometry &g);

    int planes() const { return planes_; }  ///< planes scored: 1 (luma) or 3
    void names(std::vector<std::string> *out) const;           ///< appends per-frame names
    void aggregate_names(std::vector<std::string> *out) const; ///< appends apsnr_* if enabled
    /// Scores of one frame, in names() order. Called in frame order: it
    /// also accumulates the apsnr totals.
    void finish(const PsnrAccum &a, double *out);
    void aggregate(double *out) const; ///< apsnr_*, in aggregate_names() order

private:
    VmafHipPsnrSettings s_;
    Geometry g_;
    int planes_;
    double psnr_max_[3];
    uint64_t total_sse_[3] = {0, 0, 0};
    uint64_t total_n_[3] = {0, 0, 0};
};

/// CPU reference: exact SSE of every scored plane.
void psnr_cpu(const Psnr &m, const Geometry &g, const FrameView &f, PsnrAccum *a, ThreadPool &pool);

} // namespace vmafhip
