// integer ADM on the GPU: the launcher of kernels/adm/adm.hip behind the table entry.
#include "extractors/adm/adm.h"
#include "kernels/adm/adm.h"

namespace vmafhip {

namespace {

size_t workspace_bytes(const Extractor &e)
{
    return adm_workspace_bytes(static_cast<const Adm &>(e).params());
}

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *,
             void *workspace, void *d_accum)
{
    adm_enqueue(static_cast<hipStream_t>(stream), static_cast<const Adm &>(e).params(), f,
                workspace, static_cast<AdmAccum *>(d_accum));
}

} // namespace

extern const GpuImpl adm_gpu = {gpu_no_bytes, gpu_no_constants, workspace_bytes, enqueue};

} // namespace vmafhip
