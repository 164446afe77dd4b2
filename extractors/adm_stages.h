// integer ADM CPU reference, one pure function per stage (docs/adm.md §15):
// scale-0 DWT, scale 1-3 DWT, decouple + CSF per coefficient, den and CM per
// row with exact per-row sums. Each works on a range of rows, so the CPU
// splits rows among threads and a GPU test can compare any intermediate with
// the kernels' output. Every § below is a section of docs/adm.md.
//
// Layout: every band of a scale is q.w x q.h, row stride q.w (tightly
// packed). Scale-0 bands are int16, scale 1-3 bands int32 (libvmaf's types).
#pragma once

#include <cstdint>

#include "extractors/frame_view.h"
#include "kernels/adm_ops.h"

namespace vmafhip {

/// §4.2: output rows [i0, i1) of the scale-0 bands out[ADM_H/V/D/A] from the
/// luma plane pic (uint8 for bpc 8, else uint16).
void adm_dwt_s0(const PlaneView &pic, int bpc, const AdmScaleParams &q, int i0, int i1,
                int16_t *const out[4]);

/// §4.3: output rows [i0, i1) of scale `scale` (1..3) from the previous A band
/// (q.in_w x q.in_h, stride q.in_w): int16 at scale 1, int32 after.
void adm_dwt_s123(const int16_t *in, const AdmScaleParams &q, int scale, int i0, int i1,
                  int32_t *const out[4]);
void adm_dwt_s123(const int32_t *in, const AdmScaleParams &q, int scale, int i0, int i1,
                  int32_t *const out[4]);

/// Outputs of decoupling + CSF (§6, §8) at one scale. The maskers are kept as
/// per-position sums over H, V, D (see adm_thr()): f = Σθ |c|/30 and
/// c = Σθ |c|/15 of the CSF-weighted band.
template <typename T> struct AdmDecoupleOut {
    T *r[3];       ///< restored bands (§6.3)
    T *a[3];       ///< additive bands, t - r
    int32_t *dlm_f; ///< masker of the DLM numerator, from CSF(a)
    int32_t *dlm_c;
    int32_t *aim_f; ///< masker of AIM, from CSF(r); nullptr: AIM skipped
    int32_t *aim_c;
};

/// §6, §8: rows [i0, i1) ∩ [q.ct, q.cb), columns [q.cl, q.cr) (the region
/// plus the masking halo; nothing else is written). ref/dis are the H, V, D bands.
void adm_decouple(const int16_t *const ref[3], const int16_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int16_t> &out);
void adm_decouple(const int32_t *const ref[3], const int32_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int32_t> &out);

/// §7: den row sums of region row i (q.top <= i < q.bottom), H, V, D, each
/// already rounded by its per-row shift.
void adm_den_row(const int16_t *const ref[3], const AdmScaleParams &q, int i, uint64_t out[3]);
void adm_den_row(const int32_t *const ref[3], const AdmScaleParams &q, int scale, int i,
                 uint64_t out[3]);

/// §9: CM row sums of region row i for test signal y (r for DLM, a for AIM)
/// masked by (f, c), H, V, D, each rounded by the per-row shift.
void adm_cm_row(const int16_t *const y[3], const int32_t *f, const int32_t *c,
                const AdmScaleParams &q, int i, int64_t out[3]);
void adm_cm_row(const int32_t *const y[3], const int32_t *f, const int32_t *c,
                const AdmScaleParams &q, int i, int64_t out[3]);

} // namespace vmafhip
