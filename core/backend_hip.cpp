// The GPU backend: a ring of slots, each with its own stream, staging
// buffers, device planes, extractor workspaces and accumulator block, so
// that the copy of frame N+1 overlaps the kernels of frame N and several
// frames are in flight without any device-wide synchronisation.
//
// Per frame (one slot): caller planes -> pinned host staging (host threads)
// -> one async host-to-device copy into tightly packed device planes ->
// zero the accumulators -> each extractor's kernels (side by side, as
// branches of a captured graph) -> accumulators back to pinned host memory
// -> event. A semi-planar picture (nv12, p010) is copied
// as it is laid out and made planar by one more launch before the kernels
// (kernels/semi_planar.hip). A picture the context lent (pinned already)
// skips the host staging: one 2D copy per plane, pitch = its stride, and an
// event that tells the lender when the block may be reused. Nothing is
// allocated per frame, and no pointer to the caller's memory ever reaches a
// kernel: kernels read only the device planes.
//
// Extractors that read earlier reference pictures (motion) read the luma of
// the previous slots, and those that read earlier distorted pictures
// (speed_temporal) the distorted luma there too, without copying anything:
// a frame's kernels wait for the copies of those frames (events), and the
// ring has that many slots more than frames in flight, so a slot is reused
// only after every frame that reads it has finished.
//
// A reference picture that another context of the process has copied to
// this device already (a ladder's source, split to one context per
// rendition) is copied from that context's device planes instead of being
// staged again (core/gpu/shared_reference.h).
#include <algorithm>
#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <functional>
#include <system_error>
#include <thread>
#include <vector>

#include "base/device_copy.h"
#include "base/task_thread.h"
#include "base/thread_pool.h"
#include "core/backend.h"
#include "core/gpu/capture_branches.h"
#include "core/gpu/gpu_check.h"
#include "core/gpu/gpu_device.h"
#include "core/gpu/gpu_start.h"
#include "core/gpu/pinned_memory.h"
#include "core/gpu/shared_reference.h"
#include "core/pack10_staging.h"
#include "kernels/packed10.h"
#include "kernels/packed10_unpack.h"
#include "kernels/sample_check.h"
#include "kernels/semi_planar.h"

namespace vmafhip {

namespace {

constexpr size_t kAlign = 256;
// Host staging: frames above this are copied by the thread pool, in bands of
// about kBandBytes (small enough to keep every core busy).
constexpr size_t kParallelCopyBytes = size_t(1) << 20;
constexpr size_t kBandBytes = size_t(128) << 10;

// Host staging saturates memory bandwidth with a few threads; more would only
// compete with the caller, the GPU runtime's threads and other contexts. The
// settings' threads (0: automatic, half the cores) caps them: a caller that
// gives the library one thread gets one.
constexpr int kMaxStagingThreads = 8;
int staging_threads(int threads)
{
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, std::min(kMaxStagingThreads, threads > 0 ? threads : cores / 2));
}

size_t align_up(size_t v)
{
    return (v + kAlign - 1) / kAlign * kAlign;
}

// Lent pictures: pinned (portable: any device's context may copy from them),
// each block with an event on the backend's device.
class PinnedHostMemory final : public HostMemory {
public:
    explicit PinnedHostMemory(int device) : device_(device) {}

    uint8_t *alloc(size_t bytes) override { return pinned_alloc(bytes); }
    void free(uint8_t *p) override { pinned_free(p); }

    // An event belongs to the device current when it is made; borrowers call
    // from their own threads, whose current device is theirs to keep.
    int new_fence(void **fence) override
    {
        int prev = 0;
        hipEvent_t e = nullptr;
        const bool ok = hipGetDevice(&prev) == hipSuccess && hipSetDevice(device_) == hipSuccess &&
                        hipEventCreateWithFlags(&e, hipEventDisableTiming) == hipSuccess;
        (void)hipSetDevice(prev);
        (void)hipGetLastError();
        if (!ok)
            return -ENOMEM;
        *fence = e;
        return 0;
    }
    void delete_fence(void *fence) override { (void)hipEventDestroy(static_cast<hipEvent_t>(fence)); }

    // A failed GPU reports through the context; for the block it means that
    // no copy from it is pending any more.
    bool fence_done(void *fence, bool wait) override
    {
        const hipEvent_t e = static_cast<hipEvent_t>(fence);
        const hipError_t r = wait ? hipEventSynchronize(e) : hipEventQuery(e);
        (void)hipGetLastError(); // "not ready" must not reach the next launch check
        return r != hipErrorNotReady;
    }

private:
    int device_;
};

class HipBackend final : public Backend {
public:
    HipBackend(const Metrics &m, const Logger &log, const HipTuning &t, int threads)
        : m_(m), log_(log), tuning_(t), pool_(staging_threads(threads), "vmafhip-copy")
    {
    }
    ~HipBackend() override;

    int init(const VmafHipSettings &s, const std::atomic<bool> *cancel, std::string *err);
    const std::string &name() const override { return name_; }
    int depth() const override { return depth_; }
    int submit(const FrameView &f, bool scored, void *const fence[2], std::string *err) override;
    int submit_kept(const FrameView &f, bool scored, void *const fence[2], std::string *err) override;
    void abandon() override;
    int take_over(unsigned index, const EarlierPictures &earlier, std::string *err) override;
    std::shared_ptr<HostMemory> host_memory() const override
    {
        return std::make_shared<PinnedHostMemory>(dev_.index);
    }
    int collect(bool wait, uint8_t *accum, std::string *err) override;
    bool stats(BackendStats *out) const override
    {
        *out = stats_;
        return tuning_.timing;
    }

private:
    /// Which extractors a launch runs: all, or those that run on every frame.
    enum Work { ALL = 0, EVERY_FRAME = 1 };

    struct Slot {
        hipStream_t stream = nullptr;
        uint8_t *host = nullptr;     ///< pinned staging of every plane (made on first use)
        bool host_tried = false;     ///< its allocation was tried
        uint8_t *dev = nullptr;      ///< device planes, packed
        uint8_t *dev_packed = nullptr; ///< the pictures as staged ten-bit packed (pack10_)
        uint8_t *work = nullptr;     ///< extractor workspaces
        uint8_t *d_accum = nullptr;  ///< accumulator block
        uint8_t *h_accum = nullptr;  ///< pinned
        hipEvent_t copied = nullptr; ///< the planes are on the device, planar
        hipEvent_t done = nullptr;
        hipEvent_t t_start = nullptr, t_end = nullptr; ///< timing only
        hipGraph_t graph[2] = {};
        hipGraphExec_t exec[2] = {}; ///< per Work
        GpuFrame frame{};
        double host_copy_ms = 0;
        SharedRefHandle listed;      ///< its reference as listed for other contexts to copy
        bool kept = false;           ///< staged on the stager thread (submit_kept)
        uint64_t kept_task = 0;      ///< its task there
        int kept_ret = 0;            ///< its outcome, once the task has ended
        std::string kept_err;
    };

    int create_slot(Slot &s, std::string *err);
    /// The slot's pinned staging, made when its first staged picture comes.
    bool has_staging(Slot &s);
    /// Frame i's copies and launches into its slot; kept: f's pictures stay
    /// unchanged until the frame is collected (submit_kept()).
    int enqueue_frame(unsigned i, const FrameView &f, bool scored, bool kept, void *const fence[2],
                      std::string *err);
    SharedRefKey shared_key(const FrameView &f) const;
    /// The reference planes `from` (another context's) into slot s, once `from` is ready.
    int copy_shared(Slot &s, const SharedRefPlanes &from, std::string *err);
    /// With `branches` (while capturing), each extractor on a branch of its own.
    int enqueue_kernels(Slot &s, Work work, CaptureBranches *branches, std::string *err);
    int capture_graph(Slot &s, Work work, CaptureBranches *branches, std::string *err);
    /// collect() but for the listing of the collected frame's reference.
    int collect_slot(bool wait, uint8_t *accum, std::string *err);
    void stage_on_host(Slot &s, const FrameView &f, const bool staged[2]);
    /// Both pictures into s.host packed (kernels/packed10.h); false when a
    /// sample is too large for the form (the frame is then staged as it is).
    bool pack_on_host(Slot &s, const FrameView &f);
    /// Runs copy(b0, b1) over the bands, on the pool when the frame is big.
    void for_bands(const std::function<void(int, int)> &copy);
    int copy_direct(Slot &s, const FrameView &f, int pic, std::string *err);
    bool runs(const Instance &x, Work work) const { return work == ALL || x.ext->every_frame(); }

    /// Rows [y0, y1) of one plane: the unit of parallel host staging.
    struct Band {
        int pic, plane, y0, y1;
    };
    std::vector<Band> bands_;

    const Metrics &m_;
    Logger log_;
    HipTuning tuning_;
    ThreadPool pool_;
    GpuDeviceInfo dev_;
    std::string name_;
    int depth_ = 0;                  ///< frames in flight
    int pic_planes_ = 1;             ///< planes of a picture copied (Geometry::picture_planes)
    size_t copy_off_[2][3] = {};     ///< [ref, dis][picture plane] offset in a slot's buffers
    size_t plane_off_[2][3] = {};    ///< [ref, dis][metric plane] offset in a slot's device buffer
    size_t frame_bytes_ = 0;         ///< copied bytes per frame (both pictures), staged first
    /// 10-bit planar pictures are staged packed: their planes' offsets
    /// in s.host and s.dev_packed, and the bytes of both pictures.
    bool pack10_ = false;
    size_t packed_off_[2][3] = {};
    size_t packed_bytes_ = 0;
    size_t dev_bytes_ = 0;           ///< a slot's device planes: copied, then split chroma
    std::vector<size_t> work_off_;   ///< per extractor: its workspace in a slot's
    size_t work_bytes_ = 0;
    std::vector<uint8_t *> constants_; ///< per extractor: device constants, or nullptr
    std::vector<Slot> slots_;
    unsigned head_ = 0, tail_ = 0;   ///< next frame to submit / to collect
    BackendStats stats_;
    /// Stages kept frames (submit_kept) off the caller's thread; made by the
    /// first, ended first by the destructor.
    std::unique_ptr<TaskThread> stager_;
    bool kept_failed_ = false; ///< a kept frame failed: read no later one (stager_'s thread only)
    bool branched_ = false;    ///< the graphs run the extractors as parallel branches
    bool share_ = true;        ///< reference pictures shared with other contexts (private_reference)
};

// On an early return of enqueue_frame: an owner's listing that got no copy
// is unlisted (contexts waiting for it copy from the host), a borrower's pin
// given back.
class SharedRefGuard {
public:
    SharedRefGuard(SharedRefHandle *h, SharedRefRole role) : h_(h), role_(role) {}
    ~SharedRefGuard()
    {
        std::string ignored;
        if (role_ == SharedRefRole::OWN)
            shared_ref_unlist(*h_);
        else if (role_ == SharedRefRole::BORROW)
            (void)shared_ref_unpin(h_, nullptr, &ignored);
    }
    void done() { role_ = SharedRefRole::NONE; }

private:
    SharedRefHandle *h_;
    SharedRefRole role_;
};

HipBackend::~HipBackend()
{
    stager_.reset(); // no task may run while the slots go
    if (slots_.empty() && constants_.empty())
        return; // nothing made on the device (the device may still be starting)
    (void)hipSetDevice(dev_.index);
    int staged = 0;
    for (const Slot &s : slots_)
        staged += s.host != nullptr;
    if (tuning_.staging == HipTuning::STAGING_PINNED)
        log_.log(VMAFHIP_LOG_DEBUG, "pinned staging made for %d of %zu slots, %zu MiB\n",
                 staged, slots_.size(), staged * std::max(frame_bytes_, packed_bytes_) >> 20);
    for (Slot &s : slots_) {
        std::string ignored;
        (void)shared_ref_settle(&s.listed, nullptr, &ignored); // borrowers' copies from s.dev
        if (s.stream)
            (void)hipStreamSynchronize(s.stream);
        for (int w = 0; w < 2; w++) {
            if (s.exec[w])
                (void)hipGraphExecDestroy(s.exec[w]);
            if (s.graph[w])
                (void)hipGraphDestroy(s.graph[w]);
        }
        for (hipEvent_t e : {s.copied, s.done, s.t_start, s.t_end})
            if (e)
                (void)hipEventDestroy(e);
        if (s.stream)
            (void)hipStreamDestroy(s.stream);
        (void)hipFree(s.dev);
        (void)hipFree(s.dev_packed);
        (void)hipFree(s.work);
        (void)hipFree(s.d_accum);
        pinned_free(s.host);
        if (s.h_accum)
            (void)hipHostFree(s.h_accum);
    }
    for (uint8_t *c : constants_)
        (void)hipFree(c);
    (void)hipGetLastError();
}

int HipBackend::init(const VmafHipSettings &s, const std::atomic<bool> *cancel, std::string *err)
{
    const auto cancelled = [&] {
        if (!cancel || !cancel->load())
            return false;
        *err = "cancelled: the context was closed";
        return true;
    };
    int ret = gpu_join(s.device, cancel, &dev_, err);
    if (ret < 0)
        return ret;
    name_ = strprintf("hip: %s (%s)", dev_.name.c_str(), dev_.arch.c_str());
    share_ = !s.private_reference;
    log_.log(VMAFHIP_LOG_INFO, "GPU %d: %s, %s, %zu MiB, %d compute units\n", dev_.index,
             dev_.name.c_str(), dev_.arch.c_str(), dev_.total_mem >> 20, dev_.sm_count);
    for (const Instance &x : m_.ext) {
        const std::string why = gpu_unavailable(*x.ext);
        if (!why.empty()) {
            *err = why;
            return -ENOTSUP;
        }
    }

    // The pictures as copied: the reference luma first (what every-frame
    // extractors read). Semi-planar chroma is split into planes after them.
    const Geometry &g = m_.g;
    const int bps = g.bytes_per_sample();
    pic_planes_ = g.picture_planes(m_.planes);
    size_t off = 0;
    for (int pic = 0; pic < 2; pic++)
        for (int q = 0; q < pic_planes_; q++) {
            copy_off_[pic][q] = plane_off_[pic][q] = off;
            off += align_up(static_cast<size_t>(g.scored_row(q)) * g.scored_h(q) * bps);
        }
    frame_bytes_ = off;
    // Packed where it saves bytes: 2/3 of them but for very narrow planes.
    if (tuning_.pack10 && tuning_.staging == HipTuning::STAGING_PINNED && !g.semi_planar() &&
        g.bpc == 10) {
        size_t packed = 0;
        for (int pic = 0; pic < 2; pic++)
            for (int q = 0; q < pic_planes_; q++) {
                packed_off_[pic][q] = packed;
                packed += align_up(packed10_row_words(g.scored_w(q)) * sizeof(uint32_t) *
                                   static_cast<size_t>(g.scored_h(q)));
            }
        pack10_ = packed < frame_bytes_;
        packed_bytes_ = pack10_ ? packed : 0;
    }
    if (g.semi_planar())
        for (int pic = 0; pic < 2; pic++)
            for (int p = 1; p < m_.planes; p++) {
                plane_off_[pic][p] = off;
                off += align_up(static_cast<size_t>(g.scored_w(p)) * g.scored_h(p) * bps);
            }
    dev_bytes_ = off;
    for (int pic = 0; pic < 2; pic++)
        for (int q = 0; q < pic_planes_; q++) {
            const size_t row = std::max<size_t>(1, static_cast<size_t>(g.scored_row(q)) * bps);
            const int rows = static_cast<int>(std::max<size_t>(1, kBandBytes / row));
            for (int y = 0; y < g.scored_h(q); y += rows)
                bands_.push_back(Band{pic, q, y, std::min(g.scored_h(q), y + rows)});
        }
    size_t constants_bytes = 0;
    for (const Instance &x : m_.ext) {
        const GpuImpl &gpu = *x.ext->info().gpu;
        work_off_.push_back(work_bytes_);
        work_bytes_ += align_up(gpu.workspace_bytes(*x.ext));
        constants_bytes += align_up(gpu.constants_bytes(*x.ext));
    }

    depth_ = s.queue_depth ? s.queue_depth : kDefaultGpuDepth;
    const size_t n_slots = static_cast<size_t>(depth_ + m_.lookbehind);
    const size_t per_slot = dev_bytes_ + packed_bytes_ + work_bytes_ + align_up(m_.accum_bytes);
    size_t free_b = 0, total_b = 0;
    GPU_TRY(hipMemGetInfo(&free_b, &total_b));
    if (per_slot * n_slots + constants_bytes > free_b) {
        *err = strprintf("a %dx%d %d-bit frame needs %zu MiB of GPU memory per frame in flight "
                         "(%zu in flight: %zu MiB), but GPU %d has %zu MiB free of %zu MiB: "
                         "lower queue_depth, the frame size or the features, or use the CPU backend",
                         g.w, g.h, g.bpc, per_slot >> 20, n_slots, (per_slot * n_slots) >> 20,
                         dev_.index, free_b >> 20, total_b >> 20);
        return -ENOMEM;
    }
    stats_.device_bytes = per_slot * n_slots + constants_bytes;

    // Constants: filled on the host once, uploaded once.
    for (const Instance &x : m_.ext) {
        const GpuImpl &gpu = *x.ext->info().gpu;
        const size_t bytes = gpu.constants_bytes(*x.ext);
        constants_.push_back(nullptr);
        if (!bytes)
            continue;
        std::vector<uint8_t> host(bytes);
        gpu.fill_constants(*x.ext, host.data());
        GPU_TRY(hipMalloc(reinterpret_cast<void **>(&constants_.back()), bytes));
        GPU_TRY(hipMemcpy(constants_.back(), host.data(), bytes, hipMemcpyHostToDevice));
    }

    slots_.resize(n_slots);
    for (Slot &slot : slots_) {
        if (cancelled())
            return -ECANCELED;
        if ((ret = create_slot(slot, err)) < 0)
            return ret;
    }
    // The lumas of the previous frames are in the previous slots.
    for (size_t i = 0; i < n_slots; i++)
        for (int k = 0; k < m_.lookbehind; k++) {
            const GpuFrame &prev = slots_[(i + n_slots - 1 - k) % n_slots].frame;
            slots_[i].frame.prev_ref[k] = prev.ref[0];
            if (m_.lookbehind_chroma)
                for (int c = 0; c < 2; c++)
                    slots_[i].frame.prev_ref_chroma[k][c] = prev.ref[1 + c];
            if (m_.lookbehind_dis)
                slots_[i].frame.prev_dis[k] = prev.dis[0];
        }
    if (tuning_.graphs && !tuning_.timing) {
        // Branch streams are needed only while capturing; without them the
        // extractors are captured as one chain.
        CaptureBranches branches;
        std::string branch_err;
        branched_ = true; // until a slot's graph is a chain
        if (m_.ext.size() > 1 && branches.init(static_cast<int>(m_.ext.size()), &branch_err) < 0) {
            (void)hipGetLastError();
            log_.log(VMAFHIP_LOG_DEBUG, "no streams for graph branches (%s): one chain per frame\n",
                     branch_err.c_str());
        }
        for (Slot &t : slots_)
            for (int w = ALL; w <= (m_.n_subsample > 1 ? EVERY_FRAME : ALL); w++) {
                if (cancelled())
                    return -ECANCELED;
                if ((ret = capture_graph(t, static_cast<Work>(w), &branches, err)) < 0)
                    return ret;
            }
    }
    log_.log(VMAFHIP_LOG_DEBUG, "%d frames in flight, %zu MiB of GPU memory, %s staging%s\n",
             depth_, stats_.device_bytes >> 20,
             tuning_.staging == HipTuning::STAGING_DIRECT ? "direct"
             : pack10_                                     ? "packed ten-bit pinned"
                                                           : "pinned",
             !slots_[0].exec[ALL] ? "" : branched_ ? ", graphs of parallel branches" : ", graphs");
    return 0;
}

int HipBackend::create_slot(Slot &s, std::string *err)
{
    GPU_TRY(hipStreamCreateWithFlags(&s.stream, hipStreamNonBlocking));
    GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.dev), std::max<size_t>(dev_bytes_, 1)));
    if (pack10_)
        GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.dev_packed), packed_bytes_));
    if (work_bytes_)
        GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.work), work_bytes_));
    GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.d_accum), m_.accum_bytes));
    GPU_TRY(hipHostMalloc(reinterpret_cast<void **>(&s.h_accum), m_.accum_bytes,
                          hipHostMallocDefault));
    GPU_TRY(hipEventCreateWithFlags(&s.copied, hipEventDisableTiming));
    GPU_TRY(hipEventCreateWithFlags(&s.done, tuning_.timing ? hipEventDefault : hipEventDisableTiming));
    if (tuning_.timing)
        for (hipEvent_t *e : {&s.t_start, &s.t_end})
            GPU_TRY(hipEventCreateWithFlags(e, hipEventDefault));

    const Geometry &g = m_.g;
    s.frame.planes = m_.planes;
    s.frame.bpc = g.bpc;
    for (int p = 0; p < m_.planes; p++) {
        s.frame.ref[p] = GpuPlane{s.dev + plane_off_[0][p], g.scored_w(p), g.scored_h(p)};
        s.frame.dis[p] = GpuPlane{s.dev + plane_off_[1][p], g.scored_w(p), g.scored_h(p)};
    }
    return 0;
}

// Pinning host memory takes time (core/gpu/pinned_memory.h), and a context
// stages only the pictures that are neither lent nor uploaded by another
// context (a ladder's renditions share their reference): a slot's staging is
// made when it first stages a picture, on the thread that stages it. A
// context opens sooner, and one that never stages pins nothing.
bool HipBackend::has_staging(Slot &s)
{
    if (s.host_tried || tuning_.staging != HipTuning::STAGING_PINNED)
        return s.host != nullptr;
    s.host_tried = true;
    // Fault injection (tests/unit/test_faults.cpp) walks the fallback too.
    s.host = fault_gpu_now() ? nullptr : pinned_alloc(std::max(frame_bytes_, packed_bytes_));
    if (!s.host) {
        // Pinned memory is a limited resource: direct copies from now on,
        // without asking again for every slot.
        for (Slot &t : slots_)
            t.host_tried = true;
        log_.log(VMAFHIP_LOG_WARNING, "no pinned host memory for staging (%zu MiB): copying "
                 "frames directly from the caller's memory (slower)\n", frame_bytes_ >> 20);
    }
    return s.host != nullptr;
}

// The kernels of a slot are the same every frame (fixed pointers), so they
// are captured once and replayed as a single launch: with the extractors as
// parallel branches where the runtime captures them, else as one chain.
int HipBackend::capture_graph(Slot &s, Work work, CaptureBranches *branches, std::string *err)
{
    for (const bool branched : {true, false}) {
        if (branched && !branches->size())
            continue;
        CaptureBranches *b = branched ? branches : nullptr;
        std::string branch_err;
        GPU_TRY(hipStreamBeginCapture(s.stream, hipStreamCaptureModeThreadLocal));
        // A failure of the branched capture only costs the branches.
        const int ret = enqueue_kernels(s, work, b, b ? &branch_err : err);
        const hipError_t end = hipStreamEndCapture(s.stream, &s.graph[work]);
        if (ret < 0 && !b)
            return ret;
        if (ret == 0 && end == hipSuccess &&
            hipGraphInstantiate(&s.exec[work], s.graph[work], nullptr, nullptr, 0) == hipSuccess) {
            branched_ = branched_ && branched;
            return 0;
        }
        (void)hipGetLastError();
        if (s.graph[work])
            (void)hipGraphDestroy(s.graph[work]);
        s.graph[work] = nullptr;
        s.exec[work] = nullptr;
        if (b) {
            log_.log(VMAFHIP_LOG_DEBUG, "graph branches unavailable (%s): one chain per frame\n",
                     ret < 0 ? branch_err.c_str() : "capture failed");
            branches->release(); // the other slots are not tried either
        }
    }
    // Graphs are an optimisation: launch stream by stream instead.
    log_.log(VMAFHIP_LOG_DEBUG, "graph capture unavailable: launching kernels per frame\n");
    return 0;
}

int HipBackend::enqueue_kernels(Slot &s, Work work, CaptureBranches *branches, std::string *err)
{
    GPU_TRY(hipMemsetAsync(s.d_accum, 0, m_.accum_bytes, s.stream));
    if (m_.g.range_checked())
        sample_max_enqueue(s.stream, s.frame, reinterpret_cast<unsigned *>(s.d_accum));
    int n = 0;
    for (const Instance &x : m_.ext)
        n += runs(x, work);
    if (n < 2)
        branches = nullptr;
    int ret = 0;
    if (branches && (ret = branches->fork(s.stream, n, err)) < 0)
        return ret;
    for (size_t i = 0, b = 0; i < m_.ext.size(); i++) {
        const Instance &x = m_.ext[i];
        if (runs(x, work))
            x.ext->info().gpu->enqueue(*x.ext, branches ? branches->branch(b++) : s.stream, s.frame,
                                       constants_[i], s.work + work_off_[i],
                                       s.d_accum + x.accum_offset);
    }
    if (branches && (ret = branches->join(s.stream, n, err)) < 0)
        return ret;
    GPU_TRY(hipGetLastError());
    GPU_TRY(hipMemcpyAsync(s.h_accum, s.d_accum, m_.accum_bytes, hipMemcpyDeviceToHost, s.stream));
    return 0;
}

void HipBackend::for_bands(const std::function<void(int, int)> &copy)
{
    // Waking the pool costs more than copying a small frame.
    if (frame_bytes_ < kParallelCopyBytes)
        copy(0, static_cast<int>(bands_.size()));
    else
        pool_.parallel_for(static_cast<int>(bands_.size()), 1, copy);
}

// Caller planes of the staged pictures -> pinned staging, rows packed, with
// stores that bypass the CPU's caches; big frames split over threads.
void HipBackend::stage_on_host(Slot &s, const FrameView &f, const bool staged[2])
{
    const int bps = m_.g.bytes_per_sample();
    for_bands([&](int b0, int b1) {
        for (int b = b0; b < b1; b++) {
            const Band &band = bands_[b];
            if (!staged[band.pic])
                continue;
            const PlaneView &src = band.pic ? f.dis[band.plane] : f.ref[band.plane];
            const size_t row = static_cast<size_t>(src.w) * bps;
            uint8_t *dst = s.host + copy_off_[band.pic][band.plane] + band.y0 * row;
            copy_rows_for_device(dst, static_cast<ptrdiff_t>(row), src.row<uint8_t>(band.y0),
                                 src.stride, row, band.y1 - band.y0);
        }
    });
}

bool HipBackend::pack_on_host(Slot &s, const FrameView &f)
{
    std::atomic<bool> fits{true};
    for_bands([&](int b0, int b1) {
        for (int b = b0; b < b1 && fits.load(std::memory_order_relaxed); b++) {
            const Band &band = bands_[b];
            const PlaneView &src = band.pic ? f.dis[band.plane] : f.ref[band.plane];
            const size_t row_words = packed10_row_words(src.w);
            auto *dst = reinterpret_cast<uint32_t *>(s.host + packed_off_[band.pic][band.plane]) +
                        band.y0 * row_words;
            if (!pack10_rows_for_device(dst, src.row<uint8_t>(band.y0), src.stride, src.w,
                                        band.y1 - band.y0))
                fits = false;
        }
    });
    return fits;
}

// Picture pic (0 reference, 1 distorted) straight from the caller's memory,
// one 2D copy per plane. From pinned (lent) memory the copy is asynchronous;
// from pageable memory hipMemcpy2DAsync returns once the runtime has taken
// its own copy, so the caller may reuse the planes afterwards.
int HipBackend::copy_direct(Slot &s, const FrameView &f, int pic, std::string *err)
{
    const int bps = m_.g.bytes_per_sample();
    for (int q = 0; q < pic_planes_; q++) {
        const PlaneView &src = pic ? f.dis[q] : f.ref[q];
        const size_t row = static_cast<size_t>(src.w) * bps;
        // A bottom-up plane (negative stride) has no positive pitch: row by row.
        if (src.stride < 0) {
            for (int y = 0; y < src.h; y++)
                GPU_TRY(hipMemcpyAsync(s.dev + copy_off_[pic][q] + y * row, src.row<uint8_t>(y),
                                       row, hipMemcpyHostToDevice, s.stream));
            continue;
        }
        GPU_TRY(hipMemcpy2DAsync(s.dev + copy_off_[pic][q], row, src.data,
                                 static_cast<size_t>(src.stride), row, static_cast<size_t>(src.h),
                                 hipMemcpyHostToDevice, s.stream));
    }
    return 0;
}

int HipBackend::submit(const FrameView &f, bool scored, void *const fence[2], std::string *err)
{
    // After the kept frames queued before it: the slots are filled in order.
    if (stager_)
        stager_->wait_all();
    Slot &s = slots_[head_ % slots_.size()];
    s.kept = false;
    const int ret = enqueue_frame(head_, f, scored, false, fence, err);
    if (ret < 0)
        return ret;
    head_++;
    return 0;
}

// The frame is staged on the stager thread; its outcome waits in the slot
// for collect(). After a failure the later frames are not read at all.
int HipBackend::submit_kept(const FrameView &f, bool scored, void *const fence[2], std::string *err)
{
    Slot &s = slots_[head_ % slots_.size()];
    s.kept = true;
    s.kept_ret = -ECANCELED;
    s.kept_err.clear();
    const unsigned i = head_;
    const std::array<void *, 2> fences{fence[0], fence[1]};
    try {
        if (!stager_)
            stager_ = std::make_unique<TaskThread>("vmafhip-stage");
        s.kept_task = stager_->queue([this, i, f, scored, fences] {
            Slot &k = slots_[i % slots_.size()];
            if (kept_failed_)
                return;
            k.kept_ret = enqueue_frame(i, f, scored, true, fences.data(), &k.kept_err);
            kept_failed_ = k.kept_ret < 0;
        });
    } catch (const std::system_error &) {
        // No thread for it: staged here instead.
        s.kept = false;
        return submit(f, scored, fence, err);
    }
    head_++;
    return 0;
}

void HipBackend::abandon()
{
    if (stager_)
        stager_->abandon();
    for (Slot &s : slots_)
        shared_ref_unlist(s.listed); // the caller may let the pictures go
}

SharedRefKey HipBackend::shared_key(const FrameView &f) const
{
    const Geometry &g = m_.g;
    SharedRefKey k;
    k.device = dev_.index;
    k.layout = {g.w, g.h, g.bpc, static_cast<int>(g.chroma), static_cast<int>(g.layout), m_.planes};
    for (int q = 0; q < pic_planes_; q++) {
        k.data[q] = f.ref[q].data;
        k.stride[q] = f.ref[q].stride;
    }
    return k;
}

// After the slot's own copies and the split of semi-planar chroma (which
// would overwrite them): the planes as the kernels read them.
int HipBackend::copy_shared(Slot &s, const SharedRefPlanes &from, std::string *err)
{
    GPU_TRY(hipStreamWaitEvent(s.stream, from.ready, 0));
    const int bps = m_.g.bytes_per_sample();
    for (int p = 0; p < m_.planes; p++)
        GPU_TRY(hipMemcpyAsync(const_cast<uint8_t *>(s.frame.ref[p].data), from.data[p],
                               static_cast<size_t>(m_.g.scored_w(p)) * m_.g.scored_h(p) * bps,
                               hipMemcpyDeviceToDevice, s.stream));
    return 0;
}

int HipBackend::enqueue_frame(unsigned i, const FrameView &f, bool scored, bool kept,
                              void *const fence[2], std::string *err)
{
    GPU_TRY(hipSetDevice(dev_.index));
    Slot &s = slots_[i % slots_.size()];
    const Work work = scored ? ALL : EVERY_FRAME;
    // Other contexts may still be copying the reference this slot held.
    int ret = shared_ref_settle(&s.listed, s.stream, err);
    if (ret < 0)
        return ret;
    SharedRefHandle borrowed;
    SharedRefPlanes from;
    SharedRefRole role = SharedRefRole::NONE;
    if (kept && share_ && !fence[0])
        role = shared_ref_find(shared_key(f), this, &borrowed, &from);
    if (role == SharedRefRole::OWN)
        s.listed = std::move(borrowed);
    SharedRefGuard guard(role == SharedRefRole::OWN ? &s.listed : &borrowed, role);
    // Pictures staged on the host: not lent, not another context's, and
    // pinned staging available.
    const bool shared = role == SharedRefRole::BORROW;
    const bool wanted[2] = {!fence[0] && !shared, !fence[1]};
    const bool pinned = (wanted[0] || wanted[1]) && has_staging(s);
    const bool staged[2] = {pinned && wanted[0], pinned && wanted[1]};
    s.host_copy_ms = 0;
    bool packed = false;
    if (staged[0] || staged[1]) {
        const auto t0 = std::chrono::steady_clock::now();
        // A sample too large for the packed form: the frame as it is, where
        // the range check of its kernels reports it.
        packed = pack10_ && staged[0] && staged[1] && pack_on_host(s, f);
        if (!packed)
            stage_on_host(s, f, staged);
        s.host_copy_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    if (tuning_.timing)
        GPU_TRY(hipEventRecord(s.t_start, s.stream));
    if (packed) {
        GPU_TRY(hipMemcpyAsync(s.dev_packed, s.host, packed_bytes_, hipMemcpyHostToDevice, s.stream));
        Packed10Planes p{};
        for (int pic = 0; pic < 2; pic++)
            for (int q = 0; q < pic_planes_; q++, p.n++) {
                p.src[p.n] = reinterpret_cast<const uint32_t *>(s.dev_packed + packed_off_[pic][q]);
                p.dst[p.n] = reinterpret_cast<uint16_t *>(s.dev + copy_off_[pic][q]);
                p.w[p.n] = m_.g.scored_w(q);
                p.h[p.n] = m_.g.scored_h(q);
            }
        packed10_unpack_enqueue(s.stream, p);
        GPU_TRY(hipGetLastError());
    } else if (staged[0] && staged[1]) {
        GPU_TRY(hipMemcpyAsync(s.dev, s.host, frame_bytes_, hipMemcpyHostToDevice, s.stream));
    } else {
        for (int pic = 0; pic < 2; pic++) {
            // The pictures' planes are consecutive in the slot's buffers.
            const size_t begin = copy_off_[pic][0], end = pic ? frame_bytes_ : copy_off_[1][0];
            if (staged[pic])
                GPU_TRY(hipMemcpyAsync(s.dev + begin, s.host + begin, end - begin,
                                       hipMemcpyHostToDevice, s.stream));
            else if (pic == 0 && shared)
                continue; // copied below
            else if ((ret = copy_direct(s, f, pic, err)) < 0)
                return ret;
            if (fence[pic])
                GPU_TRY(hipEventRecord(static_cast<hipEvent_t>(fence[pic]), s.stream));
        }
    }
    if (m_.g.semi_planar()) {
        // Before `copied`: the next frames read this luma (look-behind) shifted.
        const uint8_t *const pairs[2] = {s.dev + copy_off_[0][1], s.dev + copy_off_[1][1]};
        semi_planar_enqueue(s.stream, s.frame, pairs, m_.planes, m_.g.sample_shift());
        GPU_TRY(hipGetLastError());
    }
    if (shared) {
        if ((ret = copy_shared(s, from, err)) < 0)
            return ret;
        guard.done();
        if ((ret = shared_ref_unpin(&borrowed, s.stream, err)) < 0)
            return ret;
    }
    GPU_TRY(hipEventRecord(s.copied, s.stream));
    if (role == SharedRefRole::OWN) {
        SharedRefPlanes planes;
        for (int p = 0; p < m_.planes; p++)
            planes.data[p] = s.frame.ref[p].data;
        planes.ready = s.copied;
        shared_ref_publish(s.listed, planes);
        guard.done();
    }
    // Earlier reference pictures this frame reads: their copies must be done.
    for (int k = 0; k < m_.lookbehind && i > static_cast<unsigned>(k); k++)
        GPU_TRY(hipStreamWaitEvent(s.stream, slots_[(i - 1 - k) % slots_.size()].copied, 0));
    if (s.exec[work]) {
        GPU_TRY(hipGraphLaunch(s.exec[work], s.stream));
    } else {
        if (tuning_.timing)
            GPU_TRY(hipEventRecord(s.t_end, s.stream)); // copy done: kernels start
        if ((ret = enqueue_kernels(s, work, nullptr, err)) < 0)
            return ret;
    }
    GPU_TRY(hipEventRecord(s.done, s.stream));
    return 0;
}

// The previous frames' planes go into the slots before the first one this
// backend fills, where the frames that read them look (prev_ref,
// prev_ref_chroma, prev_dis): the staged planes the kernels read, planar.
int HipBackend::take_over(unsigned, const EarlierPictures &earlier, std::string *err)
{
    GPU_TRY(hipSetDevice(dev_.index));
    const int n = earlier.n;
    head_ = tail_ = static_cast<unsigned>(n);
    const int bps = m_.g.bytes_per_sample();
    for (int k = 0; k < n; k++) {
        Slot &s = slots_[static_cast<size_t>(n - 1 - k) % slots_.size()];
        const GpuPlane *to[4] = {&s.frame.ref[0], &s.frame.ref[1], &s.frame.ref[2], &s.frame.dis[0]};
        const PlaneView *from[4] = {&earlier.ref[k], &earlier.ref_chroma[k][0],
                                    &earlier.ref_chroma[k][1], &earlier.dis[k]};
        const bool handed[4] = {true, m_.lookbehind_chroma, m_.lookbehind_chroma, m_.lookbehind_dis};
        for (int q = 0; q < 4; q++) {
            if (!handed[q])
                continue;
            // A packed copy (positive stride) in pageable memory: the copy
            // has taken it once the call returns.
            const PlaneView &p = *from[q];
            const size_t row = static_cast<size_t>(p.w) * bps;
            GPU_TRY(hipMemcpy2DAsync(const_cast<uint8_t *>(to[q]->data), row, p.data,
                                     static_cast<size_t>(p.stride), row, static_cast<size_t>(p.h),
                                     hipMemcpyHostToDevice, s.stream));
        }
        GPU_TRY(hipEventRecord(s.copied, s.stream));
    }
    return 0;
}

int HipBackend::collect(bool wait, uint8_t *accum, std::string *err)
{
    const Slot &s = slots_[tail_ % slots_.size()];
    const int ret = collect_slot(wait, accum, err);
    // Collected (or failed): the caller may let its pictures go.
    if (ret != -EAGAIN)
        shared_ref_unlist(s.listed);
    return ret;
}

int HipBackend::collect_slot(bool wait, uint8_t *accum, std::string *err)
{
    Slot &s = slots_[tail_ % slots_.size()];
    if (s.kept) {
        if (!wait && !stager_->ended(s.kept_task + 1))
            return -EAGAIN;
        stager_->wait_ended(s.kept_task + 1);
        if (s.kept_ret == -ECANCELED) {
            *err = strprintf("frame %u was not scored: the stream failed before it", tail_);
            return -ECANCELED;
        }
        if (s.kept_ret < 0) {
            *err = s.kept_err;
            return s.kept_ret;
        }
    }
    GPU_TRY(hipSetDevice(dev_.index));
    if (!wait) {
        const hipError_t q = hipEventQuery(s.done);
        if (q == hipErrorNotReady)
            return -EAGAIN;
        GPU_TRY(q);
    }
    GPU_TRY(hipEventSynchronize(s.done));
    std::memcpy(accum, s.h_accum, m_.accum_bytes);
    if (tuning_.timing) {
        float copy_ms = 0, total_ms = 0;
        GPU_TRY(hipEventElapsedTime(&copy_ms, s.t_start, s.t_end));
        GPU_TRY(hipEventElapsedTime(&total_ms, s.t_start, s.done));
        stats_.frames++;
        stats_.host_copy_ms += s.host_copy_ms;
        stats_.h2d_ms += copy_ms;
        stats_.kernel_ms += total_ms - copy_ms;
        stats_.h2d_bytes += frame_bytes_;
    }
    tail_++;
    return 0;
}

} // namespace

long shared_reference_copies()
{
    return shared_ref_copies();
}

std::unique_ptr<Backend> make_hip_backend(const Metrics &m, const VmafHipSettings &s,
                                          const Logger &log, int *ret, std::string *err,
                                          const HipTuning &tuning, const std::atomic<bool> *cancel)
{
    auto b = std::make_unique<HipBackend>(m, log, tuning, s.threads);
    *ret = b->init(s, cancel, err);
    if (*ret < 0)
        return nullptr;
    return b;
}

} // namespace vmafhip
