/*
 * Copyright (c) 2026 The vmafhip authors
 *
 * SPDX-License-Identifier: BSD-2-Clause-Patent
 * (GPL- and LGPL-compatible; see the vmafhip project for the full text.)
 */

/**
 * @file
 * Calculate VMAF and libvmaf's other quality metrics between two video
 * streams with the vmafhip library, on a GPU through HIP or on the CPU, and
 * attach them to each frame of the first stream. The options are those of
 * FFmpeg's libvmaf filter (model, feature, log_path, log_fmt, pool,
 * n_threads, n_subsample), so the two are interchangeable, plus backend,
 * device and queue_depth.
 *
 * The library scores asynchronously: a submitted frame pair gets an index at
 * once and its scores later, and motion (so every VMAF model) completes a
 * frame's scores only once the next frame is scored. Main frames wait in a
 * queue with their index and leave in order as soon as their scores are
 * complete; in the activate call in which framesync signals EOF on the
 * output, the library's stream is ended and everything still queued leaves
 * (lavfi hands the consumer the frames queued on a link before the link's
 * status, so no frame is lost).
 */

#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include <vmafhip.h>

#include "libavutil/avstring.h"
#include "libavutil/cpu.h"
#include "libavutil/dict.h"
#include "libavutil/fifo.h"
#include "libavutil/file_open.h"
#include "libavutil/mem.h"
#include "libavutil/opt.h"
#include "libavutil/pixdesc.h"
#include "libavutil/timestamp.h"
#include "avfilter.h"
#include "filters.h"
#include "formats.h"
#include "framesync.h"

/** How the "VMAF score" line pools the frames (pool option). */
enum PoolMethod { POOL_MEAN, POOL_MIN, POOL_MAX, POOL_HARMONIC_MEAN };

/** A main frame waiting for its scores. */
typedef struct PendingFrame {
    AVFrame *frame;
    AVFrame *ref;              ///< its reference frame; both are kept for the library
                               ///< (vmafhip_submit_kept) until the scores are read
    int index;                 ///< library frame index, or -1: passed through unscored
                               ///< (no reference), -2: the stream broke at this frame
} PendingFrame;

typedef struct LIBVMAFHIPContext {
    const AVClass *class;
    FFFrameSync fs;

    /* FFmpeg's libvmaf filter options, same names, syntax and defaults */
    char *model_cfg;           ///< models, '|'-separated (default version=vmaf_v0.6.1)
    char *feature_cfg;         ///< features besides the models' (default psnr, float_ssim)
    char *log_path;            ///< log file written at uninit (default none)
    char *log_fmt;             ///< xml (default), json, csv or sub
    char *pool;                ///< pooling of the VMAF score line: mean (default), min, max, harmonic_mean
    int n_threads;             ///< CPU threads; 0 = the filter's threads option (default 0)
    int n_subsample;           ///< score every n-th frame (default 1)

    /* ours */
    int backend;               ///< enum VmafHipBackend (default auto)
    int device;                ///< GPU index (default 0)
    int queue_depth;           ///< frames in flight, 0 = automatic (default 0)
    int gpu_wait;              ///< open waits for the GPU; every frame scored there
    int share_ref;             ///< copy a reference frame another instance has on the GPU from there

    enum VmafHipLogFormat log_format; ///< log_fmt, parsed in init
    enum PoolMethod pool_method; ///< pool, parsed in init

    VmafHipContext *vh;        ///< created in config_output
    int width, height;         ///< the frame size the library was opened for
    enum AVPixelFormat format; ///< and the pixel format
    int nb_planes;             ///< planes handed to the library: 1 (gray), 2 (semi-planar) or 3
    AVFifo *pending;           ///< PendingFrame, oldest first
    unsigned max_pending;      ///< wait for the oldest frame beyond this many
    int flushed;               ///< the library's stream has ended
    int broken;                ///< the library cannot score this stream any more (a sample
                               ///< above the bit depth's maximum with motion)
    int fail_err;              ///< the error the output ends with, once the frames sent are taken
    int broken_reported;       ///< the output has ended with fail_err
    unsigned ended_checked;    ///< inputs whose end made us look for a broken stream (bit mask)
    int64_t last_pts;          ///< pts of the last frame sent downstream
    uint64_t nb_events;        ///< main frames framesync has handed us
    uint64_t nb_sent;          ///< frames sent downstream
    int lib_error_logged;      ///< the library logged an error since the last check
    int log_written;           ///< log_path has been written (or failed) at the end of the stream

    uint64_t nb_in[2];         ///< frames of each input seen (taken or queued)
    uint64_t nb_repeated[2];   ///< events with the last frame of an input that has ended
    int64_t last_in_pts[2];    ///< framesync's pts of each input at the last event
    int in_ended[2];           ///< the input was seen ending by itself
    int out_ended;             ///< the output has ended: later input ends are ours, not theirs

    uint64_t nb_scored;        ///< frame pairs submitted
    uint64_t nb_no_ref;        ///< main frames without a reference frame
    uint64_t nb_pts_mismatch;  ///< pairs whose timestamps differ
    int rounding_warned;       ///< a pair looked like one of differently rounded timestamps
    uint64_t nb_range_errors;  ///< frames the library refused to score
    uint64_t nb_unscored;      ///< frames passed unscored because the stream broke
    uint64_t nb_lent;          ///< frames earlier filters allocated in memory the library lent
    int range_warned;
} LIBVMAFHIPContext;

#define OFFSET(x) offsetof(LIBVMAFHIPContext, x)
#define FLAGS AV_OPT_FLAG_FILTERING_PARAM | AV_OPT_FLAG_VIDEO_PARAM

static const AVOption libvmaf_hip_options[] = {
    { "model", "set the VMAF models: version=NAME or path=FILE, with :name=, :enable_transform=, :disable_clip=, :FEATURE.OPTION=, '|'-separated", OFFSET(model_cfg), AV_OPT_TYPE_STRING, { .str = "version=vmaf_v0.6.1" }, 0, 0, FLAGS },
    { "feature", "set the features to compute besides the models': name=NAME:OPTION=VALUE, '|'-separated (empty: none)", OFFSET(feature_cfg), AV_OPT_TYPE_STRING, { .str = "name=psnr|name=float_ssim" }, 0, 0, FLAGS },
    { "log_path", "write every frame's scores and the pooled scores to this file at the end", OFFSET(log_path), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "log_fmt", "set the log format: xml, json, csv or sub", OFFSET(log_fmt), AV_OPT_TYPE_STRING, { .str = "xml" }, 0, 0, FLAGS },
    { "pool", "set the pooling of the VMAF score line: mean, min, max or harmonic_mean", OFFSET(pool), AV_OPT_TYPE_STRING, { .str = NULL }, 0, 0, FLAGS },
    { "n_threads", "set the CPU threads of the CPU backend (0: the threads option)", OFFSET(n_threads), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 1024, FLAGS },
    { "n_subsample", "score every n-th frame only", OFFSET(n_subsample), AV_OPT_TYPE_INT, { .i64 = 1 }, 1, INT_MAX, FLAGS },
    { "backend", "set where the metrics are computed", OFFSET(backend), AV_OPT_TYPE_INT, { .i64 = VMAFHIP_BACKEND_AUTO }, VMAFHIP_BACKEND_AUTO, VMAFHIP_BACKEND_HIP, FLAGS, .unit = "backend" },
        { "auto", "the GPU if there is one, else the CPU", 0, AV_OPT_TYPE_CONST, { .i64 = VMAFHIP_BACKEND_AUTO }, 0, 0, FLAGS, .unit = "backend" },
        { "cpu",  "the CPU reference",                     0, AV_OPT_TYPE_CONST, { .i64 = VMAFHIP_BACKEND_CPU },  0, 0, FLAGS, .unit = "backend" },
        { "hip",  "the GPU; fail if there is none",        0, AV_OPT_TYPE_CONST, { .i64 = VMAFHIP_BACKEND_HIP },  0, 0, FLAGS, .unit = "backend" },
    { "device", "set the GPU index", OFFSET(device), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, INT_MAX, FLAGS },
    { "queue_depth", "set the frames in flight (0: automatic)", OFFSET(queue_depth), AV_OPT_TYPE_INT, { .i64 = 0 }, 0, 16, FLAGS },
    { "gpu_wait", "wait for the GPU to start and score every frame on it (0: the CPU scores the frames that arrive while the GPU starts)", OFFSET(gpu_wait), AV_OPT_TYPE_BOOL, { .i64 = 0 }, 0, 1, FLAGS },
    { "share_ref", "on the GPU, copy a reference frame that another libvmaf_hip filter has copied to the same GPU (after split) from there, not from system memory again", OFFSET(share_ref), AV_OPT_TYPE_BOOL, { .i64 = 1 }, 0, 1, FLAGS },
    { NULL }
};

/* Indexed by enum VmafHipLogFormat and enum PoolMethod. */
static const char *const log_formats[] = { "json", "csv", "xml", "sub" };
static const char *const pool_methods[] = { "mean", "min", "max", "harmonic_mean" };

static double pooled_value(const VmafHipPooled *p, enum PoolMethod method)
{
    switch (method) {
    case POOL_MIN:           return p->min;
    case POOL_MAX:           return p->max;
    case POOL_HARMONIC_MEAN: return p->harmonic_mean;
    default:                 return p->mean;
    }
}

/** Index of value in names[n], or an error naming the option and the accepted values. */
static int find_name(AVFilterContext *ctx, const char *option, const char *value,
                     const char *const *names, int n)
{
    char accepted[128] = "";

    for (int i = 0; i < n; i++) {
        if (!strcmp(value, names[i]))
            return i;
        av_strlcatf(accepted, sizeof(accepted), "%s%s", i ? ", " : "", names[i]);
    }
    av_log(ctx, AV_LOG_ERROR, "%s '%s' is not valid: accepted are %s\n",
           option, value, accepted);
    return AVERROR(EINVAL);
}

FRAMESYNC_DEFINE_CLASS(libvmaf_hip, LIBVMAFHIPContext, fs);

static void log_callback(void *cookie, enum VmafHipLogLevel level,
                         const char *fmt, va_list vl)
{
    static const int av_level[] = {
        [VMAFHIP_LOG_ERROR]   = AV_LOG_ERROR,
        [VMAFHIP_LOG_WARNING] = AV_LOG_WARNING,
        [VMAFHIP_LOG_INFO]    = AV_LOG_INFO,
        [VMAFHIP_LOG_DEBUG]   = AV_LOG_DEBUG,
    };
    AVFilterContext *ctx = cookie;
    LIBVMAFHIPContext *s = ctx->priv;

    if (level <= VMAFHIP_LOG_ERROR)
        s->lib_error_logged = 1;
    av_vlog(ctx, (unsigned)level <= VMAFHIP_LOG_DEBUG ? av_level[level] : AV_LOG_DEBUG,
            fmt, vl);
}

/**
 * Report a failed library call. The library returns negative errno values,
 * the same convention as AVERROR(), so err is returned unchanged. Its own
 * message has normally gone through log_callback already; otherwise it is
 * added here.
 */
static int lib_error(AVFilterContext *ctx, int err, const char *what)
{
    LIBVMAFHIPContext *s = ctx->priv;
    const char *msg = vmafhip_last_error(s->vh);

    if (s->lib_error_logged || !msg || !*msg)
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", what, vmafhip_strerror(err));
    else
        av_log(ctx, AV_LOG_ERROR, "%s: %s\n", what, msg);
    s->lib_error_logged = 0;
    return err;
}

/**
 * Whether the library's stream is broken: with motion (every VMAF model) a
 * sample above the bit depth's maximum makes the frames next to it, so the
 * stream, unscorable, and every later call fails with -ERANGE. Without motion
 * only that frame is refused and the stream goes on. Waits for the frames in
 * flight: asked after a call returned -ERANGE and when an input ends.
 */
static int stream_broken(LIBVMAFHIPContext *s)
{
    VmafHipPooled pooled;

    if (!s->broken && s->vh && vmafhip_pooled(s->vh, 0, &pooled) == AVERROR(ERANGE))
        s->broken = 1;
    return s->broken;
}

static int set_meta(AVDictionary **metadata, const char *name, double value)
{
    char key[128], buf[64];

    snprintf(key, sizeof(key), "lavfi.libvmaf_hip.%s", name);
    snprintf(buf, sizeof(buf), "%.6f", value);
    return av_dict_set(metadata, key, buf, 0);
}

/**
 * Send the queued main frames whose scores are complete downstream, oldest
 * first, with the scores as metadata. With wait (end of stream), or when
 * more than max_pending frames are queued, wait for the scores; a frame
 * whose scores need frames not submitted yet (motion reads the next frame)
 * stays until they are.
 */
static int output_frames(AVFilterContext *ctx, int wait)
{
    LIBVMAFHIPContext *s = ctx->priv;
    const char *const *names = NULL;
    int nb_names = s->vh ? vmafhip_feature_names(s->vh, &names) : 0;
    PendingFrame pf;
    int ret;

    while (av_fifo_peek(s->pending, &pf, 1, 0) >= 0) {
        const double *values = NULL;
        int block = wait || av_fifo_can_read(s->pending) > s->max_pending;

        ret = 0;
        if (pf.index == -2)
            s->nb_unscored++;
        if (pf.index >= 0) {
            ret = vmafhip_frame_scores(s->vh, pf.index, block, &values);
            if (ret == AVERROR(EAGAIN))
                return 0;
        }
        av_fifo_drain2(s->pending, 1);
        av_frame_free(&pf.ref); /* the library reads it no more */

        if (ret == VMAFHIP_FRAME_SKIPPED) {
            /* n_subsample leaves this frame out: it goes on without scores. */
        } else if (ret == AVERROR(ERANGE)) {
            /* The library refused this frame (samples above the bit depth's
               maximum, or the stream broke on such a frame) and said why; the
               frame goes on without scores. */
            if (stream_broken(s))
                s->nb_unscored++;
            else
                s->nb_range_errors++;
            s->lib_error_logged = 0;
        } else if (ret < 0) {
            av_frame_free(&pf.frame);
            return lib_error(ctx, ret, "Could not get the scores of a frame pair");
        } else if (values) {
            for (int i = 0; i < nb_names; i++) {
                ret = set_meta(&pf.frame->metadata, names[i], values[i]);
                if (ret < 0) {
                    av_frame_free(&pf.frame);
                    return ret;
                }
            }
        }

        s->last_pts = pf.frame->pts;
        s->nb_sent++;
        ret = ff_filter_frame(ctx->outputs[0], pf.frame);
        if (ret < 0)
            return ret;
    }
    return 0;
}

/** Whether every input has ended: no request will come for more frames. */
static int inputs_ended(AVFilterContext *ctx)
{
    for (int i = 0; i < ctx->nb_inputs; i++)
        if (!ff_outlink_get_status(ctx->inputs[i]))
            return 0;
    return 1;
}

/**
 * The library cannot score the stream any more: send every queued frame on
 * (with its scores if they were complete before, else without), and end the
 * output with the error once downstream asks for the next frame, that is,
 * once it has taken these (ffmpeg stops reading its outputs at an error, so
 * frames sent in the same step as the error would be lost). When every input
 * has ended already, no request would come (and FFmpeg 7.1 aborts on a graph
 * that waits with its inputs ended): end it at once; frames still between
 * this filter and ffmpeg's output may then be lost.
 */
static int fail_stream(AVFilterContext *ctx, int err)
{
    LIBVMAFHIPContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];

    s->broken = 1;
    if (!s->fail_err) {
        int ret;

        s->fail_err = err;
        av_log(ctx, AV_LOG_ERROR, "Scoring failed: %s\n", av_err2str(err));
        ret = output_frames(ctx, 1);
        if (ret < 0 || !inputs_ended(ctx))
            return ret;
    }
    if (!s->broken_reported && (ff_outlink_frame_wanted(outlink) || inputs_ended(ctx))) {
        s->broken_reported = 1;
        ff_outlink_set_status(outlink, s->fail_err, s->last_pts);
        for (int i = 0; i < ctx->nb_inputs; i++)
            ff_inlink_set_status(ctx->inputs[i], AVERROR_EOF);
    }
    return 0;
}

/**
 * Free the frames waiting for their scores. The library may still read those
 * in flight (kept for it) until their scores are read or its stream has
 * ended: it is ended first (the outcome is read again at uninit).
 */
static void free_pending(LIBVMAFHIPContext *s)
{
    PendingFrame pf;

    for (size_t i = 0; s->vh && !s->flushed && s->pending &&
                       av_fifo_peek(s->pending, &pf, 1, i) >= 0; i++) {
        if (pf.ref) {
            s->flushed = 1;
            vmafhip_flush(s->vh);
        }
    }
    while (s->pending && av_fifo_read(s->pending, &pf, 1) >= 0) {
        av_frame_free(&pf.frame);
        av_frame_free(&pf.ref);
    }
}

static int submit(AVFilterContext *ctx, const AVFrame *dist, const AVFrame *ref)
{
    LIBVMAFHIPContext *s = ctx->priv;
    VmafHipPicture d = { { NULL } }, r = { { NULL } };
    int ret;

    /* A filter before this one may change the size on the fly (scale with
       eval=frame; ffmpeg with -reinit_filter 0): the library would read
       such a frame as one of the size it was opened for. */
    for (int i = 0; i < 2; i++) {
        const AVFrame *f = i ? ref : dist;

        if (f->width != s->width || f->height != s->height || f->format != s->format) {
            av_log(ctx, AV_LOG_ERROR, "The %s input changed to %dx%d %s at frame pair %"
                   PRIu64 ", but the stream started at %dx%d %s: one size and pixel format "
                   "are scored per stream (put scale=%d:%d,format=%s before the filter to "
                   "keep them)\n", i ? "reference" : "main", f->width, f->height,
                   av_get_pix_fmt_name(f->format), s->nb_events - 1, s->width, s->height,
                   av_get_pix_fmt_name(s->format), s->width, s->height,
                   av_get_pix_fmt_name(s->format));
            return AVERROR(EINVAL);
        }
    }

    for (int p = 0; p < s->nb_planes; p++) {
        d.data[p]   = dist->data[p];
        d.stride[p] = dist->linesize[p];
        r.data[p]   = ref->data[p];
        r.stride[p] = ref->linesize[p];
    }
    /* The frames are kept (pending) until their scores are read: the copy
       can leave this thread. */
    ret = vmafhip_submit_kept(s->vh, &d, &r);
    if (ret == AVERROR(ERANGE))
        s->broken = 1;
    if (ret < 0)
        return lib_error(ctx, ret, "Could not score a frame pair");
    s->nb_scored++;
    return ret;
}

/**
 * Whether the main frame was paired with a reference frame although the next
 * reference frame comes less than a tenth of a frame after it: timestamps
 * rounded differently (Matroska's milliseconds against MP4's exact ticks)
 * pair frame 1 with frame 0 under the default ts_sync_mode, which takes the
 * last reference frame not later than the main frame.
 */
static int paired_by_rounding(const FFFrameSync *fs)
{
    const FFFrameSyncIn *dis = &fs->in[0], *ref = &fs->in[1];

    return ref->have_next && ref->pts_next != INT64_MAX && ref->pts_next != AV_NOPTS_VALUE &&
           ref->pts != AV_NOPTS_VALUE && ref->pts < dis->pts && dis->pts < ref->pts_next &&
           (ref->pts_next - dis->pts) * 10 < ref->pts_next - ref->pts;
}

static int do_vmafhip(FFFrameSync *fs)
{
    AVFilterContext *ctx = fs->parent;
    LIBVMAFHIPContext *s = ctx->priv;
    AVFrame *dist, *ref;
    PendingFrame pf;
    int repeated[2], ret;

    ret = ff_framesync_dualinput_get(fs, &dist, &ref);
    if (ret < 0)
        return ret;
    s->nb_events++;

    /* An input that has ended takes part with its last frame (repeatlast,
       eof_action=repeat): counted for the lengths warning, not as a pair with
       different timestamps. */
    for (int i = 0; i < 2; i++) {
        repeated[i] = s->nb_events > 1 && (i == 0 || ref) && fs->in[i].pts == s->last_in_pts[i] &&
                      ff_outlink_get_status(ctx->inputs[i]) && !ff_inlink_queued_frames(ctx->inputs[i]);
        s->nb_repeated[i] += repeated[i];
        s->last_in_pts[i] = fs->in[i].pts;
    }

    pf.frame = dist;
    pf.ref = NULL;
    pf.index = -1;
    /* Room first: a frame in flight can no longer be dropped. */
    if (!av_fifo_can_write(s->pending) && (ret = av_fifo_grow2(s->pending, 1)) < 0) {
        av_frame_free(&dist);
        return ret;
    }
    if (!ref) {
        if (!ctx->is_disabled)
            s->nb_no_ref++;
    } else {
        /* framesync pairs by timestamp; both are in its time base here. The
           pairing stays libvmaf's; only the warning says what went wrong. */
        if (fs->in[0].pts != fs->in[1].pts && !repeated[0] && !repeated[1]) {
            if (paired_by_rounding(fs) && !s->rounding_warned) {
                s->rounding_warned = 1;
                av_log(ctx, AV_LOG_WARNING, "main frame at %s s is paired with the "
                       "reference frame at %s s, though the next reference frame, at "
                       "%s s, is less than a tenth of a frame from it: the inputs' "
                       "timestamps are probably rounded differently (Matroska keeps "
                       "milliseconds); ts_sync_mode=nearest pairs each main frame with "
                       "the nearest reference frame\n",
                       av_ts2timestr(fs->in[0].pts, &fs->time_base),
                       av_ts2timestr(fs->in[1].pts, &fs->time_base),
                       av_ts2timestr(fs->in[1].pts_next, &fs->time_base));
            } else if (!s->nb_pts_mismatch) {
                av_log(ctx, AV_LOG_WARNING, "main frame at %s s is paired with the "
                       "reference frame at %s s: the inputs' timestamps differ; use "
                       "settb=AVTB,setpts=PTS-STARTPTS on both inputs if they should "
                       "start together\n",
                       av_ts2timestr(fs->in[0].pts, &fs->time_base),
                       av_ts2timestr(fs->in[1].pts, &fs->time_base));
            }
            s->nb_pts_mismatch++;
        }
        if (dist->color_range != ref->color_range && s->nb_scored == 0)
            av_log(ctx, AV_LOG_WARNING, "main and reference frames have different "
                   "color ranges (%s and %s)\n",
                   av_color_range_name(dist->color_range),
                   av_color_range_name(ref->color_range));
        /* framesync owns ref and may free it at the next event. */
        if (!(pf.ref = av_frame_clone(ref))) {
            av_frame_free(&dist);
            return AVERROR(ENOMEM);
        }
        ret = submit(ctx, dist, pf.ref);
        if (ret < 0)
            av_frame_free(&pf.ref); /* not in flight */
        if (ret < 0 && !s->broken) {
            av_frame_free(&dist);
            return ret;
        }
        pf.index = ret >= 0 ? ret : -2;
    }

    av_fifo_write(s->pending, &pf, 1); /* cannot fail: room was made */
    return s->broken ? AVERROR(ERANGE) : 0;
}

/**
 * A path for a message, cut in the middle when long (as the library cuts it),
 * so that the reason after it stays on FFmpeg's log line.
 */
static const char *cut_path(const char *path, char *buf, size_t size)
{
    size_t len = strlen(path);

    if (len <= 160)
        return path;
    snprintf(buf, size, "%.100s...%s (%zu bytes)", path, path + len - 40, len);
    return buf;
}

/**
 * Whether log_path can be written: opened for appending (nothing is changed in
 * an existing file) and, if that created it, removed again, so that a bad path
 * fails now and not after the whole stream has been scored.
 */
static int check_log_path(AVFilterContext *ctx, const char *path)
{
    struct stat st;
    int existed;
    FILE *f;

    if (!strcmp(path, "-"))
        return 0; /* the standard output */
    existed = !stat(path, &st);
    f = avpriv_fopen_utf8(path, "ab");
    if (!f) {
        int err = AVERROR(errno);
        char cut[256];

        av_log(ctx, AV_LOG_ERROR, "Could not open the log file %s for writing: %s\n",
               cut_path(path, cut, sizeof(cut)), av_err2str(err));
        return err;
    }
    fclose(f);
    if (!existed)
        remove(path);
    return 0;
}

static av_cold int init(AVFilterContext *ctx)
{
    LIBVMAFHIPContext *s = ctx->priv;
    int ret;

    /* log_fmt and pool unset mean xml and mean, as in FFmpeg's libvmaf. */
    if ((ret = find_name(ctx, "log_fmt", s->log_fmt ? s->log_fmt : "xml", log_formats,
                         FF_ARRAY_ELEMS(log_formats))) < 0)
        return ret;
    s->log_format = ret;
    if ((ret = find_name(ctx, "pool", s->pool ? s->pool : "mean", pool_methods,
                         FF_ARRAY_ELEMS(pool_methods))) < 0)
        return ret;
    s->pool_method = ret;
    if (s->log_path && (ret = check_log_path(ctx, s->log_path)) < 0)
        return ret;
    s->pending = av_fifo_alloc2(16, sizeof(PendingFrame), AV_FIFO_FLAG_AUTO_GROW);
    if (!s->pending)
        return AVERROR(ENOMEM);
    s->fs.on_event = do_vmafhip;
    /* A process that ends while the driver starts waits for it, so the
       context starts the GPU only once the stream has lasted a little (a few
       frames of a test fixture never do), unless the stream waits for the
       GPU anyway (gpu_wait=1): then its start (a few hundred milliseconds)
       begins here and overlaps the opening of the inputs and the decoding of
       the first frames. A GPU that cannot start is reported at open. */
    if (s->gpu_wait && s->backend != VMAFHIP_BACKEND_CPU)
        vmafhip_gpu_start(s->device);
    return 0;
}

/* Planar formats whose luma is plane 0 with 8- or 16-bit samples, value in
   the low bits, and the semi-planar formats of hardware decoders (Cb, Cr
   pairs in plane 1; p010 and kin with the value in the high bits), which the
   library takes as they are. One list for both inputs and the output, as in
   FFmpeg's libvmaf filter: an input in another format (rgb24, a reference in
   another format than the main input) gets a conversion that FFmpeg inserts
   (an automatic scale filter), reported by config_output(). */
static const enum AVPixelFormat pix_fmts[] = {
    AV_PIX_FMT_GRAY8, AV_PIX_FMT_GRAY10, AV_PIX_FMT_GRAY12, AV_PIX_FMT_GRAY16,
    AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUV444P,
    AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUVJ422P, AV_PIX_FMT_YUVJ444P,
    AV_PIX_FMT_YUV420P10, AV_PIX_FMT_YUV422P10, AV_PIX_FMT_YUV444P10,
    AV_PIX_FMT_YUV420P12, AV_PIX_FMT_YUV422P12, AV_PIX_FMT_YUV444P12,
    AV_PIX_FMT_YUV420P16, AV_PIX_FMT_YUV422P16, AV_PIX_FMT_YUV444P16,
    AV_PIX_FMT_NV12, AV_PIX_FMT_NV16, AV_PIX_FMT_NV24, AV_PIX_FMT_NV20,
    AV_PIX_FMT_P010, AV_PIX_FMT_P012, AV_PIX_FMT_P016,
    AV_PIX_FMT_P210, AV_PIX_FMT_P212, AV_PIX_FMT_P216,
    AV_PIX_FMT_P410, AV_PIX_FMT_P412, AV_PIX_FMT_P416,
    AV_PIX_FMT_NONE
};

/* The library's plane layout of a format of pix_fmts: semi-planar where Cb
   and Cr share a plane, with the value in the high bits where luma is
   shifted (p010). */
static enum VmafHipLayout layout_of(const AVPixFmtDescriptor *desc)
{
    if (desc->nb_components < 3 || desc->comp[1].plane != desc->comp[2].plane)
        return VMAFHIP_LAYOUT_PLANAR;
    return desc->comp[0].shift ? VMAFHIP_LAYOUT_NV_MSB : VMAFHIP_LAYOUT_NV;
}

static int config_input_ref(AVFilterLink *inlink)
{
    AVFilterContext *ctx = inlink->dst;
    AVFilterLink *mainlink = ctx->inputs[0];

    /* The formats are the same: one format list for all links. */
    if (inlink->w != mainlink->w || inlink->h != mainlink->h) {
        av_log(ctx, AV_LOG_ERROR, "reference is %dx%d %s, main is %dx%d %s: "
               "both inputs must have the same size (scale one of them)\n",
               inlink->w, inlink->h, av_get_pix_fmt_name(inlink->format),
               mainlink->w, mainlink->h, av_get_pix_fmt_name(mainlink->format));
        return AVERROR(EINVAL);
    }
    return 0;
}

static enum VmafHipLogLevel lib_log_level(void)
{
    int level = av_log_get_level();

    return level >= AV_LOG_DEBUG   ? VMAFHIP_LOG_DEBUG   :
           level >= AV_LOG_INFO    ? VMAFHIP_LOG_INFO    :
           level >= AV_LOG_WARNING ? VMAFHIP_LOG_WARNING : VMAFHIP_LOG_ERROR;
}

static int open_library(AVFilterContext *ctx, const AVFilterLink *mainlink)
{
    LIBVMAFHIPContext *s = ctx->priv;
    const AVPixFmtDescriptor *desc = av_pix_fmt_desc_get(mainlink->format);
    VmafHipSettings st;
    const char *const *names;
    char what[128];
    int ret, nb_names;

    vmafhip_default_settings(&st);
    st.width        = mainlink->w;
    st.height       = mainlink->h;
    st.bitdepth     = desc->comp[0].depth;
    st.chroma       = desc->nb_components == 1 ? VMAFHIP_CHROMA_400 :
                      desc->log2_chroma_h      ? VMAFHIP_CHROMA_420 :
                      desc->log2_chroma_w      ? VMAFHIP_CHROMA_422 :
                                                 VMAFHIP_CHROMA_444;
    st.features     = s->feature_cfg;
    st.models       = s->model_cfg;
    st.n_subsample  = s->n_subsample;
    st.backend      = s->backend;
    st.device       = s->device;
    /* n_threads, else the generic filter option "threads" (0: one per core). */
    st.threads      = s->n_threads ? s->n_threads : ctx->nb_threads;
    st.queue_depth  = s->queue_depth;
    st.gpu_wait     = s->gpu_wait;
    st.private_reference = !s->share_ref;
    st.layout       = layout_of(desc);
    st.log_level    = lib_log_level();
    st.log_callback = log_callback;
    st.log_cookie   = ctx;
    s->nb_planes    = av_pix_fmt_count_planes(mainlink->format);
    s->max_pending  = s->queue_depth ? s->queue_depth : 16;
    s->width        = mainlink->w;
    s->height       = mainlink->h;
    s->format       = mainlink->format;

    vmafhip_close(&s->vh);
    s->lib_error_logged = 0;
    ret = vmafhip_open(&s->vh, &st);
    if (ret < 0) {
        snprintf(what, sizeof(what), "Could not set up scoring of %dx%d %s",
                 mainlink->w, mainlink->h, desc->name);
        return lib_error(ctx, ret, what);
    }
    s->flushed = 0;

    nb_names = vmafhip_feature_names(s->vh, &names);
    av_log(ctx, AV_LOG_VERBOSE, "scoring %dx%d %s on %s:",
           mainlink->w, mainlink->h, desc->name, vmafhip_backend_name(s->vh));
    for (int i = 0; i < nb_names; i++)
        av_log(ctx, AV_LOG_VERBOSE, " %s", names[i]);
    av_log(ctx, AV_LOG_VERBOSE, "\n");
    return 0;
}

static int config_output(AVFilterLink *outlink)
{
    AVFilterContext *ctx = outlink->src;
    LIBVMAFHIPContext *s = ctx->priv;
    AVFilterLink *mainlink = ctx->inputs[0];
    FilterLink *il = ff_filter_link(mainlink);
    FilterLink *ol = ff_filter_link(outlink);
    int ret;

    ret = ff_framesync_init_dualinput(&s->fs, ctx);
    if (ret < 0)
        return ret;
    outlink->w = mainlink->w;
    outlink->h = mainlink->h;
    outlink->time_base = mainlink->time_base;
    outlink->sample_aspect_ratio = mainlink->sample_aspect_ratio;
    ol->frame_rate = il->frame_rate;
    ret = ff_framesync_configure(&s->fs);
    if (ret < 0)
        return ret;

    /* Inputs that FFmpeg converts to a format of the list (as for libvmaf). */
    for (int i = 0; i < ctx->nb_inputs; i++) {
        const AVFilterContext *src = ctx->inputs[i]->src;

        if (src->name && av_strstart(src->name, "auto_scale", NULL) && src->nb_inputs &&
            src->inputs[0]->format != ctx->inputs[i]->format)
            av_log(ctx, AV_LOG_INFO, "%s input converted from %s to %s by FFmpeg (an "
                   "automatic scale filter, as for the libvmaf filter): the scores are "
                   "those of the converted frames\n", i ? "reference" : "main",
                   av_get_pix_fmt_name(src->inputs[0]->format),
                   av_get_pix_fmt_name(ctx->inputs[i]->format));
    }

    /* Device memory is allocated here, not in init: the ffmpeg CLI creates
       and destroys a graph once just to inspect it. */
    return open_library(ctx, mainlink);
}

/**
 * Count each input's frames (taken by framesync or queued) and note which
 * inputs end by themselves, for the warning about inputs of different
 * lengths. Once the output has ended (framesync ends the other input itself
 * with shortest=1 or eof_action=endall), a later end is ours.
 */
static void note_input_ends(AVFilterContext *ctx)
{
    LIBVMAFHIPContext *s = ctx->priv;

    if (!ctx->inputs[0] || !ctx->inputs[1] || !ctx->outputs[0])
        return; /* uninit of a filter that was never linked */
    if (ff_outlink_get_status(ctx->outputs[0]))
        s->out_ended = 1; /* ended downstream, or at the end of the stream */
    for (int i = 0; i < 2; i++) {
        AVFilterLink *inlink = ctx->inputs[i];
        uint64_t n = ff_filter_link(inlink)->frame_count_out + ff_inlink_queued_frames(inlink);

        s->nb_in[i] = FFMAX(s->nb_in[i], n);
        if (!s->out_ended && ff_outlink_get_status(inlink))
            s->in_ended[i] = 1;
    }
}

/** At the end: inputs with different frame counts are scored as framesync
    pairs them (shortest, repeatlast, eof_action), so say so. */
static void report_lengths(AVFilterContext *ctx)
{
    static const char *const input_name[2] = { "main", "reference" };
    LIBVMAFHIPContext *s = ctx->priv;
    int first;

    if (s->nb_in[0] == s->nb_in[1] || (!s->in_ended[0] && !s->in_ended[1]))
        return;
    /* Ends arrive from the inputs' own threads in any order: of two inputs
       that both ended, the shorter ended first in stream time. */
    first = s->in_ended[0] && s->in_ended[1] ? s->nb_in[1] < s->nb_in[0] : !s->in_ended[0];
    /* The other input was cut (shortest=1, endall) before it was seen to be
       longer: the lengths may well be the same. */
    if (!s->in_ended[!first] && s->nb_in[!first] <= s->nb_in[first])
        return;
    if (s->in_ended[!first] && s->nb_repeated[first])
        av_log(ctx, AV_LOG_WARNING, "The inputs have different lengths: main %"PRIu64
               " frames, reference %"PRIu64" frames; the %s input ended first and its last "
               "frame was used %"PRIu64" more times, to the end of the %s input\n",
               s->nb_in[0], s->nb_in[1], input_name[first], s->nb_repeated[first],
               input_name[!first]);
    else if (s->in_ended[!first])
        av_log(ctx, AV_LOG_WARNING, "The inputs have different lengths: main %"PRIu64
               " frames, reference %"PRIu64" frames; the %s input ended first\n",
               s->nb_in[0], s->nb_in[1], input_name[first]);
    else
        av_log(ctx, AV_LOG_WARNING, "The inputs have different lengths: main %s%"PRIu64
               " frames, reference %s%"PRIu64" frames; the %s input ended first and the "
               "%s input was not read to its end (shortest=1 or eof_action=endall)\n",
               first == 1 ? "at least " : "", s->nb_in[0],
               first == 0 ? "at least " : "", s->nb_in[1],
               input_name[first], input_name[!first]);
}

/**
 * Write log_path at the end of the stream, so that a failure (a full disk)
 * fails the stream and so ffmpeg's exit status.
 */
static int write_log(AVFilterContext *ctx)
{
    LIBVMAFHIPContext *s = ctx->priv;
    char what[1024], cut[256];
    int ret;

    s->log_written = 1;
    ret = vmafhip_write_log(s->vh, s->log_path, s->log_format, 0);
    if (ret < 0) {
        snprintf(what, sizeof(what), "Could not write the log file %s",
                 cut_path(s->log_path, cut, sizeof(cut)));
        return lib_error(ctx, ret, what);
    }
    return 0;
}

static int activate(AVFilterContext *ctx)
{
    LIBVMAFHIPContext *s = ctx->priv;
    AVFilterLink *outlink = ctx->outputs[0];
    uint64_t nb_events = s->nb_events, nb_sent = s->nb_sent;
    int ret;

    /* A status already on the output at this point was set downstream (we
       drain in the call that sets ours): nobody wants the queued frames. */
    if (ff_outlink_get_status(outlink))
        free_pending(s);
    if (s->fail_err)
        return fail_stream(ctx, s->fail_err);
    note_input_ends(ctx);

    /* A sample out of range is found when a frame's results are collected:
       at a later submission, or at the end of the stream, after framesync
       has ended the output, when it could not end with the error any more.
       So when an input ends, collect what was submitted first. */
    for (int i = 0; i < ctx->nb_inputs && s->vh && !s->flushed; i++) {
        if (!(s->ended_checked & (1u << i)) && ff_outlink_get_status(ctx->inputs[i]) &&
            !ff_inlink_queued_frames(ctx->inputs[i])) {
            s->ended_checked |= 1u << i;
            if (stream_broken(s))
                return fail_stream(ctx, AVERROR(ERANGE));
        }
    }

    ret = ff_framesync_activate(&s->fs);
    if (ret == AVERROR(ERANGE) && s->broken)
        return fail_stream(ctx, ret);
    if (ret < 0 && ret != FFERROR_NOT_READY)
        return ret;

    /* If framesync has just set EOF on the output (end of an input, or of
       the shorter one), every queued frame must go now, in this call: lavfi
       delivers frames queued on a link before the link's status is
       acknowledged, but nothing would activate us again. The library's
       stream ends first, so that the last frames' scores complete. */
    if (ff_outlink_get_status(outlink) && s->vh && !s->flushed) {
        s->flushed = 1;
        ret = vmafhip_flush(s->vh);
        if (ret < 0 && ret != AVERROR(ERANGE))
            return lib_error(ctx, ret, "Could not finish scoring");
        if (ret == AVERROR(ERANGE))
            stream_broken(s);
    }
    ret = output_frames(ctx, ff_outlink_get_status(outlink) != 0);
    if (ret < 0)
        return ret;
    if (ff_outlink_get_status(outlink)) {
        s->out_ended = 1;
        /* The log, now that every score is complete, unless the stream broke
           (then uninit says that there is none). */
        if (s->log_path && !s->log_written && s->vh && vmafhip_frame_count(s->vh) > 0 &&
            !s->broken && (ret = write_log(ctx)) < 0)
            return ret;
    }
    /* Not found before framesync ended the output: fail now (ffmpeg may
       then drop the frames just sent). */
    if (s->broken && !s->fail_err && ff_outlink_get_status(outlink)) {
        s->fail_err = AVERROR(ERANGE);
        return lib_error(ctx, AVERROR(ERANGE), "Could not finish scoring");
    }
    /* framesync took a frame pair but none left (motion waits for the next
       frame, the GPU for its results) while downstream still wants one:
       framesync asks its inputs for more only when it has no frame pair, so
       run again, or the graph stalls (a source inside the graph never gets
       a request). */
    if (s->nb_events != nb_events && s->nb_sent == nb_sent &&
        !ff_outlink_get_status(outlink) && ff_outlink_frame_wanted(outlink))
        ff_filter_set_ready(ctx, 100);
    return 0;
}

static av_cold void uninit(AVFilterContext *ctx)
{
    LIBVMAFHIPContext *s = ctx->priv;

    free_pending(s);
    av_fifo_freep2(&s->pending);
    ff_framesync_uninit(&s->fs);

    if (s->vh && vmafhip_frame_count(s->vh) > 0) {
        const char *const *names, *const *agg_names;
        const double *agg_values;
        int ret, nb_names, nb_agg;

        ret = vmafhip_flush(s->vh);
        if (ret < 0 && ret != AVERROR(ERANGE))
            lib_error(ctx, ret, "Could not finish scoring");
        if (ret == AVERROR(ERANGE) && stream_broken(s)) {
            av_log(ctx, AV_LOG_ERROR, "The stream could not be scored: no pooled "
                   "scores%s\n", s->log_path ? ", no log file" : "");
            goto counts;
        }
        /* FFmpeg's libvmaf line, one per model, that tools parse. */
        for (int i = 0; i < vmafhip_model_count(s->vh); i++) {
            VmafHipPooled pooled;
            int score;

            vmafhip_model_info(s->vh, i, NULL, &score);
            if (vmafhip_pooled(s->vh, score, &pooled) >= 0)
                av_log(ctx, AV_LOG_INFO, "VMAF score: %f\n",
                       pooled_value(&pooled, s->pool_method));
        }
        nb_names = vmafhip_feature_names(s->vh, &names);
        for (int i = 0; i < nb_names; i++) {
            VmafHipPooled pooled;

            if (vmafhip_pooled(s->vh, i, &pooled) >= 0)
                av_log(ctx, AV_LOG_INFO, "%s mean: %.6f\n", names[i], pooled.mean);
        }
        nb_agg = vmafhip_aggregate_scores(s->vh, &agg_names, &agg_values);
        for (int i = 0; i < nb_agg; i++)
            av_log(ctx, AV_LOG_INFO, "%s: %.6f\n", agg_names[i], agg_values[i]);

        /* Written at the end of the stream, unless the graph was closed
           before (then a failure can only be reported). */
        if (s->log_path && !s->log_written)
            write_log(ctx);
    } else if (s->vh && s->log_path) {
        char cut[256];

        av_log(ctx, AV_LOG_WARNING, "No frame pair was scored: %s not written\n",
               cut_path(s->log_path, cut, sizeof(cut)));
    }

counts:
    note_input_ends(ctx);
    report_lengths(ctx);
    if (s->nb_no_ref)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" main frames had no reference frame "
               "(the reference starts later or ended before) and were not scored\n", s->nb_no_ref);
    if (s->nb_pts_mismatch)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" of %"PRIu64" frame pairs were "
               "matched with different timestamps\n",
               s->nb_pts_mismatch, s->nb_scored);
    if (s->nb_range_errors)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" frames had samples above the bit "
               "depth's maximum and were not scored\n", s->nb_range_errors);
    if (s->nb_unscored)
        av_log(ctx, AV_LOG_WARNING, "%"PRIu64" frames were passed on unscored "
               "because the stream could not be scored\n", s->nb_unscored);
    if (s->vh) /* not the ffmpeg CLI's graph that is only inspected */
        av_log(ctx, AV_LOG_VERBOSE, "%"PRIu64" input frames were allocated in memory the "
               "library lends (no host copy on the GPU)\n", s->nb_lent);

    vmafhip_close(&s->vh);
}

static void release_lent(void *handle, uint8_t *data)
{
    vmafhip_picture_release(handle);
}

/**
 * Frames that the filters before this one allocate for us are written
 * straight into (pinned) memory the library lends: they go to the GPU with
 * one DMA copy per plane and no host copy. A main frame leaves the filter
 * only once its scores are complete, so downstream never sees it while it is
 * being copied. Where the library lends nothing (not open yet, every picture
 * borrowed, another size or format), NULL: FFmpeg allocates as usual.
 */
static AVFrame *get_video_buffer(AVFilterLink *inlink, int w, int h)
{
    LIBVMAFHIPContext *s = inlink->dst->priv;
    VmafHipLentPicture lent;
    AVFrame *frame;

    /* The link's size, and not only what was asked: a filter that changes
       the size on the fly changes the link's too. */
    if (!s->vh || w != s->width || h != s->height || inlink->w != s->width ||
        inlink->h != s->height || inlink->format != s->format ||
        vmafhip_picture_borrow(s->vh, av_cpu_max_align(), &lent) < 0)
        return NULL;
    frame = av_frame_alloc();
    if (frame)
        frame->buf[0] = av_buffer_create(lent.data[0], lent.size, release_lent, lent.handle, 0);
    if (!frame || !frame->buf[0]) {
        av_frame_free(&frame);
        vmafhip_picture_release(lent.handle);
        return NULL;
    }
    for (int i = 0; i < 3 && lent.data[i]; i++) {
        frame->data[i]     = lent.data[i];
        frame->linesize[i] = lent.stride[i];
    }
    frame->width               = w;
    frame->height              = h;
    frame->format              = inlink->format;
    frame->sample_aspect_ratio = inlink->sample_aspect_ratio;
    frame->colorspace          = inlink->colorspace;
    frame->color_range         = inlink->color_range;
    s->nb_lent++;
    return frame;
}

static const AVFilterPad libvmaf_hip_inputs[] = {
    {
        .name             = "main",
        .type             = AVMEDIA_TYPE_VIDEO,
        .get_buffer.video = get_video_buffer,
    },{
        .name             = "reference",
        .type             = AVMEDIA_TYPE_VIDEO,
        .config_props     = config_input_ref,
        .get_buffer.video = get_video_buffer,
    },
};

static const AVFilterPad libvmaf_hip_outputs[] = {
    {
        .name          = "default",
        .type          = AVMEDIA_TYPE_VIDEO,
        .config_props  = config_output,
    },
};

#if LIBAVFILTER_VERSION_MAJOR >= 11
const FFFilter ff_vf_libvmaf_hip = {
    .p.name        = "libvmaf_hip",
    .p.description = NULL_IF_CONFIG_SMALL("Calculate libvmaf-compatible quality metrics on the GPU (HIP) or the CPU."),
    .p.priv_class  = &libvmaf_hip_class,
    .p.flags       = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL |
                     AVFILTER_FLAG_METADATA_ONLY,
#else
const AVFilter ff_vf_libvmaf_hip = {
    .name          = "libvmaf_hip",
    .description   = NULL_IF_CONFIG_SMALL("Calculate libvmaf-compatible quality metrics on the GPU (HIP) or the CPU."),
    .priv_class    = &libvmaf_hip_class,
    .flags         = AVFILTER_FLAG_SUPPORT_TIMELINE_INTERNAL |
                     AVFILTER_FLAG_METADATA_ONLY,
#endif /* LIBAVFILTER_VERSION_MAJOR >= 11 */
    .preinit       = libvmaf_hip_framesync_preinit,
    .init          = init,
    .uninit        = uninit,
    .activate      = activate,
    .priv_size     = sizeof(LIBVMAFHIPContext),
    FILTER_INPUTS(libvmaf_hip_inputs),
    FILTER_OUTPUTS(libvmaf_hip_outputs),
    FILTER_PIXFMTS_ARRAY(pix_fmts),
};
