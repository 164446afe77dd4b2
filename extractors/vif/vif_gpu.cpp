// integer VIF on the GPU: the GpuImpl of the "vif" table entry. The log2
// table is the one the CPU reference uses (docs/vif.md §5), uploaded once as
// the entry's constants; the kernels are in kernels/vif/vif.hip.
#include <cstring>

#include "extractors/vif/vif.h"
#include "kernels/vif/vif.h"

namespace vmafhip {

namespace {

const Vif &vif_of(const Extractor &e) { return static_cast<const Vif &>(e); }

size_t constants_bytes(const Extractor &) { return VIF_LOG2_ENTRIES * sizeof(uint16_t); }

void fill_constants(const Extractor &, void *host)
{
    std::memcpy(host, vif_log2_table(), VIF_LOG2_ENTRIES * sizeof(uint16_t));
}

size_t workspace_bytes(const Extractor &e) { return vif_workspace_bytes(vif_of(e).params()); }

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    vif_enqueue(static_cast<hipStream_t>(stream), vif_of(e).params(), f,
                static_cast<const uint16_t *>(constants), workspace, static_cast<VifAccum *>(d_accum));
}

} // namespace

const GpuImpl vif_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue};

} // namespace vmafhip
