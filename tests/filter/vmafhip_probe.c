/*
 * The library's side of the filter tests: what the filter must agree with.
 *
 *   vmafhip_probe options
 *       one line per library option: feature, name, alias, default, range (tab-separated)
 *   vmafhip_probe devices
 *       the number of GPUs the library can use
 *   vmafhip_probe score W H PIX_FMT DIS REF [-f FEATURES] [-m MODELS] [-s N] [-b BACKEND]
 *       scores raw files (FFmpeg layout) through the public API and prints each
 *       scored frame as "metadata=print" would: "frame:N" and
 *       "lavfi.libvmaf_hip.NAME=%.6f". FEATURES and MODELS: the library's
 *       strings (default: none); N: n_subsample; BACKEND: cpu (default), hip, auto
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmafhip.h"

static int usage(void)
{
    fprintf(stderr, "usage: vmafhip_probe options | devices\n"
                    "       vmafhip_probe score W H PIX_FMT DIS REF [-f FEATURES] [-m MODELS] "
                    "[-s N] [-b BACKEND]\n");
    return 2;
}

static int list_options(void)
{
    const int n = vmafhip_option_count();
    for (int i = 0; i < n; i++) {
        const char *feature, *name, *alias, *help, *def, *range;
        if (vmafhip_option_info(i, &feature, &name, &alias, &help, &def, &range) < 0)
            return 1;
        printf("%s\t%s\t%s\t%s\t%s\n", feature, name, alias ? alias : "", def, range);
    }
    return 0;
}

/* "yuv420p10le" -> bit depth and chroma layout; 0 on success. */
static int parse_pix_fmt(const char *s, int *bitdepth, enum VmafHipChroma *chroma)
{
    static const struct {
        const char *prefix;
        enum VmafHipChroma chroma;
    } layouts[] = {
        {"gray", VMAFHIP_CHROMA_400},
        {"yuv420p", VMAFHIP_CHROMA_420},
        {"yuv422p", VMAFHIP_CHROMA_422},
        {"yuv444p", VMAFHIP_CHROMA_444},
    };
    for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
        const size_t len = strlen(layouts[i].prefix);
        if (strncmp(s, layouts[i].prefix, len))
            continue;
        *chroma = layouts[i].chroma;
        if (!s[len]) {
            *bitdepth = 8;
            return 0;
        }
        *bitdepth = atoi(s + len);
        if ((*bitdepth == 10 || *bitdepth == 12 || *bitdepth == 16) && strstr(s + len, "le"))
            return 0;
    }
    return -1;
}

static void log_cb(void *cookie, enum VmafHipLogLevel level, const char *fmt, va_list vl)
{
    (void)cookie;
    (void)level;
    vfprintf(stderr, fmt, vl);
}

static int score(int argc, char **argv)
{
    VmafHipSettings s;
    VmafHipContext *c = NULL;
    FILE *fd = NULL, *fr = NULL;
    unsigned char *bd = NULL, *br = NULL;
    const char *backend = "cpu";
    int ret = 1;

    if (argc < 7)
        return usage();
    vmafhip_default_settings(&s);
    s.models = NULL;
    s.log_callback = log_cb;
    s.width = atoi(argv[2]);
    s.height = atoi(argv[3]);
    if (parse_pix_fmt(argv[4], &s.bitdepth, &s.chroma) < 0) {
        fprintf(stderr, "vmafhip_probe: unknown pixel format %s\n", argv[4]);
        return 2;
    }
    for (int i = 7; i < argc; i++) {
        if (!strcmp(argv[i], "-f") && i + 1 < argc)
            s.features = argv[++i];
        else if (!strcmp(argv[i], "-m") && i + 1 < argc)
            s.models = argv[++i];
        else if (!strcmp(argv[i], "-s") && i + 1 < argc)
            s.n_subsample = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-b") && i + 1 < argc)
            backend = argv[++i];
        else
            return usage();
    }
    s.backend = !strcmp(backend, "hip") ? VMAFHIP_BACKEND_HIP :
                !strcmp(backend, "auto") ? VMAFHIP_BACKEND_AUTO : VMAFHIP_BACKEND_CPU;

    const int bps = s.bitdepth > 8 ? 2 : 1;
    const int cw = s.chroma == VMAFHIP_CHROMA_444 ? s.width : (s.width + 1) / 2;
    const int ch = s.chroma == VMAFHIP_CHROMA_420 ? (s.height + 1) / 2 : s.height;
    const int planes = s.chroma == VMAFHIP_CHROMA_400 ? 1 : 3;
    const size_t luma = (size_t)s.width * s.height * bps;
    const size_t chroma = planes == 3 ? (size_t)cw * ch * bps : 0;
    const size_t frame = luma + 2 * chroma;

    if (vmafhip_open(&c, &s) < 0)
        return 1;
    fd = fopen(argv[5], "rb");
    fr = fopen(argv[6], "rb");
    bd = malloc(frame);
    br = malloc(frame);
    if (!fd || !fr || !bd || !br) {
        fprintf(stderr, "vmafhip_probe: cannot open %s or %s\n", argv[5], argv[6]);
        goto end;
    }
    while (fread(bd, 1, frame, fd) == frame && fread(br, 1, frame, fr) == frame) {
        VmafHipPicture d, r;
        memset(&d, 0, sizeof(d));
        memset(&r, 0, sizeof(r));
        for (int p = 0; p < planes; p++) {
            const size_t off = p ? luma + (p - 1) * chroma : 0;
            const ptrdiff_t stride = (ptrdiff_t)(p ? cw : s.width) * bps;
            d.data[p] = bd + off;
            r.data[p] = br + off;
            d.stride[p] = r.stride[p] = stride;
        }
        if (vmafhip_submit(c, &d, &r) < 0)
            goto end;
    }
    if (vmafhip_flush(c) < 0)
        goto end;
    {
        const char *const *names;
        const int n = vmafhip_feature_names(c, &names);
        for (unsigned f = 0; f < vmafhip_frame_count(c); f++) {
            const double *v;
            const int st = vmafhip_frame_scores(c, f, 1, &v);
            if (st < 0)
                goto end;
            if (st == VMAFHIP_FRAME_SKIPPED)
                continue;
            printf("frame:%u\n", f);
            for (int i = 0; i < n; i++)
                printf("lavfi.libvmaf_hip.%s=%.6f\n", names[i], v[i]);
        }
    }
    ret = 0;
end:
    if (fd)
        fclose(fd);
    if (fr)
        fclose(fr);
    free(bd);
    free(br);
    vmafhip_close(&c);
    return ret;
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "options"))
        return list_options();
    if (argc >= 2 && !strcmp(argv[1], "devices")) {
        printf("%d\n", vmafhip_device_count());
        return 0;
    }
    if (argc >= 2 && !strcmp(argv[1], "score"))
        return score(argc, argv);
    return usage();
}
