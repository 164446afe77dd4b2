// The GPU backend: a ring of slots, each with its own stream, staging
// buffers, device planes, metric workspaces and result block, so that the
// copy of frame N+1 overlaps the kernels of frame N and several frames are in
// flight without any device-wide synchronisation.
//
// Per frame (one slot): caller planes -> pinned host staging (host threads)
// -> one async host-to-device copy into tightly packed device planes ->
// zero the accumulators -> kernels -> accumulators back to pinned host
// memory -> event. Nothing is allocated per frame, and no pointer to the
// caller's memory ever reaches a kernel: kernels read only the device planes.
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>
#include <vector>

#include "core/backend.h"
#include "core/gpu_check.h"
#include "core/gpu_device.h"
#include "base/thread_pool.h"
#include "kernels/adm.h"
#include "kernels/psnr.h"
#include "kernels/sample_check.h"
#include "kernels/ssim.h"

namespace vmafhip {

namespace {

constexpr size_t kAlign = 256;
constexpr int kDefaultDepth = 4;
// Host staging: frames above this are copied by the thread pool, in bands of
// about kBandBytes (small enough to keep every core busy).
constexpr size_t kParallelCopyBytes = size_t(1) << 20;
constexpr size_t kBandBytes = size_t(128) << 10;

// Host staging saturates memory bandwidth with a few threads; more would only
// compete with the caller, the GPU runtime's threads and other contexts.
int staging_threads()
{
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return std::max(1, std::min(8, cores / 2));
}

size_t align_up(size_t v)
{
    return (v + kAlign - 1) / kAlign * kAlign;
}

class HipBackend final : public Backend {
public:
    HipBackend(const Metrics &m, const Logger &log, const HipTuning &t)
        : m_(m), log_(log), tuning_(t), pool_(staging_threads())
    {
    }
    ~HipBackend() override;

    int init(const VmafHipSettings &s, std::string *err);
    const std::string &name() const override { return name_; }
    int depth() const override { return static_cast<int>(slots_.size()); }
    int submit(const FrameView &f, std::string *err) override;
    int collect(bool wait, FrameAccum *out, std::string *err) override;
    bool stats(BackendStats *out) const override
    {
        *out = stats_;
        return tuning_.timing;
    }

private:
    struct Slot {
        hipStream_t stream = nullptr;
        uint8_t *host = nullptr;     ///< pinned staging of every plane (PINNED staging)
        uint8_t *dev = nullptr;      ///< device planes, packed
        uint8_t *work = nullptr;     ///< metric workspaces
        FrameAccum *d_accum = nullptr;
        FrameAccum *h_accum = nullptr; ///< pinned
        hipEvent_t done = nullptr;
        hipEvent_t t_start = nullptr, t_copied = nullptr, t_end = nullptr; ///< timing only
        hipGraph_t graph = nullptr;
        hipGraphExec_t exec = nullptr;
        GpuFrame frame{};
        double host_copy_ms = 0;
    };

    int create_slot(Slot &s, std::string *err);
    int enqueue_copy(Slot &s, std::string *err);
    int enqueue_kernels(Slot &s, std::string *err);
    int capture_graph(Slot &s, std::string *err);
    void stage_on_host(Slot &s, const FrameView &f);

    /// Rows [y0, y1) of one plane: the unit of parallel host staging.
    struct Band {
        int pic, plane, y0, y1;
    };
    std::vector<Band> bands_;
    int copy_direct(Slot &s, const FrameView &f, std::string *err);

    const Metrics &m_;
    Logger log_;
    HipTuning tuning_;
    ThreadPool pool_;
    GpuDeviceInfo dev_;
    std::string name_;
    int planes_ = 1;                ///< planes staged per picture
    size_t plane_off_[2][3] = {};   ///< [ref, dis][plane] offset in a slot's buffers
    size_t frame_bytes_ = 0;        ///< staged bytes per frame (both pictures)
    size_t ssim_bytes_ = 0, adm_bytes_ = 0;
    std::vector<Slot> slots_;
    unsigned head_ = 0, tail_ = 0;  ///< next slot to submit into / to collect from
    BackendStats stats_;
};

HipBackend::~HipBackend()
{
    (void)hipSetDevice(dev_.index);
    for (Slot &s : slots_) {
        if (s.stream)
            (void)hipStreamSynchronize(s.stream);
        if (s.exec)
            (void)hipGraphExecDestroy(s.exec);
        if (s.graph)
            (void)hipGraphDestroy(s.graph);
        for (hipEvent_t e : {s.done, s.t_start, s.t_copied, s.t_end})
            if (e)
                (void)hipEventDestroy(e);
        if (s.stream)
            (void)hipStreamDestroy(s.stream);
        (void)hipFree(s.dev);
        (void)hipFree(s.work);
        (void)hipFree(s.d_accum);
        if (s.host)
            (void)hipHostFree(s.host);
        if (s.h_accum)
            (void)hipHostFree(s.h_accum);
    }
    (void)hipGetLastError();
}

int HipBackend::init(const VmafHipSettings &s, std::string *err)
{
    int ret = gpu_select_device(s.device, &dev_, err);
    if (ret < 0)
        return ret;
    name_ = strprintf("hip: %s (%s)", dev_.name.c_str(), dev_.arch.c_str());
    log_.log(VMAFHIP_LOG_INFO, "GPU %d: %s, %s, %zu MiB, %d compute units\n", dev_.index,
             dev_.name.c_str(), dev_.arch.c_str(), dev_.total_mem >> 20, dev_.sm_count);

    // Chroma is staged only when psnr reads it.
    const Geometry &g = m_.g;
    planes_ = m_.chroma_planes_read();
    size_t off = 0;
    for (int pic = 0; pic < 2; pic++)
        for (int p = 0; p < planes_; p++) {
            plane_off_[pic][p] = off;
            off += align_up(static_cast<size_t>(g.scored_w(p)) * g.scored_h(p) * g.bytes_per_sample());
        }
    frame_bytes_ = off;
    for (int pic = 0; pic < 2; pic++)
        for (int p = 0; p < planes_; p++) {
            const size_t row = std::max<size_t>(1, static_cast<size_t>(g.scored_w(p)) * g.bytes_per_sample());
            const int rows = static_cast<int>(std::max<size_t>(1, kBandBytes / row));
            for (int y = 0; y < g.scored_h(p); y += rows)
                bands_.push_back(Band{pic, p, y, std::min(g.scored_h(p), y + rows)});
        }
    ssim_bytes_ = m_.ssim ? align_up(ssim_workspace_bytes(*m_.ssim)) : 0;
    adm_bytes_ = m_.adm ? align_up(adm_workspace_bytes(*m_.adm)) : 0;

    const int depth = s.queue_depth ? s.queue_depth : kDefaultDepth;
    const size_t per_slot = frame_bytes_ + ssim_bytes_ + adm_bytes_ + align_up(sizeof(FrameAccum));
    size_t free_b = 0, total_b = 0;
    GPU_TRY(hipMemGetInfo(&free_b, &total_b));
    if (per_slot * depth > free_b) {
        *err = strprintf("a %dx%d %d-bit frame needs %zu MiB of GPU memory per frame in flight "
                         "(%d in flight: %zu MiB), but GPU %d has %zu MiB free of %zu MiB: "
                         "lower queue_depth, the frame size or the features, or use the CPU backend",
                         g.w, g.h, g.bpc, per_slot >> 20, depth, (per_slot * depth) >> 20,
                         dev_.index, free_b >> 20, total_b >> 20);
        return -ENOMEM;
    }
    stats_.device_bytes = per_slot * depth;
    slots_.resize(static_cast<size_t>(depth));
    for (Slot &slot : slots_)
        if ((ret = create_slot(slot, err)) < 0)
            return ret;
    log_.log(VMAFHIP_LOG_DEBUG, "%d frames in flight, %zu MiB of GPU memory, %s staging%s\n",
             depth, stats_.device_bytes >> 20,
             tuning_.staging == HipTuning::STAGING_PINNED ? "pinned" : "direct",
             slots_[0].exec ? ", graphs" : "");
    return 0;
}

int HipBackend::create_slot(Slot &s, std::string *err)
{
    GPU_TRY(hipStreamCreateWithFlags(&s.stream, hipStreamNonBlocking));
    GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.dev), std::max<size_t>(frame_bytes_, 1)));
    if (ssim_bytes_ + adm_bytes_)
        GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.work), ssim_bytes_ + adm_bytes_));
    GPU_TRY(hipMalloc(reinterpret_cast<void **>(&s.d_accum), sizeof(FrameAccum)));
    GPU_TRY(hipHostMalloc(reinterpret_cast<void **>(&s.h_accum), sizeof(FrameAccum),
                          hipHostMallocDefault));
    if (tuning_.staging == HipTuning::STAGING_PINNED &&
        hipHostMalloc(reinterpret_cast<void **>(&s.host), frame_bytes_, hipHostMallocDefault) !=
            hipSuccess) {
        // Pinned memory is a limited resource: fall back to direct copies.
        (void)hipGetLastError();
        s.host = nullptr;
        log_.log(VMAFHIP_LOG_WARNING, "no pinned host memory for staging (%zu MiB): copying "
                 "frames directly from the caller's memory (slower)\n", frame_bytes_ >> 20);
    }
    GPU_TRY(hipEventCreateWithFlags(&s.done, hipEventDisableTiming));
    if (tuning_.timing)
        for (hipEvent_t *e : {&s.t_start, &s.t_copied, &s.t_end})
            GPU_TRY(hipEventCreateWithFlags(e, hipEventDefault));

    const Geometry &g = m_.g;
    s.frame.planes = planes_;
    s.frame.bpc = g.bpc;
    for (int p = 0; p < planes_; p++) {
        s.frame.ref[p] = GpuPlane{s.dev + plane_off_[0][p], g.scored_w(p), g.scored_h(p)};
        s.frame.dis[p] = GpuPlane{s.dev + plane_off_[1][p], g.scored_w(p), g.scored_h(p)};
    }
    if (tuning_.graphs && !tuning_.timing && s.host)
        return capture_graph(s, err);
    return 0;
}

// The work after host staging is the same every frame for a slot (fixed
// pointers), so it is captured once and replayed as a single launch.
int HipBackend::capture_graph(Slot &s, std::string *err)
{
    GPU_TRY(hipStreamBeginCapture(s.stream, hipStreamCaptureModeThreadLocal));
    int ret = enqueue_copy(s, err);
    if (ret >= 0)
        ret = enqueue_kernels(s, err);
    const hipError_t end = hipStreamEndCapture(s.stream, &s.graph);
    if (ret < 0)
        return ret;
    if (end != hipSuccess || hipGraphInstantiate(&s.exec, s.graph, nullptr, nullptr, 0) != hipSuccess) {
        // Graphs are an optimisation: launch stream by stream instead.
        (void)hipGetLastError();
        if (s.graph)
            (void)hipGraphDestroy(s.graph);
        s.graph = nullptr;
        s.exec = nullptr;
        log_.log(VMAFHIP_LOG_DEBUG, "graph capture unavailable: launching kernels per frame\n");
    }
    return 0;
}

int HipBackend::enqueue_copy(Slot &s, std::string *err)
{
    GPU_TRY(hipMemcpyAsync(s.dev, s.host, frame_bytes_, hipMemcpyHostToDevice, s.stream));
    return 0;
}

int HipBackend::enqueue_kernels(Slot &s, std::string *err)
{
    GPU_TRY(hipMemsetAsync(s.d_accum, 0, sizeof(FrameAccum), s.stream));
    if (m_.g.range_checked())
        sample_max_enqueue(s.stream, s.frame, &s.d_accum->max_sample);
    if (m_.psnr)
        psnr_enqueue(s.stream, s.frame, m_.psnr->planes(),
                     reinterpret_cast<unsigned long long *>(s.d_accum->psnr.sse));
    if (m_.ssim)
        ssim_enqueue(s.stream, *m_.ssim, s.frame, s.work, &s.d_accum->ssim);
    if (m_.adm)
        adm_enqueue(s.stream, *m_.adm, s.frame, s.work + ssim_bytes_, &s.d_accum->adm);
    GPU_TRY(hipGetLastError());
    GPU_TRY(hipMemcpyAsync(s.h_accum, s.d_accum, sizeof(FrameAccum), hipMemcpyDeviceToHost,
                           s.stream));
    return 0;
}

// Caller planes -> pinned staging, rows packed; big frames split over threads.
void HipBackend::stage_on_host(Slot &s, const FrameView &f)
{
    const int bps = m_.g.bytes_per_sample();
    auto copy = [&](int b0, int b1) {
        for (int b = b0; b < b1; b++) {
            const Band &band = bands_[b];
            const PlaneView &src = band.pic ? f.dis[band.plane] : f.ref[band.plane];
            const size_t row = static_cast<size_t>(src.w) * bps;
            uint8_t *dst = s.host + plane_off_[band.pic][band.plane];
            for (int y = band.y0; y < band.y1; y++)
                std::memcpy(dst + y * row, src.row<uint8_t>(y), row);
        }
    };
    // Waking the pool costs more than copying a small frame.
    if (frame_bytes_ < kParallelCopyBytes)
        copy(0, static_cast<int>(bands_.size()));
    else
        pool_.parallel_for(static_cast<int>(bands_.size()), 1, copy);
}

// hipMemcpy2DAsync from pageable memory returns once the runtime has taken
// its own copy, so the caller may reuse the planes afterwards.
int HipBackend::copy_direct(Slot &s, const FrameView &f, std::string *err)
{
    const Geometry &g = m_.g;
    const int bps = g.bytes_per_sample();
    for (int pic = 0; pic < 2; pic++)
        for (int p = 0; p < planes_; p++) {
            const PlaneView &src = pic ? f.dis[p] : f.ref[p];
            const size_t row = static_cast<size_t>(src.w) * bps;
            // A bottom-up plane (negative stride) has no positive pitch: row by row.
            if (src.stride < 0) {
                for (int y = 0; y < src.h; y++)
                    GPU_TRY(hipMemcpyAsync(s.dev + plane_off_[pic][p] + y * row, src.row<uint8_t>(y),
                                           row, hipMemcpyHostToDevice, s.stream));
                continue;
            }
            GPU_TRY(hipMemcpy2DAsync(s.dev + plane_off_[pic][p], row, src.data,
                                     static_cast<size_t>(src.stride), row,
                                     static_cast<size_t>(src.h), hipMemcpyHostToDevice, s.stream));
        }
    return 0;
}

int HipBackend::submit(const FrameView &f, std::string *err)
{
    GPU_TRY(hipSetDevice(dev_.index));
    Slot &s = slots_[head_ % slots_.size()];
    int ret;
    if (s.host) {
        const auto t0 = std::chrono::steady_clock::now();
        stage_on_host(s, f);
        s.host_copy_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    }
    if (tuning_.timing)
        GPU_TRY(hipEventRecord(s.t_start, s.stream));
    if (s.host) {
        if (s.exec) {
            GPU_TRY(hipGraphLaunch(s.exec, s.stream));
            GPU_TRY(hipEventRecord(s.done, s.stream));
            head_++;
            return 0;
        }
        ret = enqueue_copy(s, err);
    } else {
        ret = copy_direct(s, f, err);
    }
    if (ret < 0)
        return ret;
    if (tuning_.timing)
        GPU_TRY(hipEventRecord(s.t_copied, s.stream));
    if ((ret = enqueue_kernels(s, err)) < 0)
        return ret;
    if (tuning_.timing)
        GPU_TRY(hipEventRecord(s.t_end, s.stream));
    GPU_TRY(hipEventRecord(s.done, s.stream));
    head_++;
    return 0;
}

int HipBackend::collect(bool wait, FrameAccum *out, std::string *err)
{
    GPU_TRY(hipSetDevice(dev_.index));
    Slot &s = slots_[tail_ % slots_.size()];
    if (!wait) {
        const hipError_t q = hipEventQuery(s.done);
        if (q == hipErrorNotReady)
            return -EAGAIN;
        GPU_TRY(q);
    }
    GPU_TRY(hipEventSynchronize(s.done));
    *out = *s.h_accum;
    if (tuning_.timing) {
        float copy_ms = 0, kernel_ms = 0;
        GPU_TRY(hipEventElapsedTime(&copy_ms, s.t_start, s.t_copied));
        GPU_TRY(hipEventElapsedTime(&kernel_ms, s.t_copied, s.t_end));
        stats_.frames++;
        stats_.host_copy_ms += s.host_copy_ms;
        stats_.h2d_ms += copy_ms;
        stats_.kernel_ms += kernel_ms;
        stats_.h2d_bytes += frame_bytes_;
    }
    tail_++;
    return 0;
}

} // namespace

std::unique_ptr<Backend> make_hip_backend(const Metrics &m, const VmafHipSettings &s,
                                          const Logger &log, int *ret, std::string *err,
                                          const HipTuning &tuning)
{
    auto b = std::make_unique<HipBackend>(m, log, tuning);
    *ret = b->init(s, err);
    if (*ret < 0)
        return nullptr;
    return b;
}

} // namespace vmafhip
