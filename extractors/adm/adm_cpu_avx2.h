// The AVX2 kernels of the integer ADM CPU stages (AdmKernels, adm_stages.h).
// They give the plain kernels' integers: each narrowing, int64 product and
// rounding shift of adm_ops.h is done exactly, in lanes (adm_cpu_avx2_ops.h).
#pragma once

#include "base/avx2.h"
#include "extractors/adm/adm_stages.h"

namespace vmafhip {

/// The AVX2 table, or nullptr when this is not an x86-64 build or the CPU
/// has no AVX2 (checked once).
const AdmKernels *adm_kernels_avx2();

#if defined(__x86_64__)

namespace adm_avx2 {

// The kernels, one per AdmKernels entry (adm_cpu_avx2_dwt.cpp,
// adm_cpu_avx2_decouple.cpp, adm_cpu_avx2_sums.cpp). Only for a CPU with AVX2.
VMAFHIP_AVX2 void s0_vert8(const uint8_t *const s[4], int bpc, int b, int e, int16_t *lo,
                           int16_t *hi);
VMAFHIP_AVX2 void s0_vert16(const uint16_t *const s[4], int bpc, int b, int e, int16_t *lo,
                            int16_t *hi);
VMAFHIP_AVX2 void s0_hori(const int16_t *l, const int16_t *h, int b, int e, int16_t *const out[4]);
VMAFHIP_AVX2 void s123_vert16(const int16_t *const s[4], int shift, int b, int e, int32_t *lo,
                              int32_t *hi);
VMAFHIP_AVX2 void s123_vert32(const int32_t *const s[4], int shift, int b, int e, int32_t *lo,
                              int32_t *hi);
VMAFHIP_AVX2 void s123_hori(const int32_t *l, const int32_t *h, int shift, int b, int e,
                            int32_t *const out[4]);
VMAFHIP_AVX2 void decouple_s0(const int16_t *const ref[3], const int16_t *const dis[3], double egl,
                              ptrdiff_t b, ptrdiff_t e, int16_t *const r[3], int16_t *const a[3]);
VMAFHIP_AVX2 void decouple_s123(const int32_t *const ref[3], const int32_t *const dis[3],
                                double egl, ptrdiff_t b, ptrdiff_t e, int32_t *const r[3],
                                int32_t *const a[3]);
VMAFHIP_AVX2 void masker_s0(const int16_t *const x[3], const uint32_t irf[3], ptrdiff_t b,
                            ptrdiff_t e, int32_t *f, int32_t *c);
VMAFHIP_AVX2 void masker_s123(const int32_t *const x[3], const uint32_t irf[3], ptrdiff_t b,
                              ptrdiff_t e, int32_t *f, int32_t *c);
VMAFHIP_AVX2 void den_s0(const int16_t *const o[3], int b, int e, uint64_t sum[3]);
VMAFHIP_AVX2 void den_s123(const int32_t *const o[3], int scale, int cub, int b, int e,
                           uint64_t sum[3]);
VMAFHIP_AVX2 void cm_s0(const int16_t *const y[3], const int32_t *f, const int32_t *c,
                        const AdmScaleParams &q, int i, int b, int e, int64_t sum[3]);
VMAFHIP_AVX2 void cm_s123(const int32_t *const y[3], const int32_t *f, const int32_t *c,
                          const AdmScaleParams &q, int i, int b, int e, int64_t sum[3]);

} // namespace adm_avx2
#endif

} // namespace vmafhip
