// psnr_hvs on the GPU: the GpuImpl of the table entry. The constants are the
// three planes' CSF and masking weights (§4.1), made on the host by the same
// function as the CPU code's; the kernels (kernels/psnr_hvs/psnr_hvs.hip)
// write the frame's accumulators, which finish() turns into dB as for the CPU.
#include "extractors/psnr_hvs/psnr_hvs.h"
#include "kernels/psnr_hvs/psnr_hvs.h"

namespace vmafhip {

namespace {

size_t constants_bytes(const Extractor &) { return 3 * sizeof(PsnrHvsWeights); }

void fill_constants(const Extractor &, void *host)
{
    PsnrHvsWeights *w = static_cast<PsnrHvsWeights *>(host);
    for (int p = 0; p < 3; p++)
        w[p] = psnr_hvs_weights(p);
}

size_t workspace_bytes(const Extractor &e)
{
    const Geometry &g = static_cast<const PsnrHvs &>(e).geometry();
    const int w[3] = {g.scored_w(0), g.scored_w(1), g.scored_w(2)};
    const int h[3] = {g.scored_h(0), g.scored_h(1), g.scored_h(2)};
    return psnr_hvs_workspace_bytes(w, h);
}

void enqueue(const Extractor &, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    psnr_hvs_enqueue(static_cast<hipStream_t>(stream), f,
                     static_cast<const PsnrHvsWeights *>(constants), workspace,
                     static_cast<PsnrHvsAccum *>(d_accum));
}

} // namespace

extern const GpuImpl psnr_hvs_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue};

} // namespace vmafhip
