/*
 * vmafhip: libvmaf-compatible video quality metrics (psnr, float_ssim,
 * integer ADM) on the GPU through HIP, with a bit-exact CPU reference.
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

/** Features (extractors), a bit mask. Names follow libvmaf's extractor names. */
enum VmafHipFeature {
    VMAFHIP_FEATURE_PSNR       = 1 << 0, ///< "psnr": psnr_y, psnr_cb, psnr_cr
    VMAFHIP_FEATURE_FLOAT_SSIM = 1 << 1, ///< "float_ssim": float_ssim
    VMAFHIP_FEATURE_ADM        = 1 << 2, ///< "adm": integer_adm2, integer_adm_scale0..3, ...
    VMAFHIP_FEATURE_ALL        = 7,
};

/** Chroma layout of both pictures. */
enum VmafHipChroma {
    VMAFHIP_CHROMA_420 = 0, ///< chroma planes ceil(W/2) x ceil(H/2)
    VMAFHIP_CHROMA_422 = 1, ///< chroma planes ceil(W/2) x H
    VMAFHIP_CHROMA_444 = 2, ///< chroma planes W x H
    VMAFHIP_CHROMA_400 = 3, ///< luma only (gray)
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

/** Options of the "psnr" extractor (libvmaf integer_psnr.c). */
typedef struct VmafHipPsnrSettings {
    int enable_chroma;    ///< also psnr_cb, psnr_cr; ignored for 4:0:0 (default 1)
    int enable_mse;       ///< also mse_y (and mse_cb, mse_cr) per frame (default 0)
    int enable_apsnr;     ///< apsnr_y, apsnr_cb, apsnr_cr at flush (default 0)
    int reduced_hbd_peak; ///< peak 255 << (bpc - 8) instead of 2^bpc - 1 (default 0)
    double min_sse;       ///< SSE floor for the PSNR cap, >= 0; 0 = cap 6*bpc+12 (default 0)
} VmafHipPsnrSettings;

/** Options of the "float_ssim" extractor (libvmaf float_ssim.c). */
typedef struct VmafHipSsimSettings {
    int enable_lcs; ///< also float_ssim_l, _c, _s (default 0)
    int enable_db;  ///< report -10*log10(1 - ssim) (default 0)
    int clip_db;    ///< with enable_db, cap at the 0.5-pixel-error value (default 0)
    int scale;      ///< downscale factor 1..10; 0 = automatic, as libvmaf (default 0)
} VmafHipSsimSettings;

/** Options of the integer "adm" extractor (libvmaf integer_adm.c). */
typedef struct VmafHipAdmSettings {
    double enhn_gain_limit;  ///< adm_enhn_gain_limit, [1, 100] (default 100)
    double norm_view_dist;   ///< adm_norm_view_dist, [0.75, 24] (default 3)
    int ref_display_height;  ///< adm_ref_display_height, [1, 4320] (default 1080)
    int csf_mode;            ///< adm_csf_mode: 0 Watson, 2 blend, 3 blend-MAE; 1 is rejected (default 0)
    double noise_weight;     ///< adm_noise_weight, [0, 1500] (default 0.03125)
    double csf_scale;        ///< adm_csf_scale, [0, 50], mode 1 only (default 1)
    double csf_diag_scale;   ///< adm_csf_diag_scale, [0, 50], mode 1 only (default 1)
    double dlm_weight;       ///< adm_dlm_weight, [0, 1], integer_adm3 only (default 0.5)
    double min_val;          ///< adm_min_val, [0, 1], integer_adm3 floor (default 0)
    int skip_scale0;         ///< adm_skip_scale0 (default 0)
    int skip_aim;            ///< adm_skip_aim: no integer_aim / integer_adm3 (default 0)
    int debug;               ///< also integer_adm, _num, _den, _num_scaleN, _den_scaleN (default 0)
} VmafHipAdmSettings;

/** Everything vmafhip_open() needs. Fill with vmafhip_default_settings()
 *  first, then change fields; the struct may be freed once open returns. */
typedef struct VmafHipSettings {
    size_t struct_size;        ///< sizeof(VmafHipSettings); set by vmafhip_default_settings()
    int width;                 ///< luma width in pixels, 1..32768 (no default)
    int height;                ///< luma height in pixels, 1..32768 (no default)
    int bitdepth;              ///< 8, 10, 12 or 16 (16: psnr and float_ssim only) (default 8)
    enum VmafHipChroma chroma; ///< chroma layout (default 4:2:0)
    unsigned features;         ///< VmafHipFeature mask (default all three)
    enum VmafHipBackend backend; ///< (default auto)
    int device;                ///< GPU index, >= 0 (default 0)
    int threads;               ///< CPU threads, 0 = one per core (default 0)
    int queue_depth;           ///< frames in flight, 1..16; 0 = automatic: 4 on the GPU, 1 on
                               ///< the CPU (scored inside submit); above 1 the CPU scores on a
                               ///< worker thread (default 0)
    VmafHipPsnrSettings psnr;
    VmafHipSsimSettings ssim;
    VmafHipAdmSettings adm;
    enum VmafHipLogLevel log_level; ///< messages above this level are dropped (default info)
    VmafHipLogCallback log_callback; ///< NULL = print to stderr (default NULL)
    void *log_cookie;          ///< passed to log_callback
    uint8_t reserved[64];      ///< room to grow without an ABI break; keep zero
} VmafHipSettings;

/** One picture: plane pointers and strides in bytes. Plane 0 is luma
 *  (width x height samples), planes 1 and 2 are Cb and Cr in FFmpeg's layout
 *  (ceil-sized for subsampled chroma); they may be NULL for 4:0:0 and when
 *  no enabled feature reads chroma. Samples above 8 bits are native-endian
 *  uint16 holding the value in the low bits. Strides may be negative (bottom-up
 *  pictures) but their magnitude must hold a row. */
typedef struct VmafHipPicture {
    const void *data[3];
    ptrdiff_t stride[3];
} VmafHipPicture;

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
};

/** vmafhip_write_log() flag: print numbers with 17 significant digits
 *  (exact doubles) instead of libvmaf's "%.6f". */
#define VMAFHIP_LOG_FULL_PRECISION 1u

/** @return the library version, "major.minor.patch". */
VMAFHIP_API const char *vmafhip_version(void);

/** @return a static description of a negative error code returned by this
 *  library, e.g. "invalid argument" for -EINVAL. */
VMAFHIP_API const char *vmafhip_strerror(int err);

/** Fill @p s with the defaults documented on each field. */
VMAFHIP_API void vmafhip_default_settings(VmafHipSettings *s);

/**
 * Set one option by name, as libvmaf's "--feature name=opt=val" does.
 *
 * @param s       settings to change (from vmafhip_default_settings())
 * @param feature "psnr", "float_ssim" or "adm"
 * @param option  an option name of that feature (libvmaf's names, e.g.
 *                "enable_chroma", "adm_enhn_gain_limit"), or its alias ("egl")
 * @param value   the value as text: numbers, or true/false for booleans
 * @return 0, or -EINVAL (unknown feature or option, unparsable value) or
 *         -ERANGE (out of range); the message names what is accepted and is
 *         logged through s->log_callback.
 */
VMAFHIP_API int vmafhip_settings_set(VmafHipSettings *s, const char *feature,
                                     const char *option, const char *value);

/**
 * Enable one feature from a libvmaf-style spec, "name" or
 * "name=opt=val:opt=val" (e.g. "adm=adm_enhn_gain_limit=1:debug=true"):
 * adds it to s->features (set s->features = 0 first to choose from scratch)
 * and sets its options.
 * @return 0, -EINVAL or -ERANGE as vmafhip_settings_set().
 */
VMAFHIP_API int vmafhip_settings_use_feature(VmafHipSettings *s, const char *spec);

/** Number of options vmafhip_settings_set() knows. */
VMAFHIP_API int vmafhip_option_count(void);

/** Description of option @p index (0 .. vmafhip_option_count() - 1), for
 *  help texts. Strings are static. @return 0 or -EINVAL. */
VMAFHIP_API int vmafhip_option_info(int index, const char **feature, const char **name,
                                    const char **help, const char **default_value,
                                    const char **range);

/** @return the number of GPUs the HIP backend can use; 0 when there is
 *  none or the library was built without GPU support. */
VMAFHIP_API int vmafhip_device_count(void);

/**
 * Create a context. With a GPU backend all device memory is allocated here;
 * nothing is allocated per frame.
 *
 * @param[out] ctx set to the new context, or NULL on failure
 * @param s        settings; need only live until the function returns
 * @return 0 on success;
 *         -EINVAL  a setting is invalid (the message says which and what is accepted),
 *         -ERANGE  the frame is too small or too large for an enabled feature,
 *         -ENOTSUP a combination this build or libvmaf does not support,
 *         -ENODEV  backend=hip without a usable GPU (or bad device index),
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
 * kept. The work runs asynchronously on the GPU backend (and on the CPU with
 * queue_depth > 1): up to queue_depth frames are in flight, and submit waits
 * for the oldest when the queue is full.
 *
 * @param dis distorted picture
 * @param ref reference picture
 * @return the frame index (0, 1, 2, ...) on success;
 *         -EINVAL a plane pointer is NULL or a stride smaller than a row,
 *         -EIO / -ENOMEM on GPU failure (the context is then unusable: every
 *         later call returns the same error).
 */
VMAFHIP_API int vmafhip_submit(VmafHipContext *ctx, const VmafHipPicture *dis,
                               const VmafHipPicture *ref);

/**
 * Names of the per-frame features, fixed at open. Names are libvmaf's output
 * names (e.g. "psnr_y", "integer_adm2"; options that are part of a libvmaf
 * feature name add libvmaf's suffix, e.g. "integer_adm2_egl_1").
 * @param[out] names array of @p count strings, valid until close
 * @return the number of names
 */
VMAFHIP_API int vmafhip_feature_names(VmafHipContext *ctx, const char *const **names);

/**
 * Scores of frame @p index, aligned with vmafhip_feature_names().
 *
 * @param wait   0: return -EAGAIN if the frame is still in flight;
 *               1: wait for it
 * @param[out] values array of doubles, valid until close
 * @return 0;
 *         -EAGAIN the frame is in flight (only with wait == 0),
 *         -EINVAL no frame with this index was submitted,
 *         -ERANGE a sample of this frame was above the bit depth's maximum
 *                 (2^bitdepth - 1): no scores exist for it,
 *         -EIO    GPU failure.
 */
VMAFHIP_API int vmafhip_frame_scores(VmafHipContext *ctx, unsigned index, int wait,
                                     const double **values);

/** Wait until every submitted frame is scored and compute end-of-stream
 *  aggregates (apsnr). Submitting after flush is allowed; flush again then.
 *  @return 0 or the first error of a frame (see vmafhip_frame_scores()). */
VMAFHIP_API int vmafhip_flush(VmafHipContext *ctx);

/** End-of-stream aggregates after vmafhip_flush() (e.g. apsnr_y; none unless
 *  enabled). @return their number; names and values valid until close. */
VMAFHIP_API int vmafhip_aggregate_scores(VmafHipContext *ctx, const char *const **names,
                                         const double **values);

/** Pool feature @p feature (an index into vmafhip_feature_names()) over all
 *  scored frames, waiting for frames in flight; frames that failed (-ERANGE)
 *  are left out. @return 0, -EINVAL (bad index) or -EAGAIN (no frame has
 *  scores), or the error of a GPU failure. */
VMAFHIP_API int vmafhip_pooled(VmafHipContext *ctx, int feature, VmafHipPooled *out);

/** Number of frames submitted so far. */
VMAFHIP_API unsigned vmafhip_frame_count(VmafHipContext *ctx);

/**
 * Write every frame's scores, pooled statistics and aggregates to @p path
 * in libvmaf's log layout (flushes first). @p path "-" writes to stdout.
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
