// psnr on the GPU: the launcher of kernels/psnr/psnr.hip behind the table entry.
#include "extractors/psnr/psnr.h"
#include "kernels/psnr/psnr.h"

namespace vmafhip {

namespace {

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *, void *,
             void *d_accum)
{
    psnr_enqueue(static_cast<hipStream_t>(stream), f, e.planes(),
                 static_cast<unsigned long long *>(d_accum));
}

} // namespace

extern const GpuImpl psnr_gpu = {gpu_no_bytes, gpu_no_constants, gpu_no_bytes, enqueue};

} // namespace vmafhip
