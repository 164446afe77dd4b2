// What a backend computes per frame: the exact accumulator block of every
// extractor of the context (Metrics). Turning accumulators into scores is
// the same host code for every backend (core/metrics.cpp), so the backends
// can only differ in the accumulators, which the tests compare exactly.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/log.h"
#include "core/host_memory.h"
#include "core/metrics.h"

namespace vmafhip {

/// The planes of the frames before the one a backend takes a stream over at
/// (Backend::take_over()) that the metrics read: for k < n, frame
/// index-1-k's reference luma ref[k] (planar, any stride), its Cb and Cr
/// ref_chroma[k] where Metrics::lookbehind_chroma, and its distorted luma
/// dis[k] where Metrics::lookbehind_dis.
struct EarlierPictures {
    int n = 0;
    PlaneView ref[MAX_LOOKBEHIND];
    PlaneView ref_chroma[MAX_LOOKBEHIND][2];
    PlaneView dis[MAX_LOOKBEHIND];
};

/// How the GPU backend stages frames and launches work (benchmarks vary these).
struct HipTuning {
    enum Staging {
        STAGING_PINNED, ///< host threads copy into pinned memory, then async DMA
        STAGING_DIRECT, ///< hipMemcpy2DAsync straight from the caller's memory
    } staging = STAGING_PINNED;
    bool pack10 = true;  ///< stage 10-bit planar pictures packed (kernels/packed10.h)
    bool graphs = true;  ///< replay each slot's kernels as one graph launch
    bool timing = false; ///< record per-frame copy and kernel times (adds events)
};

/// Totals over the collected frames of a GPU backend with timing on.
struct BackendStats {
    unsigned frames = 0;
    double host_copy_ms = 0; ///< caller planes into staging (host threads)
    double h2d_ms = 0;       ///< host-to-device copies
    double kernel_ms = 0;    ///< all kernels of the frame
    size_t h2d_bytes = 0;    ///< the pictures' bytes (packed ten-bit staging moves 2/3 of them)
    size_t device_bytes = 0; ///< device memory allocated by the backend
};

/// Backend::submit()'s fences for pictures that are not lent.
inline void *const kNotLent[2] = {nullptr, nullptr};

class Backend {
public:
    virtual ~Backend() = default;

    /// e.g. "cpu" or "hip: NVIDIA H200 (sm_90)".
    virtual const std::string &name() const = 0;

    /// Frames that can be in flight at once; submit() is only called with
    /// fewer than this many frames submitted and not collected.
    virtual int depth() const = 0;

    /// Start frame f (frames arrive in index order, f.index from 0; the
    /// backend fills f's prev_ref from the frames it kept). scored: run
    /// every extractor; otherwise only those that run on every frame
    /// (n_subsample). The caller may reuse f's planes once this returns,
    /// except a picture in lent memory (host_memory()): its fence is given
    /// (fence[0] reference, fence[1] distorted, else nullptr), and the
    /// backend may copy from it later and then marks the fence.
    /// @return 0 or a negative errno with *err set.
    virtual int submit(const FrameView &f, bool scored, void *const fence[2], std::string *err) = 0;

    /// submit() for pictures the caller keeps unchanged until this frame is
    /// collected, or until abandon() or the backend's end: the backend may
    /// read them after this returns, off the caller's thread. By default they
    /// are read before it returns, as by submit().
    virtual int submit_kept(const FrameView &f, bool scored, void *const fence[2], std::string *err)
    {
        return submit(f, scored, fence, err);
    }

    /// The stream has failed and the frames in flight will not be collected:
    /// once this returns, no picture given to submit_kept() is read any more
    /// (the frames not read yet fail when collected).
    virtual void abandon() {}

    /// Start the stream at frame `index` instead of 0 (before any submit):
    /// the frames before it were scored by another backend, and `earlier`
    /// holds the planes of theirs that the metrics read (n = min(lookbehind,
    /// index) frames).
    /// @return 0 or a negative errno with *err set; -ENOTSUP where a backend
    /// only scores whole streams (the handover's own).
    virtual int take_over(unsigned index, const EarlierPictures &earlier, std::string *err)
    {
        (void)index, (void)earlier;
        *err = name() + " cannot take over a stream under way";
        return -ENOTSUP;
    }

    /// The memory of the pictures the context lends, from which this backend
    /// copies fastest.
    virtual std::shared_ptr<HostMemory> host_memory() const { return make_plain_host_memory(); }

    /// The accumulator block (Metrics::accum_bytes) of the oldest submitted,
    /// not yet collected frame into accum.
    /// @param wait false: return -EAGAIN if it is still running
    /// @return 0 or a negative errno with *err set.
    virtual int collect(bool wait, uint8_t *accum, std::string *err) = 0;

    /// Whether the next submit hands the stream over to a backend made
    /// meanwhile (make_handover_backend()).
    virtual bool handover_ready() const { return false; }

    /// Timings gathered so far (GPU backend with HipTuning::timing only).
    virtual bool stats(BackendStats *) const { return false; }
};

/// The warning of a context that scores on the CPU because the GPU backend
/// could not start (`why`).
void log_cpu_fallback(const Logger &log, const std::string &why);

/// Frames in flight on the GPU when the settings leave it open.
constexpr int kDefaultGpuDepth = 4;

/// Frames in flight on the CPU while the GPU starts (at most the settings'
/// depth). Frames still on the CPU when the GPU is ready hold the stream
/// back, and the CPU's threads compete with the caller's reading or decoding
/// meanwhile: two frames of half the threads each made the whole
/// vmafhip process 4-15 % faster than four frames of a quarter (best of 2
/// and of 3 in two runs, 1080p and 4K, 1,000-3,000 frames), and ffmpeg
/// decoding 1,000 1080p frame pairs 15 %; longer decodes and 4K ones did not
/// change beyond the runs' spread.
constexpr int kHandoverCpuDepth = 2;

/// The CPU reference backend on `threads` threads (0: one per core). depth
/// (frames in flight) 1 scores inside submit(), above 1 on frame workers
/// that score several frames at once (one per two threads, up to depth);
/// 0 picks: 1 with one thread, else a frame per worker and two more, at
/// most kMaxQueueDepth.
std::unique_ptr<Backend> make_cpu_backend(const Metrics &m, int threads, int depth);

/// The GPU backend, on device s.device (started by gpu_start() or here).
/// cancel (may be nullptr): checked while waiting for the device and between
/// the steps of making the backend, which then fails with -ECANCELED.
/// @return nullptr with *ret and *err set when it fails (-ENODEV without a
/// usable device or without GPU support in this build).
std::unique_ptr<Backend> make_hip_backend(const Metrics &m, const VmafHipSettings &s,
                                          const Logger &log, int *ret, std::string *err,
                                          const HipTuning &tuning = HipTuning(),
                                          const std::atomic<bool> *cancel = nullptr);

/// Makes the backend that takes over, on the handover's own thread: with
/// the cancel flag to watch and a logger whose messages reach the context's
/// log on the caller's thread.
using BackendMaker = std::function<std::unique_ptr<Backend>(
    const std::atomic<bool> &cancel, const Logger &log, int *ret, std::string *err)>;

/// How long a stream is scored on the CPU before the GPU's start begins: a
/// process that ends within some 10 ms of the driver's start exits at once,
/// one that ends later waits for the driver's start to finish (100-250 ms),
/// so a clip whose frames all come within this time never touches the GPU.
constexpr std::chrono::milliseconds kGpuStartAfter{20};

/// Scores on `first` while `make` makes the next backend on a thread of its
/// own, begun at once when start_after is 0, else at the first submit that
/// comes start_after or more after the first one; the next backend takes
/// over at the first submit after it is ready (core/backend_handover.cpp).
/// `wake` makes `make` look at its cancel flag (the context closes). If
/// making it fails: with `required` the next submit fails with its error,
/// else `first` scores on after one warning.
std::unique_ptr<Backend> make_handover_backend(const Metrics &m, std::unique_ptr<Backend> first,
                                               BackendMaker make, std::function<void()> wake,
                                               const Logger &log, bool required,
                                               std::chrono::milliseconds start_after);

/// GPUs usable by make_hip_backend() (0 without GPU support).
int hip_device_count();

/// Reference pictures GPU backends of this process copied from another
/// context's device copy instead of from the host (core/gpu/shared_reference.h;
/// 0 without GPU support).
long shared_reference_copies();

} // namespace vmafhip
