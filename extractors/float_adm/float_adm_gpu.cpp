// float_adm on the GPU: the launcher of kernels/float_adm/float_adm.hip behind
// the table entry. The constants are the host's reciprocal table (§6.1),
// where the host divides with rcpss; the backend refuses the extractor where
// that table does not reproduce this processor's rcpss (docs/float_adm.md §12).
#include <cstring>
#include <string>

#include "extractors/float_adm/float_adm.h"
#include "extractors/powf_kind.h"
#include "kernels/float_adm/float_adm.h"

namespace vmafhip {

namespace {

const FloatAdm &fadm(const Extractor &e) { return static_cast<const FloatAdm &>(e); }

size_t constants_bytes(const Extractor &)
{
    return float_adm_uses_rcp() ? sizeof(uint32_t) * FADM_RCP_ENTRIES : 0;
}

void fill_constants(const Extractor &, void *host)
{
    if (!float_adm_uses_rcp())
        return;
    std::string why;
    const uint32_t *table = float_adm_rcp_table(&why);
    // refuse() kept the backend from opening without a table.
    if (table)
        std::memcpy(host, table, sizeof(uint32_t) * FADM_RCP_ENTRIES);
    else
        std::memset(host, 0, sizeof(uint32_t) * FADM_RCP_ENTRIES);
}

size_t workspace_bytes(const Extractor &e)
{
    const Geometry &g = fadm(e).geometry();
    return float_adm_workspace_bytes(g.w, g.h);
}

void enqueue(const Extractor &e, GpuStream stream, const GpuFrame &f, const void *constants,
             void *workspace, void *d_accum)
{
    const FloatAdm &x = fadm(e);
    const FloatAdmOptions &o = x.options();
    float rf3[FLOAT_ADM_SCALES][FADM_ORIENTATIONS];
    for (int s = 0; s < FLOAT_ADM_SCALES; s++)
        for (int t = 0; t < FADM_ORIENTATIONS; t++)
            rf3[s][t] = x.rf3(s)[t];
    const FadmParams p = float_adm_params(f.ref[0].w, f.ref[0].h, f.bpc, o.skip_scale0, o.bypass_cm,
                                          o.enhn_gain_limit, {o.p_norm, host_powf_kind()},
                                          float_adm_cos_1deg_sq(), rf3);
    const uint32_t *table = float_adm_uses_rcp() ? static_cast<const uint32_t *>(constants) : nullptr;
    float_adm_enqueue(static_cast<hipStream_t>(stream), f, p, table, workspace,
                      static_cast<FloatAdmAccum *>(d_accum));
}

std::string refuse(const Extractor &)
{
    std::string why;
    if (float_adm_uses_rcp() && !float_adm_rcp_table(&why))
        return "libvmaf divides with the processor's rcpss estimate, which the GPU reproduces "
               "from a table of it, and " + why;
    return "";
}

} // namespace

extern const GpuImpl float_adm_gpu = {constants_bytes, fill_constants, workspace_bytes, enqueue,
                                      refuse};

} // namespace vmafhip
