/*
 * vmafhip: libvmaf-compatible video quality metrics (VMAF models and
 * libvmaf's feature extractors, vmafhip_feature_info() lists them) on the
 * GPU through HIP, with a bit-exact CPU reference.
 *
 * Plain C API: no HIP or CUDA types. Every function returns 0 or a
 * non-negative value on success and a negative errno value on failure; the
 * reason is logged through the settings' logger and kept as the context's
 * last error message (vmafhip_last_error()).
 *
 * Typical use:
 * @code
 *   VmafHipSettings s;
 *   vmafhip_default_settings(&s);
 *   s.width = 1920; s.height = 1080; s.bitdepth = 8;
 *   s.chroma = VMAFHIP_CHROMA_420;
 *   VmafHipContext *c;
 *   if (vmafhip_open(&c, &s) < 0) ...;
 *   for (each frame pair) {
 *       int idx = vmafhip_submit(c, &dis, &ref);     // planes reusable now
 *       ...
 *   }
 *   vmafhip_flush(c);                                // all frames done
 *   for (unsigned i = 0; i < n; i++)
 *       vmafhip_frame_scores(c, i, 1, &values);      // aligned with names
 *   vmafhip_close(&c);
 * @endcode
 */
#ifndef VMAFHIP_VMAFHIP_H
#define VMAFHIP_VMAFHIP_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "vmafhip_version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32)
#define VMAFHIP_API __declspec(dllexport)
#elif defined(__GNUC__)
#define VMAFHIP_API __attribute__((visibility("default")))
#else
#define VMAFHIP_API
#endif

/** Opaque scoring context. Thread-safety: one context must not be used by
 *  two threads at once; different contexts are independent and may be used
 *  concurrently from different threads (also on the same GPU). */
typedef struct VmafHipContext VmafHipContext;

/** Chroma layout of both pictures. */
enum VmafHipChroma {
    VMAFHIP_CHROMA_420 = 0, ///< chroma planes ceil(W/2) x ceil(H/2)
    VMAFHIP_CHROMA_422 = 1, ///< chroma planes ceil(W/2) x H
    VMAFHIP_CHROMA_444 = 2, ///< chroma planes W x H
    VMAFHIP_CHROMA_400 = 3, ///< luma only (gray)
};

/** How the planes of both pictures are stored. */
enum VmafHipLayout {
    VMAFHIP_LAYOUT_PLANAR = 0, ///< luma, Cb and Cr planes, samples in the low bits (FFmpeg's
                               ///< yuv420p, yuv420p10le, ...)
    VMAFHIP_LAYOUT_NV     = 1, ///< semi-planar: the luma plane, then one plane of Cb, Cr pairs
                               ///< (data[1]; data[2] is not read), samples in the low bits:
                               ///< FFmpeg's nv12, nv16, nv24, nv20le, p016, p216, p416
    VMAFHIP_LAYOUT_NV_MSB = 2, ///< semi-planar with 10- or 12-bit samples in the high bits of
                               ///< their 16-bit words (the low bits are ignored): p010, p012,
                               ///< p210, p212, p410, p412, what hardware decoders hand over
};

/** Where the metrics are computed. */
enum VmafHipBackend {
    VMAFHIP_BACKEND_AUTO = 0, ///< the GPU if one is present, else the CPU (one warning)
    VMAFHIP_BACKEND_CPU  = 1, ///< the CPU reference
    VMAFHIP_BACKEND_HIP  = 2, ///< the GPU; fails with -ENODEV when there is none
};

enum VmafHipLogLevel {
    VMAFHIP_LOG_ERROR   = 0,
    VMAFHIP_LOG_WARNING = 1,
    VMAFHIP_LOG_INFO    = 2,
    VMAFHIP_LOG_DEBUG   = 3,
};

/** Log sink. @p fmt and @p vl are a printf format and its arguments; the
 *  message ends with '\n'. May be called from the thread that called into
 *  the library only. */
typedef void (*VmafHipLogCallback)(void *cookie, enum VmafHipLogLevel level,
                                   const char *fmt, va_list vl);

/** The most CPU threads a context takes (VmafHipSettings.threads). */
#define VMAFHIP_MAX_THREADS 1024

/** Everything vmafhip_open() needs. Fill with vmafhip_default_settings()
 *  first, then change fields; the struct may be freed once open returns. */
typedef struct VmafHipSettings {
    size_t struct_size;        ///< sizeof(VmafHipSettings); set by vmafhip_default_settings()
    int width;                 ///< luma width in pixels, 1..32768 (no default)
    int height;                ///< luma height in pixels, 1..32768 (no default)
    int bitdepth;              ///< 8, 10, 12 or 16; vmafhip_open() refuses an extractor
                               ///< that does not take it, naming the depths it takes (default 8)
    enum VmafHipChroma chroma; ///< chroma layout (default 4:2:0)
    /** Feature extractors to run besides those the models need, '|'-separated;
     *  each is "NAME" or "NAME=option=value:option=value" (libvmaf's CLI
     *  --feature) or "name=NAME:option=value" (FFmpeg's libvmaf filter), e.g.
     *  "psnr|float_ssim|adm=adm_enhn_gain_limit=1". NAME: an extractor that
     *  vmafhip_feature_info() lists (vmafhip_option_info() lists the options).
     *  NULL or "" = none (default NULL). Read by vmafhip_open() only. */
    const char *features;
    /** VMAF models, '|'-separated, each "key=value:key=value" with keys
     *  version (a built-in model, vmafhip_builtin_model()), path (a libvmaf
     *  JSON model file), name (output name, default "vmaf"), enable_transform,
     *  disable_clip (true/false) and EXTRACTOR.OPTION (an option of the
     *  features the model reads, e.g. "adm.adm_enhn_gain_limit=1"), as
     *  libvmaf's CLI -m and FFmpeg's libvmaf filter take them. NULL or "" =
     *  none (default "version=vmaf_v0.6.1"). Read by vmafhip_open() only. */
    const char *models;
    int n_subsample;           ///< score frames 0, n, 2n, ... only, 1..2^31-1 (default 1)
    enum VmafHipBackend backend; ///< (default auto)
    int device;                ///< GPU index, >= 0 (default 0)
    int threads;               ///< host threads, 0..VMAFHIP_MAX_THREADS: on the CPU backend,
                               ///< the threads that score (0 = one per core); on the GPU,
                               ///< the threads that copy frames into pinned staging, at most 8
                               ///< (0 = half the cores, at most 8) (default 0)
    int queue_depth;           ///< frames in flight, 1..16; 0 = automatic: 4 on the GPU (while
                               ///< it starts, at most 2 on the CPU in its stead); on the
                               ///< CPU 1 with one thread, else threads / 2 + 2 (at most 16). On
                               ///< the CPU, 1 scores inside submit with every thread on the
                               ///< frame; above 1, frames are scored several at once on worker
                               ///< threads, one frame per two threads up to the depth (default 0)
    enum VmafHipLogLevel log_level; ///< messages above this level are dropped (default info)
    VmafHipLogCallback log_callback; ///< NULL = print to stderr (default NULL)
    void *log_cookie;          ///< passed to log_callback
    /** GPU backends: 0 = vmafhip_open() returns at once and the frames
     *  submitted while the GPU starts (a few hundred milliseconds) are scored
     *  on the CPU, with the same scores, so that a short clip does not wait
     *  for the GPU at all; a GPU that cannot start is then reported by the
     *  submit that would have handed over to it (backend hip: that submit
     *  fails; auto: one warning, the CPU scores on). 1 = vmafhip_open()
     *  waits for the GPU, reports its errors, and every frame is scored on
     *  it. (default 0) */
    int gpu_wait;
    enum VmafHipLayout layout; ///< plane layout of both pictures (default planar)
    /** Instruction sets the CPU code must not use, as libvmaf's --cpumask:
     *  bit 3 (8) turns AVX2 off, so 63 runs the plain C++ kernels everywhere
     *  (the reference the SIMD kernels are tested against); the other bits
     *  (SSE2 1, SSSE3 2, SSE4.1 4, AVX-512 16) select nothing here. Scores do
     *  not depend on it. Since API 2.5. (default 0) */
    unsigned cpumask;
    /** GPU backends: 0 = a reference picture given to vmafhip_submit_kept()
     *  that another such context of this process on the same GPU, opened for
     *  the same size, format and planes, has been given kept too and not yet
     *  scored (the same memory: the same plane pointers and strides, as
     *  FFmpeg's split filter passes one decoded frame to several filters) is
     *  copied from that context's device memory instead of from the host
     *  again; the scores are the same. 1 = this context copies its reference
     *  pictures from the host itself and lends them to no other context.
     *  Since API 2.6. (default 0) */
    int private_reference;
    uint8_t reserved[48];      ///< room to grow without an ABI break; keep zero
} VmafHipSettings;

/** One picture: plane pointers and strides in bytes. Plane 0 is luma
 *  (width x height samples), planes 1 and 2 are Cb and Cr in FFmpeg's layout
 *  (ceil-sized for subsampled chroma); they may be NULL for 4:0:0 and when
 *  no enabled feature reads chroma. In a semi-planar layout plane 1 holds Cb,
 *  Cr pairs (twice the chroma width in samples per row) and plane 2 is not
 *  read. Samples above 8 bits are native-endian uint16 holding the value in
 *  the low bits (in the high bits with VMAFHIP_LAYOUT_NV_MSB). Strides may be
 *  negative (bottom-up pictures) but their magnitude must hold a row. */
typedef struct VmafHipPicture {
    const void *data[3];
    ptrdiff_t stride[3];
} VmafHipPicture;

/**
 * A picture in host memory lent by the context (vmafhip_picture_borrow()):
 * on the GPU backend it is pinned, so vmafhip_submit() copies it to the GPU
 * with one DMA transfer per plane and no host-side copy. The planes are
 * writable, laid out one after the other in one block, each row padded to
 * the alignment asked for: with alignment 1 the block is exactly one frame
 * of a raw planar file (FFmpeg's layout), so a reader can fill it with one
 * read.
 */
typedef struct VmafHipLentPicture {
    void *data[3];        ///< planes (data[1], data[2] NULL for 4:0:0; data[2] NULL when semi-planar)
    ptrdiff_t stride[3];  ///< bytes per row
    size_t size;          ///< bytes of the block that starts at data[0]
    void *handle;         ///< give to vmafhip_picture_release()
} VmafHipLentPicture;

/** Pooled statistics of one feature over all frames, as libvmaf pools them. */
typedef struct VmafHipPooled {
    double mean;          ///< sum / n
    double min;
    double max;
    double harmonic_mean; ///< n / sum(1 / (x + 1)) - 1
} VmafHipPooled;

/** Log file formats written by vmafhip_write_log(). */
enum VmafHipLogFormat {
    VMAFHIP_LOG_FMT_JSON = 0, ///< libvmaf's JSON log layout
    VMAFHIP_LOG_FMT_CSV  = 1, ///< libvmaf's CSV layout (Frame,<names>)
    VMAFHIP_LOG_FMT_XML  = 2, ///< libvmaf's XML layout
    VMAFHIP_LOG_FMT_SUB  = 3, ///< libvmaf's subtitle layout ({n}{n+1}name: value|...)
};

/** vmafhip_write_log() flag: print numbers with 17 significant digits
 *  (exact doubles) instead of libvmaf's "%.6f". */
#define VMAFHIP_LOG_FULL_PRECISION 1u

/** vmafhip_frame_scores() result for a frame that n_subsample leaves out. */
#define VMAFHIP_FRAME_SKIPPED 1

/** @return the library version, "major.minor.patch". */
VMAFHIP_API const char *vmafhip_version(void);

/** @return a static description of a negative error code returned by this
 *  library, e.g. "invalid argument" for -EINVAL; any other negative errno
 *  (a log file's) as the C library describes it. */
VMAFHIP_API const char *vmafhip_strerror(int err);

/** Fill @p s with the defaults documented on each field. */
VMAFHIP_API void vmafhip_default_settings(VmafHipSettings *s);

/** Number of feature extractors; vmafhip_feature_info() names each. */
VMAFHIP_API int vmafhip_feature_count(void);

/** Extractor @p index (0 .. vmafhip_feature_count() - 1): its name and a
 *  one-line description, static strings. @return 0 or -EINVAL. */
VMAFHIP_API int vmafhip_feature_info(int index, const char **name, const char **help);

/** Number of extractor options, over all extractors. */
VMAFHIP_API int vmafhip_option_count(void);

/** Description of option @p index (0 .. vmafhip_option_count() - 1), for
 *  help texts: the extractor it belongs to, libvmaf's name and short alias
 *  (NULL if none), what it does, its default and accepted values. Strings
 *  are static. @return 0 or -EINVAL. */
VMAFHIP_API int vmafhip_option_info(int index, const char **feature, const char **name,
                                    const char **alias, const char **help,
                                    const char **default_value, const char **range);

/** Built-in model @p index ("vmaf_v0.6.1", ...), a static string, or NULL
 *  when index is out of range. */
VMAFHIP_API const char *vmafhip_builtin_model(int index);

/** @return the number of GPUs the HIP backend can use; 0 when there is
 *  none or the library was built without GPU support. Starts the GPU
 *  runtime and waits for it. */
VMAFHIP_API int vmafhip_device_count(void);

/** Start GPU @p device in the background, once per process, and return at
 *  once: a program that knows it will score on that GPU calls this early,
 *  so that the start overlaps its own. Otherwise a context with gpu_wait 0
 *  starts it once its stream has lasted 20 ms, since a process that ends
 *  while the driver starts (from some 10 ms after the start on) waits for
 *  that start at exit. Every context of the process shares the device.
 *  @return 0, or -ENODEV when this machine or build has no usable GPU. */
VMAFHIP_API int vmafhip_gpu_start(int device);

/**
 * Create a context: parse the features and models, load the models, check
 * every option and the frame size against each extractor, and with a GPU
 * backend allocate all device memory (nothing is allocated per frame; with
 * gpu_wait 0 that happens in the background, while the CPU scores).
 * Extractors run once each even when several models and features ask for
 * them: as libvmaf, the models' extractors come first, and a feature whose
 * output names an earlier one already produces is not run again.
 *
 * @param[out] ctx set to the new context, or NULL on failure
 * @param s        settings; need only live until the function returns
 * @return 0 on success;
 *         -EINVAL  a setting, feature or model spec is invalid, or a model
 *                  file is malformed (the message says which and what is accepted),
 *         -ENOENT, -EACCES  a model file cannot be read,
 *         -ERANGE  the frame is too small or too large for an enabled feature,
 *         -ENOTSUP a combination this build or libvmaf does not support,
 *         -ENODEV  backend=hip without a usable GPU (or, with gpu_wait, a bad
 *                  device index),
 *         -ENOMEM  host or device memory exhausted,
 *         -EIO     any other GPU runtime failure (its message is logged).
 */
VMAFHIP_API int vmafhip_open(VmafHipContext **ctx, const VmafHipSettings *s);

/** Free the context (waits for work in flight) and set *ctx to NULL.
 *  NULL and *ctx == NULL are accepted. */
VMAFHIP_API void vmafhip_close(VmafHipContext **ctx);

/**
 * Score one frame pair. The pictures are copied (staged) before this returns,
 * so the caller may free or overwrite them immediately; no pointer to them is
 * kept. Lent pictures (vmafhip_picture_borrow()) are the exception: they are
 * copied asynchronously, so they must not be written until released. The work runs asynchronously on the GPU backend (and on the CPU with
 * queue_depth > 1): up to queue_depth frames are in flight, and submit waits
 * for the oldest when the queue is full.
 *
 * @param dis distorted picture
 * @param ref reference picture
 * @return the frame index (0, 1, 2, ...) on success;
 *         -EINVAL a plane pointer is NULL or a stride smaller than a row, or
 *                 the stream was flushed already,
 *         -ERANGE with a feature that reads neighbouring frames (motion, so
 *                 every VMAF model): a sample of a frame was above the bit
 *                 depth's maximum; the context is then unusable,
 *         -EIO / -ENOMEM on GPU failure (the context is then unusable: every
 *         later call returns the same error).
 */
VMAFHIP_API int vmafhip_submit(VmafHipContext *ctx, const VmafHipPicture *dis,
                               const VmafHipPicture *ref);

/**
 * vmafhip_submit() for pictures the caller keeps: it returns without copying
 * them, and the GPU backend copies them later on a thread of its own, so the
 * caller's thread does not spend the copy (an FFmpeg filter holds decoded
 * frames anyway until their scores come back). The planes of both pictures
 * must stay valid and unchanged until this frame's scores have been read
 * (vmafhip_frame_scores() returned anything but -EAGAIN for its index), or
 * vmafhip_flush() or vmafhip_close() has returned. Same arguments and
 * returns as vmafhip_submit(); the CPU backend copies them before it
 * returns, as there.
 */
VMAFHIP_API int vmafhip_submit_kept(VmafHipContext *ctx, const VmafHipPicture *dis,
                                    const VmafHipPicture *ref);

/**
 * Borrow a picture of the context's size and format to fill and submit (see
 * VmafHipLentPicture). A picture whose planes lie in a borrowed block is
 * copied to the GPU asynchronously by vmafhip_submit(): after submitting it,
 * read it if you like but do not write to it; release it when done, and the
 * context lends it again once its copy has finished. Other pictures are
 * copied before submit returns, as always. Lent memory lives until it is
 * released, also past vmafhip_close().
 *
 * Thread-safe: may be called from any thread, also while another thread
 * uses the context (readers filling pictures while the context scores).
 *
 * @param align row and plane alignment in bytes, a power of two from 1 to
 *              4096 (1: rows packed, as in a raw file; 64: what FFmpeg's
 *              SIMD code wants)
 * @return 0;
 *         -EINVAL a bad argument,
 *         -EAGAIN every picture the context may lend is borrowed (at most 64
 *                 and at most 1 GiB; release some, or use your own memory),
 *         -ENOMEM no (pinned) host memory.
 */
VMAFHIP_API int vmafhip_picture_borrow(VmafHipContext *ctx, int align, VmafHipLentPicture *pic);

/** Give back a picture from vmafhip_picture_borrow() (by its handle). May
 *  be called from any thread, also after vmafhip_close(). NULL is accepted. */
VMAFHIP_API void vmafhip_picture_release(void *handle);

/**
 * Names of the per-frame scores, fixed at open, in libvmaf's log order:
 * each extractor's features, then those completed from later frames
 * (integer_motion2, integer_motion3), then each model's scores. Names are
 * libvmaf's output names (e.g. "psnr_y", "integer_adm2", "vmaf"; options that
 * are part of a libvmaf feature name add libvmaf's suffix, e.g.
 * "integer_adm2_egl_1").
 * @param[out] names array of @p count strings, valid until close
 * @return the number of names
 */
VMAFHIP_API int vmafhip_feature_names(VmafHipContext *ctx, const char *const **names);

/**
 * Scores of frame @p index, aligned with vmafhip_feature_names(). A frame's
 * scores are complete once the frames its temporal features read have been
 * scored (motion2 of frame i reads frame i + 1), or after vmafhip_flush().
 *
 * @param wait   0: return -EAGAIN if the frame is not complete yet;
 *               1: wait for the frames it needs, if they were submitted
 * @param[out] values array of doubles, valid until close; NULL for a
 *                    skipped frame
 * @return 0;
 *         VMAFHIP_FRAME_SKIPPED n_subsample leaves this frame out: no scores,
 *         -EAGAIN the frame is not complete: it is in flight (wait == 0), or
 *                 it needs frames that were not submitted yet (submit them
 *                 or flush),
 *         -EINVAL no frame with this index was submitted,
 *         -ERANGE a sample of this frame was above the bit depth's maximum
 *                 (2^bitdepth - 1): no scores exist for it,
 *         -EIO    GPU failure.
 */
VMAFHIP_API int vmafhip_frame_scores(VmafHipContext *ctx, unsigned index, int wait,
                                     const double **values);

/** End the stream: wait until every submitted frame is scored, complete the
 *  last frames' temporal features and models, and compute end-of-stream
 *  aggregates (apsnr). Calling it again does nothing more; submitting after
 *  it is an error. @return 0 or the first error of a frame (see
 *  vmafhip_frame_scores()). */
VMAFHIP_API int vmafhip_flush(VmafHipContext *ctx);

/** End-of-stream aggregates after vmafhip_flush() (e.g. apsnr_y; none unless
 *  enabled). @return their number; names and values valid until close. */
VMAFHIP_API int vmafhip_aggregate_scores(VmafHipContext *ctx, const char *const **names,
                                         const double **values);

/** Pool feature @p feature (an index into vmafhip_feature_names()) over the
 *  complete, scored frames as libvmaf pools them (frames that n_subsample
 *  skips and frames that failed with -ERANGE are left out), waiting for
 *  frames in flight. @return 0, -EINVAL (bad index) or -EAGAIN (no frame has
 *  scores yet), or the error of a GPU failure. */
VMAFHIP_API int vmafhip_pooled(VmafHipContext *ctx, int feature, VmafHipPooled *out);

/** Number of models of the context. */
VMAFHIP_API int vmafhip_model_count(VmafHipContext *ctx);

/** Model @p index (0 .. vmafhip_model_count() - 1): the version or path it
 *  was loaded from (what libvmaf's CLI prints before the pooled score), and
 *  the index in vmafhip_feature_names() of its score ("vmaf", or the base
 *  score of a bootstrap model). Strings valid until close.
 *  @return 0 or -EINVAL. */
VMAFHIP_API int vmafhip_model_info(VmafHipContext *ctx, int index, const char **source,
                                   int *feature);

/**
 * The planes of each picture the context reads: 1 when its features read
 * luma only (the VMAF models alone, or a 4:0:0 format), else 3, or 2 in a
 * semi-planar layout (luma and the Cb, Cr pairs). Planes past this count are
 * never read: they may be NULL in vmafhip_submit(), and a reader may skip
 * them (the vmafhip CLI reads only luma for the models).
 * @return 1, 2 or 3, or -EINVAL for a NULL context
 */
VMAFHIP_API int vmafhip_planes_read(VmafHipContext *ctx);

/** Number of frames submitted so far. */
VMAFHIP_API unsigned vmafhip_frame_count(VmafHipContext *ctx);

/**
 * Write every scored frame's scores, pooled statistics and aggregates to
 * @p path in libvmaf's log layout (flushes first). @p path "-" writes to
 * stdout.
 * @param flags 0 or VMAFHIP_LOG_FULL_PRECISION
 * @return 0, -EINVAL (bad format), or -errno of the failed open/write.
 */
VMAFHIP_API int vmafhip_write_log(VmafHipContext *ctx, const char *path,
                                  enum VmafHipLogFormat fmt, unsigned flags);

/** @return "cpu" or the GPU's name and architecture, e.g.
 *  "hip: NVIDIA H200 (sm_90)". Valid until close. */
VMAFHIP_API const char *vmafhip_backend_name(VmafHipContext *ctx);

/** @return the last error message of this context ("" if none). Valid until
 *  the next call on the context. With ctx == NULL: the last error of a
 *  failed vmafhip_open() in this thread. */
VMAFHIP_API const char *vmafhip_last_error(VmafHipContext *ctx);

#ifdef __cplusplus
}
#endif

#endif /* VMAFHIP_VMAFHIP_H */
