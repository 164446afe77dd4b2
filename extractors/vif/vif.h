// integer VIF: libvmaf's integer_vif.c ("vif"), docs/vif.md.
// Host side shared by both backends: the table entry, validation, names
// (with libvmaf's option suffixes), the log2 table and the float tail
// (§4.3) from the exact integer accumulators. The CPU reference is in
// vif_cpu.cpp, the GPU implementation in vif_gpu.cpp and kernels/vif/vif.hip.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/scratch_pool.h"
#include "extractors/extractor.h"
#include "kernels/vif/vif_ops.h"

namespace vmafhip {

/// The "vif" row of the extractor table.
extern const ExtractorInfo vif_extractor;

#if VMAFHIP_GPU
/// vif_extractor.gpu (vif_gpu.cpp).
extern const GpuImpl vif_gpu;
#endif // VMAFHIP_GPU

/// docs/vif.md §5: T[m] = round(log2f(m) * 2048) for m in [32768, 65535],
/// VIF_LOG2_ENTRIES entries from m = 32768. Built once (thread-safe), then
/// shared by the CPU reference and the GPU upload.
const uint16_t *vif_log2_table();

/// One entry as libvmaf computes it: glibc's float log2f, times 2048 (exact),
/// rounded half away from zero. Also defined for m = 32767, which libvmaf
/// fills but never reads.
uint16_t vif_log2_entry(uint32_t m);

/// Option values of an instance (fields named by the OptionSpec offsets).
struct VifOptions {
    int debug;       ///< debug: the num/den outputs too (default false)
    double egl;      ///< vif_enhn_gain_limit / egl, 1 to 100 (default 100)
    int skip_scale0; ///< vif_skip_scale0 / ssclz (default false)
};

/// The float per-scale values of one frame (§4.1 "scale result").
struct VifScaleScores {
    float num[VIF_SCALES]; ///< integer_vif_num_scaleN (0 for a skipped scale 0)
    float den[VIF_SCALES]; ///< integer_vif_den_scaleN (-1 for a skipped scale 0)
};

struct VifCpuScratch; // vif_cpu.cpp: buffers kept between frames
struct VifKernels;    // vif_cpu_rows.h: the CPU rows of one instruction set

class Vif : public Extractor {
public:
    /// @return 0, or a negative errno with *msg saying what is wrong and what
    ///         is accepted: -ERANGE (W or H < 8, egl outside [1, 100]),
    ///         -ENOTSUP (a bit depth other than 8, 10, 12, 16).
    static int check(const Geometry &g, const VifOptions &o, std::string *msg);

    /// A configuration check() accepts.
    Vif(const ExtractorInfo &info, const ExtractorConfig &c);

    void names(std::vector<std::string> *out) const override;
    size_t accum_bytes() const override { return sizeof(VifAccum); }
    /// CPU reference (vif_cpu.cpp); reuses scratch kept in the instance, one
    /// per call running at once. Results do not depend on the pool's size.
    void cpu(const FrameView &f, void *accum, ThreadPool &pool) const override;
    void finish(unsigned index, const void *accum, double *out) override;

    /// §4.1: per-scale floats from the accumulators (the debug values).
    VifScaleScores scale_scores(const VifAccum &a) const;

    const VifParams &params() const { return p_; }
    const VifOptions &options() const { return o_; }

private:
    VifOptions o_;
    Geometry g_;
    std::string suffix_;
    VifParams p_;
    const VifKernels *k_; ///< the CPU rows (choose_kernels())
    /// CPU scratch: made by the cpu() calls that find none free, reused by
    /// later ones.
    mutable ScratchPool<VifCpuScratch> cpu_;
};

} // namespace vmafhip
