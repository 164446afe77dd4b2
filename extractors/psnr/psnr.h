// psnr: libvmaf's integer PSNR (integer_psnr.c), docs/psnr.md.
// Host side shared by both backends: the table entry, names, per-stream
// constants and the scalar finish from exact per-plane SSE sums.
#pragma once

#include <cstdint>

#include "extractors/extractor.h"

namespace vmafhip {

/// Per-frame accumulators; also the layout the GPU writes.
struct PsnrAccum {
    uint64_t sse[3]; ///< exact sum of squared differences per plane (Y, Cb, Cr)
};

/// Option values (extractor table: psnr_extractor).
struct PsnrOptions {
    int enable_chroma;    ///< also psnr_cb, psnr_cr; ignored for 4:0:0
    int enable_mse;       ///< also mse_y (and mse_cb, mse_cr) per frame
    int enable_apsnr;     ///< apsnr_y, apsnr_cb, apsnr_cr at the end
    int reduced_hbd_peak; ///< peak 255 << (bpc - 8) instead of 2^bpc - 1
    double min_sse;       ///< SSE floor for the PSNR cap, >= 0; 0 = cap 6*bpc+12
};

extern const ExtractorInfo psnr_extractor;
struct PsnrKernels;

class Psnr final : public Extractor {
public:
    explicit Psnr(const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    void aggregate_names(std::vector<std::string> *out) const override;
    int planes() const override { return planes_; }
    /// libvmaf's psnr is TEMPORAL: with frames subsampled it still runs on
    /// every frame, and APSNR adds them all up (docs/psnr.md §5).
    bool every_frame() const override { return o_.enable_apsnr; }
    size_t accum_bytes() const override { return sizeof(PsnrAccum); }
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    /// Also accumulates the apsnr totals.
    void finish(unsigned index, const void *accum, double *out) override;
    void aggregate(double *out) const override;

private:
    PsnrOptions o_;
    Geometry g_;
    int planes_;
    const PsnrKernels *k_; ///< the CPU kernels (choose_kernels())
    double psnr_max_[3];
    uint64_t total_sse_[3] = {0, 0, 0};
    uint64_t total_n_[3] = {0, 0, 0};
};

} // namespace vmafhip
