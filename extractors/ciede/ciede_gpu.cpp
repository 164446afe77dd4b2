// ciede on the GPU: the launcher of kernels/ciede/ciede.hip behind the table entry.
#include "extractors/ciede/ciede.h"
#include "extractors/powf_kind.h"
#include "kernels/ciede/ciede.h"

namespace vmafhip {

namespace {

size_t workspace_bytes(const Extractor &e)
{
    const Geometry &g = static_cast<const Ciede &>(e).geometry();
    return ciede_workspace_bytes(g.w, g.h);
}

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *,
             void *workspace, void *d_accum)
{
    ciede_enqueue(static_cast<hipStream_t>(stream), f, static_cast<const Ciede &>(e).geometry().ss_x(),
                  host_powf_kind(), workspace, static_cast<CiedeAccum *>(d_accum));
}

} // namespace

extern const GpuImpl ciede_gpu = {gpu_no_bytes, gpu_no_constants, workspace_bytes, enqueue};

} // namespace vmafhip
