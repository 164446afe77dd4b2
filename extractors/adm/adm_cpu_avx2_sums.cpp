// AVX2 kernels of the ADM row sums: the denominator terms (docs/adm.md §7)
// and the contrast-masked energies (§9). The rest of each span, and the
// columns whose masking neighbours are mirrored, go to the plain kernels.
#if defined(__x86_64__)
#include "extractors/adm/adm_cpu_avx2_ops.h"

namespace vmafhip::adm_avx2 {

namespace {

/// adm_den_s0 of 8 int16 values, added to the int64 lanes of acc: u^2 <= 2^30
/// by madd (u an int16 pair (u, 0), u <= 32768), then u^2 * u.
VMAFHIP_AVX2 inline V den_s0_8(const int16_t *o, V acc)
{
    const V u = _mm256_abs_epi32(load16(o));
    const V sq = _mm256_madd_epi16(u, u);
    acc = _mm256_add_epi64(acc, _mm256_mul_epu32(sq, u));
    return _mm256_add_epi64(acc, _mm256_mul_epu32(odd(sq), odd(u)));
}

/// adm_den_s123 of the low int32 halves u of the int64 lanes (u <= 2^31 as
/// uint32): the rounded square may reach 2^32 + 1 at sq = 30, so its bit 32
/// is multiplied apart.
VMAFHIP_AVX2 inline V den_s123_half(V u, V sq_add, __m128i sq, V cub_add, __m128i cub)
{
    const V s = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(u, u), sq_add), sq);
    const V v =
        _mm256_add_epi64(_mm256_mul_epu32(s, u),
                         _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(s, 32), u), 32));
    return _mm256_srl_epi64(_mm256_add_epi64(v, cub_add), cub);
}

/**
 * The masked energy (x2 x + half(cub)) >> cub of the low int32 halves x of
 * the int64 lanes (0 <= x < 2^31), x2 = i32((x^2 + sq_add) >> sq). x2 may be
 * negative (after the narrowing), so the last shift must be arithmetic:
 * cub_add carries 2^63 besides half(cub), which makes the logical shift give
 * the arithmetic one plus 2^(63 - cub); the caller takes that off.
 */
VMAFHIP_AVX2 inline V cube_half(V x, V sq_add, __m128i sq, V cub_add, __m128i cub)
{
    const V x2 = _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epu32(x, x), sq_add), sq);
    return _mm256_srl_epi64(_mm256_add_epi64(_mm256_mul_epi32(x2, x), cub_add), cub);
}

/// The shifts and adds of cube_half for one orientation.
struct Cube {
    V sq_add, cub_add;
    __m128i sq, cub;
    uint64_t bias; ///< 2^(63 - cub), added to every term by cube_half
};
VMAFHIP_AVX2 inline Cube cube_of(int sq, int cub)
{
    const uint64_t top = static_cast<uint64_t>(1) << 63;
    return {set64(static_cast<int64_t>(1) << (sq - 1)),
            set64(static_cast<int64_t>(top + static_cast<uint64_t>(adm_half(cub)))),
            _mm_cvtsi32_si128(sq), _mm_cvtsi32_si128(cub), top >> cub};
}

/// Both halves of 8 values x >= 0 into acc.
VMAFHIP_AVX2 inline V cube8(V x, const Cube &c, V acc)
{
    acc = _mm256_add_epi64(acc, cube_half(x, c.sq_add, c.sq, c.cub_add, c.cub));
    return _mm256_add_epi64(acc, cube_half(odd(x), c.sq_add, c.sq, c.cub_add, c.cub));
}

/// adm_thr at columns j .. j + 7 of row i, none of them mirrored.
VMAFHIP_AVX2 inline V thr8(const int32_t *up, const int32_t *mid, const int32_t *dn,
                           const int32_t *c, int j)
{
    V s = _mm256_add_epi32(load(up + j - 1), load(up + j));
    s = _mm256_add_epi32(s, _mm256_add_epi32(load(up + j + 1), load(mid + j - 1)));
    s = _mm256_add_epi32(s, _mm256_add_epi32(load(mid + j + 1), load(dn + j - 1)));
    s = _mm256_add_epi32(s, _mm256_add_epi32(load(dn + j), load(dn + j + 1)));
    return _mm256_add_epi32(s, load(c + j));
}

/// Scale-0 masked values x of one orientation: max(|irf y| - (thr << sub), 0)
/// in wrapping int32 arithmetic, as adm_cm_s0 (|irf y| < 2^31).
struct Cm0 {
    using T = int16_t;
    V irf;
    __m128i sub;
    Cube cube;
    VMAFHIP_AVX2 static Cm0 of(const AdmScaleParams &q, int t)
    {
        return {set32(static_cast<int32_t>(q.irf[t])), _mm_cvtsi32_si128(t == ADM_D ? 12 : 10),
                cube_of(t == ADM_D ? 30 : 29, q.cm_cub[t])};
    }
    VMAFHIP_AVX2 V x(const int16_t *y, V thr) const
    {
        const V v = _mm256_abs_epi32(_mm256_mullo_epi32(load16(y), irf));
        return _mm256_max_epi32(_mm256_sub_epi32(v, _mm256_sll_epi32(thr, sub)),
                                _mm256_setzero_si256());
    }
};

/// Scales 1-3, as adm_cm_s123: the test signal weighted by adm_csf_s123.
struct Cm123 {
    using T = int32_t;
    Irf123 irf;
    Cube cube;
    VMAFHIP_AVX2 static Cm123 of(const AdmScaleParams &q, int t)
    {
        return {irf123(q.irf[t]), cube_of(30, q.cm_cub[t])};
    }
    VMAFHIP_AVX2 V x(const int32_t *y, V thr) const
    {
        const V v = _mm256_abs_epi32(csf_s123(load(y), irf));
        return _mm256_max_epi32(_mm256_sub_epi32(v, thr), _mm256_setzero_si256());
    }
};

template <typename Cm>
VMAFHIP_AVX2 void cm_span(const typename Cm::T *const y[3], const int32_t *f, const int32_t *c,
                          const AdmScaleParams &q, int i, int b, int e, int64_t sum[3],
                          void (*rest)(const typename Cm::T *const *, const int32_t *,
                                       const int32_t *, const AdmScaleParams &, int, int, int,
                                       int64_t *))
{
    // Vectors cover the columns whose neighbours j - 1, j + 1 are in the band.
    const int vb = b > 1 ? b : 1, ve = e < q.w - 1 ? e : q.w - 1;
    if (ve - vb < 8) {
        rest(y, f, c, q, i, b, e, sum);
        return;
    }
    rest(y, f, c, q, i, b, vb, sum);
    const ptrdiff_t w = q.w, o = i * w;
    const int32_t *up = f + adm_mirror(i - 1, q.h) * w, *mid = f + o,
                  *dn = f + adm_mirror(i + 1, q.h) * w;
    const Cm m[3] = {Cm::of(q, 0), Cm::of(q, 1), Cm::of(q, 2)};
    V acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    int j = vb;
    for (; j + 8 <= ve; j += 8) {
        const V thr = thr8(up, mid, dn, c + o, j); // shared by H, V, D (§9.1)
        for (int t = 0; t < 3; t++)
            acc[t] = cube8(m[t].x(y[t] + o + j, thr), m[t].cube, acc[t]);
    }
    const uint64_t terms = static_cast<uint64_t>(j - vb);
    for (int t = 0; t < 3; t++)
        sum[t] += static_cast<int64_t>(avx2_sum64(acc[t]) - terms * m[t].cube.bias);
    rest(y, f, c, q, i, j, e, sum);
}

} // namespace

void den_s0(const int16_t *const o[3], int b, int e, uint64_t sum[3])
{
    int j = b;
    V acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (; j + 8 <= e; j += 8)
        for (int t = 0; t < 3; t++)
            acc[t] = den_s0_8(o[t] + j, acc[t]);
    for (int t = 0; t < 3; t++)
        sum[t] += avx2_sum64(acc[t]);
    adm_kernels_scalar().den_s0(o, j, e, sum);
}

void den_s123(const int32_t *const o[3], int scale, int cub, int b, int e, uint64_t sum[3])
{
    const int sqs = scale == 2 ? 30 : 31; // adm_den_s123
    const V sq_add = set64(static_cast<int64_t>(1) << sqs), cub_add = set64(adm_half(cub));
    const __m128i sq = _mm_cvtsi32_si128(sqs), cs = _mm_cvtsi32_si128(cub);
    int j = b;
    V acc[3] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
    for (; j + 8 <= e; j += 8)
        for (int t = 0; t < 3; t++) {
            const V u = _mm256_abs_epi32(load(o[t] + j));
            acc[t] = _mm256_add_epi64(acc[t], den_s123_half(u, sq_add, sq, cub_add, cs));
            acc[t] = _mm256_add_epi64(acc[t], den_s123_half(odd(u), sq_add, sq, cub_add, cs));
        }
    for (int t = 0; t < 3; t++)
        sum[t] += avx2_sum64(acc[t]);
    adm_kernels_scalar().den_s123(o, scale, cub, j, e, sum);
}

void cm_s0(const int16_t *const y[3], const int32_t *f, const int32_t *c, const AdmScaleParams &q,
           int i, int b, int e, int64_t sum[3])
{
    cm_span<Cm0>(y, f, c, q, i, b, e, sum, adm_kernels_scalar().cm_s0);
}

void cm_s123(const int32_t *const y[3], const int32_t *f, const int32_t *c, const AdmScaleParams &q,
             int i, int b, int e, int64_t sum[3])
{
    cm_span<Cm123>(y, f, c, q, i, b, e, sum, adm_kernels_scalar().cm_s123);
}

} // namespace vmafhip::adm_avx2
#endif
