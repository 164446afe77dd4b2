// float_moment on the GPU: the launcher of
// kernels/float_picture/float_picture.hip behind the table entry
// (docs/float_psnr.md §6).
#include "extractors/float_moment/float_moment.h"
#include "kernels/float_picture/float_picture.h"

namespace vmafhip {

namespace {

size_t workspace_bytes(const Extractor &e)
{
    const Geometry &g = static_cast<const FloatMoment &>(e).geometry();
    return float_moment_workspace_bytes(g.w, g.h);
}

void enqueue(const Extractor &, GpuStream stream, const GpuFrame &f, const void *,
             void *workspace, void *d_accum)
{
    float_moment_enqueue(static_cast<hipStream_t>(stream), f, workspace,
                         static_cast<FloatMomentAccum *>(d_accum));
}

} // namespace

extern const GpuImpl float_moment_gpu = {gpu_no_bytes, gpu_no_constants, workspace_bytes, enqueue};

} // namespace vmafhip
