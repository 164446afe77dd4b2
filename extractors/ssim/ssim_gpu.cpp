// float_ssim on the GPU: the launcher of kernels/ssim/ssim.hip behind the table entry.
#include "extractors/ssim/ssim.h"
#include "kernels/ssim/ssim.h"

namespace vmafhip {

namespace {

size_t workspace_bytes(const Extractor &e)
{
    return ssim_workspace_bytes(static_cast<const Ssim &>(e).params());
}

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *,
             void *workspace, void *d_accum)
{
    ssim_enqueue(static_cast<hipStream_t>(stream), static_cast<const Ssim &>(e).params(), f,
                 workspace, static_cast<SsimAccum *>(d_accum));
}

} // namespace

extern const GpuImpl ssim_gpu = {gpu_no_bytes, gpu_no_constants, workspace_bytes, enqueue};

} // namespace vmafhip
