// Context lifetime, frame submission and the shared finishing of scores.
#include "core/context.h"

#include <cerrno>
#include <cstring>
#include <new>

#include "core/metrics.h"
#include "core/options.h"

namespace vmafhip {

namespace {

thread_local std::string open_error;

int create_metrics(VmafHipContext *c, std::string *msg)
{
    const int ret = metrics_create(c->settings, &c->metrics, &c->names, &c->aggregate_names, msg);
    if (ret < 0)
        return ret;
    for (const auto &n : c->names)
        c->name_ptrs.push_back(n.c_str());
    for (const auto &n : c->aggregate_names)
        c->aggregate_name_ptrs.push_back(n.c_str());
    return 0;
}

int create_backend(VmafHipContext *c, std::string *msg)
{
    const VmafHipSettings &s = c->settings;
    if (s.backend == VMAFHIP_BACKEND_CPU) {
        c->backend = make_cpu_backend(c->metrics, s.threads, s.queue_depth);
        return 0;
    }
    int ret = 0;
    c->backend = make_hip_backend(c->metrics, s, c->log, &ret, msg);
    if (c->backend)
        return 0;
    if (s.backend == VMAFHIP_BACKEND_HIP || ret != -ENODEV)
        return ret;
    c->log.log(VMAFHIP_LOG_WARNING, "no GPU backend: %s; scoring on the CPU instead\n", msg->c_str());
    msg->clear();
    c->backend = make_cpu_backend(c->metrics, s.threads, s.queue_depth);
    return 0;
}

// Plane p must be readable: not NULL, rows of at least the stored width.
int check_plane(const Geometry &g, const VmafHipPicture *pic, const char *which, int p,
                std::string *msg)
{
    static const char *const plane_names[] = {"luma (Y)", "Cb", "Cr"};
    const ptrdiff_t row = static_cast<ptrdiff_t>(g.stored_w(p)) * g.bytes_per_sample();
    if (!pic->data[p]) {
        *msg = strprintf("%s picture: %s plane pointer is NULL", which, plane_names[p]);
        return -EINVAL;
    }
    const ptrdiff_t stride = pic->stride[p] < 0 ? -pic->stride[p] : pic->stride[p];
    if (stride < row) {
        *msg = strprintf("%s picture: %s plane stride %td is smaller than a row of %td bytes "
                         "(%d samples of %d byte%s)",
                         which, plane_names[p], pic->stride[p], row, g.stored_w(p),
                         g.bytes_per_sample(), g.bytes_per_sample() > 1 ? "s" : "");
        return -EINVAL;
    }
    if (g.bytes_per_sample() == 2 &&
        ((reinterpret_cast<uintptr_t>(pic->data[p]) | static_cast<uintptr_t>(stride)) & 1)) {
        *msg = strprintf("%s picture: %s plane pointer or stride is odd: %d-bit samples are "
                         "uint16 and must be 2-byte aligned",
                         which, plane_names[p], g.bpc);
        return -EINVAL;
    }
    return 0;
}

void finish_frame(VmafHipContext *c, unsigned index, const FrameAccum &a)
{
    Metrics &m = c->metrics;
    if (m.g.range_checked() && a.max_sample > m.g.max_sample()) {
        c->status[index] = -ERANGE;
        context_fail(c, -ERANGE,
                     strprintf("frame %u: sample value %u is above the %d-bit maximum %u: "
                               "this frame is not scored",
                               index, a.max_sample, m.g.bpc, m.g.max_sample()));
        return;
    }
    metrics_finish(m, a, c->values.data() + index * c->names.size());
    c->status[index] = 0;
}

} // namespace

int context_fail(VmafHipContext *c, int ret, const std::string &msg)
{
    c->last_error = msg;
    c->log.log(VMAFHIP_LOG_ERROR, "%s\n", msg.c_str());
    return ret;
}

int context_finish_until(VmafHipContext *c, unsigned index, bool wait)
{
    while (c->finished <= index && c->finished < c->submitted()) {
        if (c->fatal)
            return c->fatal;
        FrameAccum a;
        std::string err;
        const int ret = c->backend->collect(wait, &a, &err);
        if (ret == -EAGAIN)
            return ret;
        if (ret < 0) {
            c->fatal = ret;
            return context_fail(c, ret, err);
        }
        finish_frame(c, c->finished, a);
        c->finished++;
        c->last_finish = std::chrono::steady_clock::now();
    }
    return 0;
}

int context_pool(const VmafHipContext *c, int feature, VmafHipPooled *out)
{
    const size_t n_names = c->names.size();
    double sum = 0, inv_sum = 0, lo = 0, hi = 0;
    unsigned n = 0;
    for (unsigned i = 0; i < c->finished; i++) {
        if (c->status[i])
            continue;
        const double v = c->values[i * n_names + feature];
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
        if ((ret = create_metrics(c, &msg)) >= 0)
            ret = create_backend(c, &msg);
    } catch (const std::bad_alloc &) {
        ret = -ENOMEM;
        msg = "out of host memory while creating the context";
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

extern "C" int vmafhip_submit(VmafHipContext *c, const VmafHipPicture *dis,
                              const VmafHipPicture *ref)
{
    if (!c)
        return -EINVAL;
    if (c->fatal)
        return c->fatal;
    if (!dis || !ref)
        return context_fail(c, -EINVAL, "submit: picture is NULL");
    const Geometry &g = c->metrics.g;
    const int planes = c->metrics.chroma_planes_read();
    std::string msg;
    int ret;
    for (int p = 0; p < planes; p++)
        if ((ret = check_plane(g, dis, "distorted", p, &msg)) < 0 ||
            (ret = check_plane(g, ref, "reference", p, &msg)) < 0)
            return context_fail(c, ret, msg);
    if (c->submitted() >= 0x7fffffffu)
        return context_fail(c, -ERANGE, "more than 2^31 - 1 frames submitted");
    try {
        // Make room: at most depth() frames in flight.
        if (c->submitted() - c->finished >= static_cast<unsigned>(c->backend->depth()) &&
            (ret = context_finish_until(c, c->finished, true)) < 0)
            return ret;
        FrameView f;
        for (int p = 0; p < planes; p++) {
            const PlaneView base{nullptr, 0, g.scored_w(p), g.scored_h(p)};
            f.dis[p] = base;
            f.dis[p].data = static_cast<const uint8_t *>(dis->data[p]);
            f.dis[p].stride = dis->stride[p];
            f.ref[p] = base;
            f.ref[p].data = static_cast<const uint8_t *>(ref->data[p]);
            f.ref[p].stride = ref->stride[p];
        }
        if (!c->submitted())
            c->first_submit = std::chrono::steady_clock::now();
        c->values.resize(c->values.size() + c->names.size());
        c->status.push_back(1);
        c->aggregates_ready = false;
        if ((ret = c->backend->submit(f, &msg)) < 0) {
            c->status.back() = ret;
            c->finished = c->submitted();
            c->fatal = ret;
            return context_fail(c, ret, msg);
        }
    } catch (const std::bad_alloc &) {
        c->fatal = -ENOMEM;
        return context_fail(c, -ENOMEM, "out of host memory while storing results");
    }
    return static_cast<int>(c->submitted() - 1);
}

extern "C" int vmafhip_feature_names(VmafHipContext *c, const char *const **names)
{
    if (!c || !names)
        return -EINVAL;
    *names = c->name_ptrs.data();
    return static_cast<int>(c->names.size());
}

extern "C" int vmafhip_frame_scores(VmafHipContext *c, unsigned index, int wait,
                                    const double **values)
{
    if (!c || !values)
        return -EINVAL;
    if (index >= c->submitted())
        return context_fail(c, -EINVAL, strprintf("no frame %u: %u frames were submitted", index,
                                                  c->submitted()));
    const int ret = context_finish_until(c, index, wait != 0);
    if (ret < 0)
        return ret;
    *values = c->frame_values(index);
    return c->status[index];
}

extern "C" int vmafhip_flush(VmafHipContext *c)
{
    if (!c)
        return -EINVAL;
    if (c->submitted()) {
        const int ret = context_finish_until(c, c->submitted() - 1, true);
        if (ret < 0)
            return ret;
    }
    c->aggregate_values.assign(c->aggregate_names.size(), 0.0);
    if (c->metrics.psnr && !c->aggregate_names.empty())
        c->metrics.psnr->aggregate(c->aggregate_values.data());
    c->aggregates_ready = true;
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
    return static_cast<int>(c->aggregate_names.size());
}

extern "C" int vmafhip_pooled(VmafHipContext *c, int feature, VmafHipPooled *out)
{
    if (!c || !out)
        return -EINVAL;
    if (feature < 0 || feature >= static_cast<int>(c->names.size()))
        return context_fail(c, -EINVAL, strprintf("feature index %d is not valid: there are %zu",
                                                  feature, c->names.size()));
    if (c->submitted()) {
        const int ret = context_finish_until(c, c->submitted() - 1, true);
        if (ret < 0)
            return ret;
    }
    return context_pool(c, feature, out);
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
