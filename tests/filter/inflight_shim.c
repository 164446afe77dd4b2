/*
 * LD_PRELOAD shim that keeps frames "in flight" for the filter tests.
 *
 * The CPU backend scores each frame inside vmafhip_submit(), so a filter run on
 * it never sees a frame that is not ready. Preloaded into ffmpeg, this shim
 * answers vmafhip_frame_scores(..., wait = 0, ...) with -EAGAIN until
 * VMAFHIP_SHIM_DELAY more frames have been submitted to the same context
 * (-1: never; only a waiting call gets the scores), as a GPU backend with
 * frames in flight does. Everything else goes to the real library.
 *
 * At exit it prints "inflight-shim: <polls answered -EAGAIN> <waiting calls>"
 * to stderr, so a test can check that the filter really held frames back.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vmafhip.h"

typedef int (*submit_fn)(VmafHipContext *, const VmafHipPicture *, const VmafHipPicture *);
typedef int (*scores_fn)(VmafHipContext *, unsigned, int, const double **);

static struct {
    VmafHipContext *ctx;
    unsigned submitted;
} contexts[64];
static unsigned long nb_eagain, nb_wait;

static unsigned *submitted_of(VmafHipContext *ctx)
{
    for (size_t i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++) {
        if (contexts[i].ctx == ctx)
            return &contexts[i].submitted;
        if (!contexts[i].ctx) {
            contexts[i].ctx = ctx;
            return &contexts[i].submitted;
        }
    }
    fprintf(stderr, "inflight-shim: too many contexts\n");
    abort();
}

static long delay(void)
{
    const char *d = getenv("VMAFHIP_SHIM_DELAY");
    return d ? strtol(d, NULL, 10) : -1;
}

int vmafhip_submit(VmafHipContext *ctx, const VmafHipPicture *dis, const VmafHipPicture *ref)
{
    static submit_fn real;
    int ret;

    if (!real)
        real = (submit_fn)dlsym(RTLD_NEXT, "vmafhip_submit");
    ret = real(ctx, dis, ref);
    if (ret >= 0)
        *submitted_of(ctx) = (unsigned)ret + 1;
    return ret;
}

int vmafhip_frame_scores(VmafHipContext *ctx, unsigned index, int wait, const double **values)
{
    static scores_fn real;
    const long d = delay();

    if (!real)
        real = (scores_fn)dlsym(RTLD_NEXT, "vmafhip_frame_scores");
    if (!wait && (d < 0 || index + (unsigned long)d >= *submitted_of(ctx))) {
        nb_eagain++;
        return -EAGAIN;
    }
    if (wait)
        nb_wait++;
    return real(ctx, index, wait, values);
}

/* A context freed and another allocated at the same address starts over. */
void vmafhip_close(VmafHipContext **ctx)
{
    static void (*real)(VmafHipContext **);

    if (!real)
        real = (void (*)(VmafHipContext **))dlsym(RTLD_NEXT, "vmafhip_close");
    if (ctx && *ctx)
        for (size_t i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++)
            if (contexts[i].ctx == *ctx)
                contexts[i].submitted = 0;
    real(ctx);
}

__attribute__((destructor)) static void report(void)
{
    fprintf(stderr, "inflight-shim: %lu %lu\n", nb_eagain, nb_wait);
}
