// float_ms_ssim on the GPU: the launcher of kernels/ms_ssim/ms_ssim.hip
// behind the table entry.
#include "extractors/ms_ssim/ms_ssim.h"
#include "kernels/ms_ssim/ms_ssim.h"

namespace vmafhip {

namespace {

size_t workspace_bytes(const Extractor &e)
{
    return ms_ssim_workspace_bytes(static_cast<const MsSsim &>(e).scale_sizes());
}

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *,
             void *workspace, void *d_accum)
{
    ms_ssim_enqueue(static_cast<hipStream_t>(stream), static_cast<const MsSsim &>(e).scale_sizes(),
                    f, workspace, static_cast<MsSsimAccum *>(d_accum));
}

} // namespace

extern const GpuImpl ms_ssim_gpu = {gpu_no_bytes, gpu_no_constants, workspace_bytes, enqueue};

} // namespace vmafhip
