// float_adm kernels: the four scales of one frame pair on the device, each
// value through kernels/float_adm/float_adm_ops.h, each float sum in the
// CPU's order (docs/float_adm.md §12).
#pragma once

#include <cstddef>
#include <cstdint>

#include "kernels/float_adm/float_adm_ops.h"
#include "kernels/frame.h"
#include "kernels/gpu_compat.h"

namespace vmafhip {

/// One scale: its input (the picture at scale 0, the previous scale's
/// approximation after) and band sizes, its region (§3) and CSF weights by
/// orientation (§5).
struct FadmScale {
    int w, h;   ///< input
    int bw, bh; ///< bands: ceil(w / 2) x ceil(h / 2)
    FadmRegion g;
    float rf[FADM_ORIENTATIONS];
};

/// What the kernels of a frame read besides the pictures, host-built.
struct FadmParams {
    int bpc;
    int skip_scale0; ///< adm_skip_scale0: scale 0 runs its DWT only
    int bypass_cm;   ///< adm_bypass_cm
    double egl;      ///< adm_enhn_gain_limit
    FadmPower power; ///< adm_p_norm
    float cos_1deg_sq;
    FadmScale sc[FLOAT_ADM_SCALES];
};

/// The scales of a w x h picture with the weights rf3[scale][orientation].
FadmParams float_adm_params(int w, int h, int bpc, int skip_scale0, int bypass_cm, double egl,
                            FadmPower power, float cos_1deg_sq,
                            const float rf3[FLOAT_ADM_SCALES][FADM_ORIENTATIONS]);

/// Device scratch memory float_adm_enqueue() needs for a w x h frame.
size_t float_adm_workspace_bytes(int w, int h);

/// Enqueue float_adm of the staged luma of f; writes *d_out (zeroed by the
/// caller). rcp_table: fadm_rcp()'s table in device memory, or nullptr to
/// divide as IEEE does (§6.1).
void float_adm_enqueue(hipStream_t stream, const GpuFrame &f, const FadmParams &p,
                       const uint32_t *rcp_table, void *workspace, FloatAdmAccum *d_out);

} // namespace vmafhip
