// integer ADM CPU reference, one pure function per stage (docs/adm.md §15):
// scale-0 DWT, scale 1-3 DWT, decouple + CSF per coefficient, den and CM per
// row with exact per-row sums. Each works on a range of rows, so the CPU
// splits rows among threads and a GPU test can compare any intermediate with
// the kernels' output. Every § below is a section of docs/adm.md.
//
// The stages walk rows (mirrors, padding, per-row rounding); the loops along
// a row are the kernels of an AdmKernels table: the plain C++ ones of this
// file, or the AVX2 ones (adm_cpu_avx2.h), which give the same integers.
//
// Layout: every band of a scale is q.w x q.h, row stride q.w (tightly
// packed). Scale-0 bands are int16, scale 1-3 bands int32 (libvmaf's types).
#pragma once

#include <cstddef>
#include <cstdint>

#include "extractors/frame_view.h"
#include "kernels/adm/adm_ops.h"

namespace vmafhip {

class ThreadPool;

/**
 * The loops along one row of every stage, over a span [b, e) of columns
 * (DWT, den, CM) or of positions in the bands (decoupling, maskers). A
 * vectorised table runs whole vectors and hands the rest of a span to the
 * plain table's kernel, so the two agree wherever their results are defined.
 * The DWT's padded rows hold p[x + 1] = row[M(x)] (§3.3), so output j reads
 * p[2j] .. p[2j + 3].
 */
struct AdmKernels {
    /// §4.2 vertical pass, columns [b, e): lo[x], hi[x] from rows s[0..3].
    void (*s0_vert8)(const uint8_t *const s[4], int bpc, int b, int e, int16_t *lo, int16_t *hi);
    void (*s0_vert16)(const uint16_t *const s[4], int bpc, int b, int e, int16_t *lo, int16_t *hi);
    /// §4.2 horizontal pass of the padded rows l (vertical lo) and h (hi):
    /// outputs [b, e) of the bands out[ADM_H/V/D/A] (row pointers).
    void (*s0_hori)(const int16_t *l, const int16_t *h, int b, int e, int16_t *const out[4]);
    /// §4.3 vertical pass with the given shift, columns [b, e).
    void (*s123_vert16)(const int16_t *const s[4], int shift, int b, int e, int32_t *lo,
                        int32_t *hi);
    void (*s123_vert32)(const int32_t *const s[4], int shift, int b, int e, int32_t *lo,
                        int32_t *hi);
    /// §4.3 horizontal pass, as s0_hori.
    void (*s123_hori)(const int32_t *l, const int32_t *h, int shift, int b, int e,
                      int32_t *const out[4]);
    /// §6 r and a at positions [b, e) of the H, V, D bands.
    void (*decouple_s0)(const int16_t *const ref[3], const int16_t *const dis[3], double egl,
                        ptrdiff_t b, ptrdiff_t e, int16_t *const r[3], int16_t *const a[3]);
    void (*decouple_s123)(const int32_t *const ref[3], const int32_t *const dis[3], double egl,
                          ptrdiff_t b, ptrdiff_t e, int32_t *const r[3], int32_t *const a[3]);
    /// §8, §9.1 maskers at positions [b, e): f = Σθ |csf(x)|/30 and
    /// c = Σθ |csf(x)|/15 (both overwritten).
    void (*masker_s0)(const int16_t *const x[3], const uint32_t irf[3], ptrdiff_t b, ptrdiff_t e,
                      int32_t *f, int32_t *c);
    void (*masker_s123)(const int32_t *const x[3], const uint32_t irf[3], ptrdiff_t b,
                        ptrdiff_t e, int32_t *f, int32_t *c);
    /// §7: adds the den terms of columns [b, e) of the rows o[θ] to sum[θ].
    void (*den_s0)(const int16_t *const o[3], int b, int e, uint64_t sum[3]);
    void (*den_s123)(const int32_t *const o[3], int scale, int cub, int b, int e, uint64_t sum[3]);
    /// §9: adds the masked energies of columns [b, e) of region row i, test
    /// signal y (the bands), maskers f and c (planes), to sum[θ].
    void (*cm_s0)(const int16_t *const y[3], const int32_t *f, const int32_t *c,
                  const AdmScaleParams &q, int i, int b, int e, int64_t sum[3]);
    void (*cm_s123)(const int32_t *const y[3], const int32_t *f, const int32_t *c,
                    const AdmScaleParams &q, int i, int b, int e, int64_t sum[3]);
};

/// The plain C++ kernels: the reference every other table is tested against.
const AdmKernels &adm_kernels_scalar();

/// §4.2: output rows [i0, i1) of the scale-0 bands out[ADM_H/V/D/A] from the
/// luma plane pic (uint8 for bpc 8, else uint16).
void adm_dwt_s0(const AdmKernels &k, const PlaneView &pic, int bpc, const AdmScaleParams &q,
                int i0, int i1, int16_t *const out[4]);

/// §4.3: output rows [i0, i1) of scale `scale` (1..3) from the previous A band
/// (q.in_w x q.in_h, stride q.in_w): int16 at scale 1, int32 after.
void adm_dwt_s123(const AdmKernels &k, const int16_t *in, const AdmScaleParams &q, int scale,
                  int i0, int i1, int32_t *const out[4]);
void adm_dwt_s123(const AdmKernels &k, const int32_t *in, const AdmScaleParams &q, int scale,
                  int i0, int i1, int32_t *const out[4]);

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
void adm_decouple(const AdmKernels &k, const int16_t *const ref[3], const int16_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int16_t> &out);
void adm_decouple(const AdmKernels &k, const int32_t *const ref[3], const int32_t *const dis[3],
                  const AdmScaleParams &q, double egl, int i0, int i1,
                  const AdmDecoupleOut<int32_t> &out);

/// §7: den row sums of region row i (q.top <= i < q.bottom), H, V, D, each
/// already rounded by its per-row shift.
void adm_den_row(const AdmKernels &k, const int16_t *const ref[3], const AdmScaleParams &q, int i,
                 uint64_t out[3]);
void adm_den_row(const AdmKernels &k, const int32_t *const ref[3], const AdmScaleParams &q,
                 int scale, int i, uint64_t out[3]);

/// §9: CM row sums of region row i for test signal y (r for DLM, a for AIM)
/// masked by (f, c), H, V, D, each rounded by the per-row shift.
void adm_cm_row(const AdmKernels &k, const int16_t *const y[3], const int32_t *f,
                const int32_t *c, const AdmScaleParams &q, int i, int64_t out[3]);
void adm_cm_row(const AdmKernels &k, const int32_t *const y[3], const int32_t *f,
                const int32_t *c, const AdmScaleParams &q, int i, int64_t out[3]);

/// One whole frame on the CPU with table k, in fresh scratch (adm_cpu.cpp):
/// Adm::cpu runs the same with the fastest table the CPU has. Tests compare
/// the tables' accumulators with it.
void adm_cpu_frame(const AdmKernels &k, const AdmParams &p, const FrameView &f, ThreadPool &pool,
                   AdmAccum *acc);

} // namespace vmafhip
