// Context lifetime, frame submission, and the completion of frames in order:
// a frame's accumulators are collected from the backend and finished, and
// its scores are complete once the later frames its temporal features read
// are finished too (or the stream has ended).
#include "core/context.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <system_error>

#include "core/gpu/gpu_start.h"
#include "core/options.h"

namespace vmafhip {

namespace {

thread_local std::string open_error;

// An extractor the context runs that has no GPU code in this build (one
// whose GPU implementation does not exist yet), or whose GPU code refuses
// this host (GpuImpl::refuse): -ENOTSUP naming it, or 0.
int gpu_code_for_every_extractor(const Metrics &m, std::string *msg)
{
    for (const Instance &x : m.ext) {
        const std::string why = gpu_unavailable(*x.ext);
        if (!why.empty()) {
            *msg = why + " (backend cpu runs it)";
            return -ENOTSUP;
        }
    }
    return 0;
}

// auto and hip: the GPU backend. Without gpu_wait the CPU scores while it
// starts, and until the stream has lasted kGpuStartAfter
// (core/backend_handover.cpp); where there can be no GPU at all, or no GPU
// code for an extractor, that is known at once: hip fails, auto scores on
// the CPU after one warning.
int create_backend(VmafHipContext *c, std::string *msg)
{
    const VmafHipSettings &s = c->settings;
    if (s.backend == VMAFHIP_BACKEND_CPU) {
        c->backend = make_cpu_backend(c->metrics, s.threads, s.queue_depth);
        return 0;
    }
    int ret = gpu_precheck(msg);
    if (ret == 0)
        ret = gpu_code_for_every_extractor(c->metrics, msg);
    if (ret == -ENOTSUP && s.backend == VMAFHIP_BACKEND_AUTO) {
        log_cpu_fallback(c->log, *msg);
        msg->clear();
        c->backend = make_cpu_backend(c->metrics, s.threads, s.queue_depth);
        return 0;
    }
    if (ret == 0 && !s.gpu_wait) {
        const int depth = std::min(s.queue_depth ? s.queue_depth : kDefaultGpuDepth, kHandoverCpuDepth);
        const Metrics &m = c->metrics;
        BackendMaker make = [&m, s](const std::atomic<bool> &cancel, const Logger &log, int *r,
                                    std::string *err) {
            return make_hip_backend(m, s, log, r, err, HipTuning(), &cancel);
        };
        c->backend = make_handover_backend(m, make_cpu_backend(m, s.threads, depth), std::move(make),
                                           gpu_wake_waiters, c->log, s.backend == VMAFHIP_BACKEND_HIP,
                                           kGpuStartAfter);
        return 0;
    }
    if (ret == 0 && (c->backend = make_hip_backend(c->metrics, s, c->log, &ret, msg)))
        return 0;
    if (s.backend == VMAFHIP_BACKEND_HIP || ret != -ENODEV)
        return ret;
    log_cpu_fallback(c->log, *msg);
    msg->clear();
    c->backend = make_cpu_backend(c->metrics, s.threads, s.queue_depth);
    return 0;
}

int open_context(VmafHipContext *c, std::string *msg)
{
    int ret = metrics_create(c->settings, c->log, &c->metrics, msg);
    if (ret < 0)
        return ret;
    // The caller's strings need only live until open returns.
    c->settings.features = nullptr;
    c->settings.models = nullptr;
    for (const auto &n : c->metrics.names)
        c->name_ptrs.push_back(n.c_str());
    for (const auto &n : c->metrics.aggregate_names)
        c->aggregate_name_ptrs.push_back(n.c_str());
    c->rows.set_width(c->metrics.names.size());
    c->accum.resize(c->metrics.accum_bytes);
    if ((ret = create_backend(c, msg)) < 0)
        return ret;
    c->lent = std::make_shared<LentPictures>(c->backend->host_memory(), c->metrics.g);
    return 0;
}

// Picture plane q must be readable: not NULL, rows of at least the stored
// width.
int check_plane(const Geometry &g, const VmafHipPicture *pic, const char *which, int q,
                std::string *msg)
{
    static const char *const plane_names[] = {"luma (Y)", "Cb", "Cr"};
    const char *const name = g.semi_planar() && q == 1 ? "interleaved Cb/Cr" : plane_names[q];
    const ptrdiff_t row = static_cast<ptrdiff_t>(g.stored_row(q)) * g.bytes_per_sample();
    if (!pic->data[q]) {
        *msg = strprintf("%s picture: %s plane pointer is NULL", which, name);
        return -EINVAL;
    }
    const ptrdiff_t stride = pic->stride[q] < 0 ? -pic->stride[q] : pic->stride[q];
    if (stride < row) {
        *msg = strprintf("%s picture: %s plane stride %td is smaller than a row of %td bytes "
                         "(%d samples of %d byte%s)",
                         which, name, pic->stride[q], row, g.stored_row(q), g.bytes_per_sample(),
                         g.bytes_per_sample() > 1 ? "s" : "");
        return -EINVAL;
    }
    if (g.bytes_per_sample() == 2 &&
        ((reinterpret_cast<uintptr_t>(pic->data[q]) | static_cast<uintptr_t>(stride)) & 1)) {
        *msg = strprintf("%s picture: %s plane pointer or stride is odd: %d-bit samples are "
                         "uint16 and must be 2-byte aligned",
                         which, name, g.bpc);
        return -EINVAL;
    }
    return 0;
}

// The oldest frame in flight: its accumulators, range check and finish.
int collect_one(VmafHipContext *c, bool wait)
{
    std::string err;
    const int ret = c->backend->collect(wait, c->accum.data(), &err);
    if (ret == -EAGAIN)
        return ret;
    if (ret < 0) {
        context_set_fatal(c, ret);
        return context_fail(c, ret, err);
    }
    const unsigned i = c->collected++;
    c->last_finish = std::chrono::steady_clock::now();
    Metrics &m = c->metrics;
    FrameHeader h;
    std::memcpy(&h, c->accum.data(), sizeof h);
    if (m.g.range_checked() && h.max_sample > m.g.max_sample()) {
        const std::string msg = strprintf("frame %u: sample value %u is above the %d-bit maximum %u",
                                          i, h.max_sample, m.g.bpc, m.g.max_sample());
        c->status[i] = -ERANGE;
        if (!m.temporal())
            return context_fail(c, 0, msg + ": this frame is not scored");
        // Motion compares neighbouring frames: their scores would depend on it.
        context_set_fatal(c, -ERANGE);
        return context_fail(c, -ERANGE, msg + ": the scores of the frames next to it depend on "
                                              "it (motion), so the stream cannot be scored");
    }
    metrics_finish(m, i, c->accum.data(), c->rows.row(i));
    c->status[i] = FRAME_PENDING;
    return 0;
}

// Frame `completed` gets its late features and model scores.
void complete_one(VmafHipContext *c)
{
    const unsigned i = c->completed++;
    if (c->status[i] != FRAME_PENDING)
        return; // an error stays
    metrics_complete(c->metrics, i, c->flushed ? c->submitted() : 0, c->rows.row(i));
    c->status[i] = c->metrics.scored(i) ? FRAME_DONE : FRAME_SKIPPED;
}

} // namespace

void log_cpu_fallback(const Logger &log, const std::string &why)
{
    log.log(VMAFHIP_LOG_WARNING, "no GPU backend: %s; scoring on the CPU instead\n", why.c_str());
}

void context_set_fatal(VmafHipContext *c, int err) noexcept
{
    c->fatal = err;
    // The caller may free the pictures it keeps for frames in flight once
    // their scores come back, with this error.
    if (c->backend)
        c->backend->abandon();
}

int context_fail(VmafHipContext *c, int ret, const std::string &msg)
{
    c->last_error = msg;
    c->log.log(VMAFHIP_LOG_ERROR, "%s\n", msg.c_str());
    return ret;
}

int context_out_of_memory(VmafHipContext *c, const char *during, bool fatal) noexcept
{
    if (fatal)
        context_set_fatal(c, -ENOMEM);
    try {
        return context_fail(c, -ENOMEM, std::string("out of host memory ") + during);
    } catch (const std::bad_alloc &) {
        c->last_error = "out of memory"; // fits the string's own buffer: no allocation
        return -ENOMEM;
    }
}

int context_complete_until(VmafHipContext *c, unsigned count, bool wait)
{
    const unsigned lookahead = static_cast<unsigned>(c->metrics.lookahead);
    while (c->completed < count) {
        if (c->fatal)
            return c->fatal;
        const unsigned i = c->completed;
        // Complete once the frames it reads are finished; after flush, the
        // last frames once every frame is.
        const bool ended = c->flushed && c->collected == c->submitted();
        if (i < c->collected && (ended || c->collected > i + lookahead)) {
            complete_one(c);
            continue;
        }
        if (c->collected == c->submitted())
            return -EAGAIN; // needs frames that were not submitted yet
        const int ret = collect_one(c, wait);
        if (ret < 0)
            return ret;
    }
    return 0;
}

int context_pool(const VmafHipContext *c, int feature, VmafHipPooled *out)
{
    double sum = 0, inv_sum = 0, lo = 0, hi = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < c->completed; i++) {
        if (c->status[i] != FRAME_DONE)
            continue;
        const double v = c->frame_values(i)[feature];
        lo = n ? (v < lo ? v : lo) : v;
        hi = n ? (v > hi ? v : hi) : v;
        sum += v;
        inv_sum += 1.0 / (v + 1.0);
        n++;
    }
    if (!n)
        return -EAGAIN;
    out->mean = sum / n;
    out->min = lo;
    out->max = hi;
    out->harmonic_mean = n / inv_sum - 1.0;
    return 0;
}

} // namespace vmafhip

using namespace vmafhip;

extern "C" const char *vmafhip_version(void)
{
#define VMAFHIP_STR2(x) #x
#define VMAFHIP_STR(x) VMAFHIP_STR2(x)
    return VMAFHIP_STR(VMAFHIP_API_VERSION_MAJOR) "." VMAFHIP_STR(
        VMAFHIP_API_VERSION_MINOR) "." VMAFHIP_STR(VMAFHIP_API_VERSION_PATCH);
}

extern "C" int vmafhip_device_count(void)
{
    return hip_device_count();
}

extern "C" int vmafhip_gpu_start(int device)
{
    std::string why;
    if (device < 0)
        return -EINVAL;
    const int ret = gpu_precheck(&why);
    if (ret == 0)
        gpu_start(device);
    return ret;
}

extern "C" int vmafhip_open(VmafHipContext **ctx, const VmafHipSettings *s)
{
    open_error.clear();
    if (!ctx)
        return -EINVAL;
    *ctx = nullptr;
    if (!s) {
        open_error = "settings are NULL: fill them with vmafhip_default_settings()";
        return -EINVAL;
    }
    VmafHipContext *c = new (std::nothrow) VmafHipContext;
    if (!c) {
        open_error = "out of memory";
        return -ENOMEM;
    }
    std::string msg;
    int ret;
    try {
        c->settings = *s;
        c->log = Logger(s->log_callback, s->log_cookie, settings_log_level(*s));
        ret = open_context(c, &msg);
    } catch (const std::bad_alloc &) {
        ret = -ENOMEM;
        msg = "out of host memory while creating the context";
    } catch (const std::system_error &e) {
        ret = -ENOMEM; // threads are a resource like memory: none left
        msg = std::string("cannot start the context's CPU threads: ") + e.what();
    }
    if (ret < 0) {
        context_fail(c, ret, msg);
        open_error = msg;
        delete c;
        return ret;
    }
    c->log.log(VMAFHIP_LOG_DEBUG, "scoring %dx%d %d-bit on %s\n", s->width, s->height,
               s->bitdepth, c->backend->name().c_str());
    *ctx = c;
    return 0;
}

extern "C" void vmafhip_close(VmafHipContext **ctx)
{
    if (!ctx || !*ctx)
        return;
    delete *ctx;
    *ctx = nullptr;
}

namespace {

// vmafhip_submit() and vmafhip_submit_kept().
int submit_pair(VmafHipContext *c, const VmafHipPicture *dis, const VmafHipPicture *ref, bool kept)
{
    if (!c)
        return -EINVAL;
    if (c->fatal)
        return c->fatal;
    if (c->flushed)
        return context_fail(c, -EINVAL, "submit after flush: the stream has ended; open a new "
                                         "context for another stream");
    if (!dis || !ref)
        return context_fail(c, -EINVAL, "submit: picture is NULL");
    const Geometry &g = c->metrics.g;
    const int planes = g.picture_planes(c->metrics.planes);
    std::string msg;
    int ret;
    for (int p = 0; p < planes; p++)
        if ((ret = check_plane(g, dis, "distorted", p, &msg)) < 0 ||
            (ret = check_plane(g, ref, "reference", p, &msg)) < 0)
            return context_fail(c, ret, msg);
    if (c->submitted() >= 0x7fffffffu)
        return context_fail(c, -ERANGE, "more than 2^31 - 1 frames submitted");
    return context_guard(c, "while submitting a frame", [&] {
        // Make room: at most depth() frames in flight.
        while (c->submitted() - c->collected >= static_cast<unsigned>(c->backend->depth()))
            if ((ret = collect_one(c, true)) < 0)
                return ret;
        FrameView f;
        f.index = c->submitted();
        for (int p = 0; p < planes; p++) {
            const PlaneView base{nullptr, 0, g.scored_row(p), g.scored_h(p)};
            f.dis[p] = base;
            f.dis[p].data = static_cast<const uint8_t *>(dis->data[p]);
            f.dis[p].stride = dis->stride[p];
            f.ref[p] = base;
            f.ref[p].data = static_cast<const uint8_t *>(ref->data[p]);
            f.ref[p].stride = ref->stride[p];
        }
        // Lent pictures are copied asynchronously; their blocks get fences.
        void *const fence[2] = {c->lent->fence_of(*ref, planes), c->lent->fence_of(*dis, planes)};
        if (!c->submitted())
            c->first_submit = std::chrono::steady_clock::now();
        c->rows.add();
        c->status.push_back(FRAME_IN_FLIGHT);
        const bool scored = c->metrics.scored(f.index);
        ret = kept ? c->backend->submit_kept(f, scored, fence, &msg)
                   : c->backend->submit(f, scored, fence, &msg);
        if (ret < 0) {
            c->status.back() = ret;
            context_set_fatal(c, ret);
            return context_fail(c, ret, msg);
        }
        return static_cast<int>(c->submitted() - 1);
    });
}

} // namespace

extern "C" int vmafhip_submit(VmafHipContext *c, const VmafHipPicture *dis,
                              const VmafHipPicture *ref)
{
    return submit_pair(c, dis, ref, false);
}

extern "C" int vmafhip_submit_kept(VmafHipContext *c, const VmafHipPicture *dis,
                                   const VmafHipPicture *ref)
{
    return submit_pair(c, dis, ref, true);
}

extern "C" int vmafhip_picture_borrow(VmafHipContext *c, int align, VmafHipLentPicture *pic)
{
    if (!c || !pic)
        return -EINVAL;
    // Nothing is logged: the borrower may be another thread than the one
    // that uses the context, and the codes say all.
    try {
        return c->lent->borrow(align, pic);
    } catch (const std::bad_alloc &) {
        return -ENOMEM;
    }
}

extern "C" void vmafhip_picture_release(void *handle)
{
    LentPictures::release(handle);
}

extern "C" int vmafhip_feature_names(VmafHipContext *c, const char *const **names)
{
    if (!c || !names)
        return -EINVAL;
    *names = c->name_ptrs.data();
    return static_cast<int>(c->name_ptrs.size());
}

extern "C" int vmafhip_frame_scores(VmafHipContext *c, unsigned index, int wait,
                                    const double **values)
{
    if (!c || !values)
        return -EINVAL;
    *values = nullptr;
    if (index >= c->submitted())
        return context_fail(c, -EINVAL, strprintf("no frame %u: %u frames were submitted", index,
                                                  c->submitted()));
    return context_guard(c, "while completing frames", [&] {
        const int ret = context_complete_until(c, index + 1, wait != 0);
        if (ret < 0)
            return ret;
        const int st = c->status[index];
        if (st == FRAME_DONE)
            *values = c->frame_values(index);
        return st;
    });
}

extern "C" int vmafhip_flush(VmafHipContext *c)
{
    if (!c)
        return -EINVAL;
    if (!c->flushed) {
        c->flushed = true;
        const int ret = context_guard(c, "while finishing the stream", [&] {
            const int r = context_complete_until(c, c->submitted(), true);
            if (r < 0)
                return r;
            c->aggregate_values.assign(c->metrics.aggregate_names.size(), 0.0);
            metrics_aggregate(c->metrics, c->aggregate_values.data());
            c->aggregates_ready = true;
            // How much memory the lent pictures took (pinned on the GPU,
            // where it costs time to allocate): what queue_depth and the
            // caller's own queues hold in flight.
            size_t blocks = 0, bytes = 0;
            c->lent->usage(&blocks, &bytes);
            if (blocks)
                c->log.log(VMAFHIP_LOG_DEBUG, "%u frames; lent pictures in %zu blocks, %zu MiB\n",
                           c->submitted(), blocks, bytes >> 20);
            return 0;
        });
        if (ret < 0)
            return ret;
    }
    if (c->fatal)
        return c->fatal;
    for (int s : c->status)
        if (s < 0)
            return s;
    return 0;
}

extern "C" int vmafhip_aggregate_scores(VmafHipContext *c, const char *const **names,
                                        const double **values)
{
    if (!c || !names || !values)
        return -EINVAL;
    if (!c->aggregates_ready)
        return context_fail(c, -EAGAIN, "aggregates exist after vmafhip_flush() only");
    *names = c->aggregate_name_ptrs.data();
    *values = c->aggregate_values.data();
    return static_cast<int>(c->aggregate_name_ptrs.size());
}

extern "C" int vmafhip_pooled(VmafHipContext *c, int feature, VmafHipPooled *out)
{
    if (!c || !out)
        return -EINVAL;
    if (feature < 0 || feature >= static_cast<int>(c->name_ptrs.size()))
        return context_fail(c, -EINVAL, strprintf("feature index %d is not valid: there are %zu",
                                                  feature, c->name_ptrs.size()));
    // Frames that wait for frames not submitted yet are not pooled.
    return context_guard(c, "while pooling", [&] {
        const int ret = context_complete_until(c, c->submitted(), true);
        if (ret < 0 && ret != -EAGAIN)
            return ret;
        return context_pool(c, feature, out);
    });
}

extern "C" int vmafhip_model_count(VmafHipContext *c)
{
    return c ? static_cast<int>(c->metrics.models.size()) : 0;
}

extern "C" int vmafhip_model_info(VmafHipContext *c, int index, const char **source, int *feature)
{
    if (!c || index < 0 || index >= vmafhip_model_count(c))
        return -EINVAL;
    const ModelSlot &s = c->metrics.models[static_cast<size_t>(index)];
    if (source)
        *source = s.source.c_str();
    if (feature)
        *feature = static_cast<int>(s.outputs) + s.model->main_output();
    return 0;
}

extern "C" int vmafhip_planes_read(VmafHipContext *c)
{
    return c ? c->metrics.g.picture_planes(c->metrics.planes) : -EINVAL;
}

extern "C" unsigned vmafhip_frame_count(VmafHipContext *c)
{
    return c ? c->submitted() : 0;
}

extern "C" const char *vmafhip_backend_name(VmafHipContext *c)
{
    return c ? c->backend->name().c_str() : "";
}

extern "C" const char *vmafhip_last_error(VmafHipContext *c)
{
    return c ? c->last_error.c_str() : open_error.c_str();
}
