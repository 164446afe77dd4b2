// What a backend computes per frame: exact accumulators of every enabled
// metric. Turning them into scores (the float tail) is the same host code
// for every backend (core/context.cpp), so the backends can only differ in
// the accumulators, which the tests compare exactly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/log.h"
#include "extractors/frame_view.h"
#include "extractors/adm.h"
#include "extractors/psnr.h"
#include "extractors/ssim.h"

namespace vmafhip {

/// Accumulators of one frame. POD: the GPU backend copies it from the device.
struct FrameAccum {
    PsnrAccum psnr;
    SsimAccum ssim;
    AdmAccum adm;
    uint32_t max_sample; ///< largest sample of every plane read (range check above 8 bits)
};

/// The metrics of one context, fixed at open.
struct Metrics {
    Geometry g;
    unsigned features = 0;
    std::unique_ptr<Psnr> psnr;
    std::unique_ptr<Ssim> ssim;
    std::unique_ptr<Adm> adm;
    size_t adm_offset = 0, psnr_offset = 0, ssim_offset = 0; ///< first value of each in a frame's row
    int chroma_planes_read() const { return psnr && psnr->planes() == 3 ? 3 : 1; }
};

/// How the GPU backend stages frames and launches work (benchmarks vary these).
struct HipTuning {
    enum Staging {
        STAGING_PINNED, ///< host threads copy into pinned memory, then async DMA
        STAGING_DIRECT, ///< hipMemcpy2DAsync straight from the caller's memory
    } staging = STAGING_PINNED;
    bool graphs = true;  ///< replay each slot's work as one graph launch
    bool timing = false; ///< record per-frame copy and kernel times (adds events)
};

/// Totals over the collected frames of a GPU backend with timing on.
struct BackendStats {
    unsigned frames = 0;
    double host_copy_ms = 0; ///< caller planes into staging (host threads)
    double h2d_ms = 0;       ///< host-to-device copies
    double kernel_ms = 0;    ///< all kernels of the frame
    size_t h2d_bytes = 0;
    size_t device_bytes = 0; ///< device memory allocated by the backend
};

class Backend {
public:
    virtual ~Backend() = default;

    /// e.g. "cpu" or "hip: NVIDIA H200 (sm_90)".
    virtual const std::string &name() const = 0;

    /// Frames that can be in flight at once; submit() is only called with
    /// fewer than this many frames submitted and not collected.
    virtual int depth() const = 0;

    /// Start scoring frame f (frames arrive in index order). The planes of f
    /// may be reused by the caller once this returns.
    /// @return 0 or a negative errno with *err set.
    virtual int submit(const FrameView &f, std::string *err) = 0;

    /// Accumulators of the oldest submitted, not yet collected frame.
    /// @param wait false: return -EAGAIN if it is still running
    /// @return 0 or a negative errno with *err set.
    virtual int collect(bool wait, FrameAccum *out, std::string *err) = 0;

    /// Timings gathered so far (GPU backend with HipTuning::timing only).
    virtual bool stats(BackendStats *) const { return false; }
};

/// The CPU reference backend; depth > 1 scores on a worker thread.
std::unique_ptr<Backend> make_cpu_backend(const Metrics &m, int threads, int depth);

/// The GPU backend. @return nullptr with *ret and *err set when it fails
/// (-ENODEV without a usable device or without GPU support in this build).
std::unique_ptr<Backend> make_hip_backend(const Metrics &m, const VmafHipSettings &s,
                                          const Logger &log, int *ret, std::string *err,
                                          const HipTuning &tuning = HipTuning());

/// GPUs usable by make_hip_backend() (0 without GPU support).
int hip_device_count();

} // namespace vmafhip
