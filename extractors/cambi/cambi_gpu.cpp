// cambi on the GPU: the GpuImpl of the table entry. The constants are R
// (§2.7) and the resize index vectors (§4.2), all made on the host; the
// kernels (kernels/cambi/cambi.hip) write the unclipped scores into the
// frame's accumulators, which finish() clips as for the CPU code.
#include <cstring>

#include "extractors/cambi/cambi.h"
#include "kernels/cambi/cambi.h"

namespace vmafhip {

namespace {

const Cambi &cambi(const Extractor &e) { return static_cast<const Cambi &>(e); }

/// The passes of e: the distorted picture, and the reference with full_ref.
int pass_count(const Cambi &c) { return c.full_ref() ? 2 : 1; }

const CambiPass &pass_of(const Cambi &c, int k) { return k ? c.src_pass() : c.dis_pass(); }

/// The kernels' parameters; the index vectors are laid out in the
/// constants' int area in pass order, sx then sy.
CambiGpuParams params_of(const Cambi &c)
{
    CambiGpuParams p = {};
    p.t = c.tables();
    p.bpc = c.bpc();
    p.anti_dither = c.anti_dither();
    p.speedup = c.speedup();
    p.passes = pass_count(c);
    int32_t next = 0;
    for (int k = 0; k < p.passes; k++) {
        const CambiPass &cp = pass_of(c, k);
        CambiGpuPass &q = p.pass[k];
        q.w = cp.w;
        q.h = cp.h;
        q.ws = cp.ws;
        q.mask_index = cp.mask_index;
        q.sx = q.sy = -1;
        if (cp.resize) {
            q.sx = next;
            next += cp.w;
            q.sy = next;
            next += cp.h;
        }
        // §6: scale 0 is the target size, or half of it with the speed-up.
        int w = cp.w, h = cp.h;
        for (int s = 0; s < CAMBI_SCALES; s++) {
            if (s > 0 || c.speedup())
                w = (w + 1) >> 1, h = (h + 1) >> 1;
            q.sw[s] = w;
            q.sh[s] = h;
            q.k[s] = cambi_top_k_count(w * h, c.topk());
        }
    }
    return p;
}

size_t constants_bytes(const Extractor &e)
{
    const Cambi &c = cambi(e);
    size_t ints = CAMBI_CONST_INTS;
    for (int k = 0; k < pass_count(c); k++)
        ints += pass_of(c, k).sx.size() + pass_of(c, k).sy.size();
    return ints * sizeof(int32_t);
}

void fill_constants(const Extractor &e, void *host)
{
    const Cambi &c = cambi(e);
    std::memcpy(host, cambi_reciprocals(), CAMBI_RECIPROCALS * sizeof(float));
    int32_t *idx = static_cast<int32_t *>(host) + CAMBI_CONST_INTS;
    for (int k = 0; k < pass_count(c); k++)
        for (const std::vector<int> *v : {&pass_of(c, k).sx, &pass_of(c, k).sy})
            for (int x : *v)
                *idx++ = x;
}

size_t workspace_bytes(const Extractor &e) { return cambi_workspace_bytes(params_of(cambi(e))); }

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    cambi_enqueue(static_cast<hipStream_t>(stream), params_of(cambi(e)), f, constants, workspace,
                  static_cast<CambiAccum *>(d_accum));
}

} // namespace

extern const GpuImpl cambi_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue};

} // namespace vmafhip
