// float_psnr on the GPU: the launcher of kernels/float_picture/float_picture.hip
// behind the table entry (docs/float_psnr.md §6).
#include "extractors/float_psnr/float_psnr.h"
#include "kernels/float_picture/float_picture.h"

namespace vmafhip {

namespace {

size_t workspace_bytes(const Extractor &e)
{
    const Geometry &g = static_cast<const FloatPsnr &>(e).geometry();
    return float_psnr_workspace_bytes(g.w, g.h);
}

void enqueue(const Extractor &, GpuStream stream, const GpuFrame &f, const void *,
             void *workspace, void *d_accum)
{
    float_psnr_enqueue(static_cast<hipStream_t>(stream), f, workspace,
                       static_cast<FloatPsnrAccum *>(d_accum));
}

} // namespace

extern const GpuImpl float_psnr_gpu = {gpu_no_bytes, gpu_no_constants, workspace_bytes, enqueue};

} // namespace vmafhip
