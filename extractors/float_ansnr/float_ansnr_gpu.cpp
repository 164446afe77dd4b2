// float_ansnr on the GPU: the GpuImpl of the table entry (docs/float_psnr.md
// §6). The constants are the filters' taps, made on the host by the function
// the CPU code takes them from (§3.1); the kernels
// (kernels/float_picture/float_picture.hip) write the frame's accumulators,
// which finish() turns into dB as for the CPU.
#include "extractors/float_ansnr/float_ansnr.h"
#include "kernels/float_picture/float_picture.h"

namespace vmafhip {

namespace {

size_t constants_bytes(const Extractor &) { return sizeof(AnsnrTaps); }

void fill_constants(const Extractor &, void *host)
{
    *static_cast<AnsnrTaps *>(host) = ansnr_taps();
}

size_t workspace_bytes(const Extractor &e)
{
    const Geometry &g = static_cast<const FloatAnsnr &>(e).geometry();
    return float_ansnr_workspace_bytes(g.w, g.h);
}

void enqueue(const Extractor &, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    float_ansnr_enqueue(static_cast<hipStream_t>(stream), f,
                        static_cast<const AnsnrTaps *>(constants), workspace,
                        static_cast<FloatAnsnrAccum *>(d_accum));
}

} // namespace

extern const GpuImpl float_ansnr_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue};

} // namespace vmafhip
