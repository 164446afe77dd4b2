// AVX2 kernels of the ADM decoupling and maskers (docs/adm.md §6, §8, §9.1).
// The rest of each span goes to the plain kernels.
#if defined(__x86_64__)
#include "extractors/adm/adm_cpu_avx2_ops.h"

namespace vmafhip::adm_avx2 {

namespace {

template <typename T> VMAFHIP_AVX2 inline __m128i load128(const T *p)
{
    return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}

/// The 4 int64 compare masks of positions 0-3 (lo) and 4-7 (hi) as 8 int32.
VMAFHIP_AVX2 inline V mask32(D lo, D hi)
{
    const __m256 v =
        _mm256_shuffle_ps(_mm256_castpd_ps(lo), _mm256_castpd_ps(hi), _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_permute4x64_epi64(_mm256_castps_si256(v), 0xD8);
}

/// The second condition of §6.1 on doubles of f32(ot), f32(oo), f32(tt),
/// in the scalar code's order, with both sides' /4096 left out: scaling by
/// powers of two is exact at these magnitudes and commutes with the one
/// rounding, of the right side's last product.
VMAFHIP_AVX2 inline D within_cone(D ot, D oo, D tt)
{
    const D cos2 = _mm256_set1_pd(static_cast<double>(ADM_COS_1DEG_SQ));
    return _mm256_cmp_pd(_mm256_mul_pd(ot, ot), _mm256_mul_pd(_mm256_mul_pd(cos2, oo), tt),
                         _CMP_GE_OQ);
}

/// f64 of 4 floats of v: lanes 0-3 (h = 0) or 4-7.
VMAFHIP_AVX2 inline D half_pd(__m256 v, int h)
{
    return _mm256_cvtps_pd(h ? _mm256_extractf128_ps(v, 1) : _mm256_castps256_ps128(v));
}

/**
 * §6.1 adm_angle_flag of 8 scale-0 positions. With band values within
 * ±32767 (the DWT's are within ±27411) the exact sums fit int32, madd forms
 * them, and cvtepi32_ps rounds them as the int64 conversion does. d >= 0 is
 * ot >= 0.
 */
VMAFHIP_AVX2 inline V angle_s0(const int16_t *const ref[3], const int16_t *const dis[3],
                               ptrdiff_t p)
{
    const __m128i a = load128(ref[ADM_H] + p), b = load128(ref[ADM_V] + p);
    const __m128i c = load128(dis[ADM_H] + p), d = load128(dis[ADM_V] + p);
    const V o = _mm256_set_m128i(_mm_unpackhi_epi16(a, b), _mm_unpacklo_epi16(a, b));
    const V t = _mm256_set_m128i(_mm_unpackhi_epi16(c, d), _mm_unpacklo_epi16(c, d));
    const V ot = _mm256_madd_epi16(o, t);
    const __m256 otf = _mm256_cvtepi32_ps(ot);
    const __m256 oof = _mm256_cvtepi32_ps(_mm256_madd_epi16(o, o));
    const __m256 ttf = _mm256_cvtepi32_ps(_mm256_madd_epi16(t, t));
    D ge[2];
    for (int h = 0; h < 2; h++)
        ge[h] = within_cone(half_pd(otf, h), half_pd(oof, h), half_pd(ttf, h));
    return _mm256_and_si256(mask32(ge[0], ge[1]), _mm256_cmpgt_epi32(ot, set32(-1)));
}

/// §6.1 adm_angle_flag of 8 scale 1-3 positions: exact int64 sums, 4
/// positions at a time.
VMAFHIP_AVX2 inline V angle_s123(const int32_t *const ref[3], const int32_t *const dis[3],
                                 ptrdiff_t p)
{
    D ge[2];
    for (int h = 0; h < 2; h++) {
        const ptrdiff_t q = p + 4 * h;
        const V oh = _mm256_cvtepi32_epi64(load128(ref[ADM_H] + q));
        const V ov = _mm256_cvtepi32_epi64(load128(ref[ADM_V] + q));
        const V th = _mm256_cvtepi32_epi64(load128(dis[ADM_H] + q));
        const V tv = _mm256_cvtepi32_epi64(load128(dis[ADM_V] + q));
        const V ot = _mm256_add_epi64(_mm256_mul_epi32(oh, th), _mm256_mul_epi32(ov, tv));
        const V oo = _mm256_add_epi64(_mm256_mul_epi32(oh, oh), _mm256_mul_epi32(ov, ov));
        const V tt = _mm256_add_epi64(_mm256_mul_epi32(th, th), _mm256_mul_epi32(tv, tv));
        const D nonneg = _mm256_castsi256_pd(_mm256_cmpgt_epi64(ot, set64(-1)));
        ge[h] = _mm256_and_pd(within_cone(float_of(ot), float_of(oo), float_of(tt)), nonneg);
    }
    return mask32(ge[0], ge[1]);
}

/// k's value where o = 0 (32768) and where o and t differ in sign: there
/// R(o) t < 0, which rounds to k <= 0 and clamps to 0 (t = 0 gives 0 too).
VMAFHIP_AVX2 inline V k_signs(V k, V o, V t)
{
    k = _mm256_andnot_si256(_mm256_srai_epi32(_mm256_xor_si256(o, t), 31), k);
    return _mm256_blendv_epi8(k, set32(32768), _mm256_cmpeq_epi32(o, _mm256_setzero_si256()));
}

/// egl as the restore of both scales takes it (§6.3).
struct Gain {
    D d;           ///< egl
    V i;           ///< egl in int32 lanes, when it is an integer
    bool integral; ///< egl is an integer (1 and 100, every shipped model)
};
VMAFHIP_AVX2 inline Gain gain_of(double egl)
{
    const bool integral = egl == static_cast<double>(static_cast<int32_t>(egl)); // egl in [1, 100]
    return {_mm256_set1_pd(egl), set32(integral ? static_cast<int32_t>(egl) : 0), integral};
}

/**
 * §6.3 adm_restore's choice on int32 lanes, for both scales: k and r0 =
 * round(k o) as computed, flag the angle test (all ones or 0), below and
 * above the truncated min and max of g = r0 egl and t. k >= 0, so k o > 0
 * is k != 0 and o > 0.
 */
VMAFHIP_AVX2 inline V restore_pick(V k, V r0, V o, V flag, V below, V above)
{
    const V zero = _mm256_setzero_si256();
    const V enh = _mm256_andnot_si256(
        _mm256_or_si256(_mm256_cmpeq_epi32(k, zero), _mm256_cmpeq_epi32(o, zero)), flag);
    const V e = _mm256_blendv_epi8(above, below, _mm256_cmpgt_epi32(o, zero));
    return _mm256_blendv_epi8(r0, e, enh);
}

/// adm_restore with g in double, as the scalar code computes it (any egl).
VMAFHIP_AVX2 inline V restore_double(V k, V r0, V o, V t, V flag, D egl)
{
    const D g0 = _mm256_mul_pd(lo_pd(r0), egl), g1 = _mm256_mul_pd(hi_pd(r0), egl);
    const D t0 = lo_pd(t), t1 = hi_pd(t);
    // (g < t ? g : t) is min_pd(g, t), (g > t ? g : t) is max_pd(g, t).
    const V below = trunc32(_mm256_min_pd(g0, t0), _mm256_min_pd(g1, t1));
    const V above = trunc32(_mm256_max_pd(g0, t0), _mm256_max_pd(g1, t1));
    return restore_pick(k, r0, o, flag, below, above);
}

// The lanes of one scale's types and arithmetic (S0 and S123 in adm_stages.cpp).
struct S0 {
    using T = int16_t;
    VMAFHIP_AVX2 static V load(const int16_t *p) { return load16(p); }
    VMAFHIP_AVX2 static void put(int16_t *p, V v) { store16(p, v); }
    VMAFHIP_AVX2 static V angle(const T *const ref[3], const T *const dis[3], ptrdiff_t p)
    {
        return angle_s0(ref, dis, p);
    }

    /// adm_k_s0: R(o) |t| < 2^45, rounded in int64 lanes; < 2^30 after the shift.
    VMAFHIP_AVX2 static V k(V o, V t)
    {
        const V r = recip(_mm256_abs_epi32(o)), at = _mm256_abs_epi32(t);
        const V add = set64(16384);
        const V e = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(r, at), add), 15);
        const V od =
            _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epu32(odd(r), odd(at)), add), 15);
        return k_signs(_mm256_min_epi32(join(e, od), set32(32768)), o, t);
    }
    /// adm_restore. r0 = round(k o): |k o| <= 2^30 fits int32. With an
    /// integer egl, r0 egl (|r0| <= 2^15, egl <= 100) is exact in int32 as
    /// it is in double, and its min and max with t need no truncation.
    VMAFHIP_AVX2 static V restore(V k, V o, V t, V flag, const Gain &g)
    {
        const V r0 =
            _mm256_srai_epi32(_mm256_add_epi32(_mm256_mullo_epi32(k, o), set32(16384)), 15);
        if (!g.integral)
            return restore_double(k, r0, o, t, flag, g.d);
        const V e = _mm256_mullo_epi32(r0, g.i);
        return restore_pick(k, r0, o, flag, _mm256_min_epi32(e, t), _mm256_max_epi32(e, t));
    }

    /// §8 adm_csf_s0 for one orientation: |irf x| < 2^31 for irf < 2^16.
    struct Csf {
        V irf, add;
        __m128i shift;
    };
    VMAFHIP_AVX2 static Csf csf_of(uint32_t irf, int theta)
    {
        return {set32(static_cast<int32_t>(irf)), set32(theta == ADM_D ? 65535 : 16384),
                _mm_cvtsi32_si128(theta == ADM_D ? 17 : 15)};
    }
    VMAFHIP_AVX2 static V csf(V x, const Csf &w)
    {
        return wrap16(
            _mm256_sra_epi32(_mm256_add_epi32(_mm256_mullo_epi32(x, w.irf), w.add), w.shift));
    }
    /// adm_f_s0 / adm_centre_s0: (m |c| + 2048) >> 12, narrowed. madd forms
    /// m c (c an int16 value, m < 2^15).
    VMAFHIP_AVX2 static V div(V c, int32_t m)
    {
        const V v = _mm256_abs_epi32(_mm256_madd_epi16(c, set32(m)));
        return wrap16(_mm256_srai_epi32(_mm256_add_epi32(v, set32(2048)), 12));
    }
    VMAFHIP_AVX2 static V f(V c) { return div(c, 4369); }
    VMAFHIP_AVX2 static V centre(V c) { return div(c, 8738); }
};

struct S123 {
    using T = int32_t;
    VMAFHIP_AVX2 static V load(const int32_t *p) { return adm_avx2::load(p); }
    VMAFHIP_AVX2 static void put(int32_t *p, V v) { store(p, v); }
    VMAFHIP_AVX2 static V angle(const T *const ref[3], const T *const dis[3], ptrdiff_t p)
    {
        return angle_s123(ref, dis, p);
    }

    /// (R(m) |t| + 2^(14+e)) >> (15+e) clamped to 32768, for the int32
    /// lanes in the low halves of the int64 lanes (e as a 64-bit count).
    VMAFHIP_AVX2 static V k_half(V r, V at, V e)
    {
        e = _mm256_and_si256(e, set64(0xFFFFFFFF));
        const V p = _mm256_add_epi64(_mm256_mul_epu32(r, at), _mm256_sllv_epi64(set64(1 << 14), e));
        const V q = _mm256_srlv_epi64(p, _mm256_add_epi64(e, set64(15)));
        const V lim = set64(32768);
        return _mm256_blendv_epi8(q, lim, _mm256_cmpgt_epi64(q, lim));
    }
    /**
     * adm_k_s123. u = |o| as uint32; for u >= 2^15, e = 17 - clz(u) =
     * floor(log2 u) - 14, read from the exponent of float(u without the bits
     * just below a set bit): the top bit stays and the one below it goes, so
     * the conversion cannot round up to the next power of two.
     */
    VMAFHIP_AVX2 static V k(V o, V t)
    {
        const V u = _mm256_abs_epi32(o), one = set32(1);
        const V top = _mm256_andnot_si256(_mm256_srli_epi32(u, 1), u);
        const V lg = _mm256_and_si256(
            _mm256_srli_epi32(_mm256_castps_si256(_mm256_cvtepi32_ps(top)), 23), set32(0xFF));
        const V small = _mm256_cmpeq_epi32(_mm256_srli_epi32(u, 15), _mm256_setzero_si256());
        const V e = _mm256_andnot_si256(small, _mm256_sub_epi32(lg, set32(127 + 14)));
        // m = (u + 2^(e-1)) >> e; for e = 0 the count -1 shifts the 1 out.
        const V m = _mm256_srlv_epi32(
            _mm256_add_epi32(u, _mm256_sllv_epi32(one, _mm256_sub_epi32(e, one))), e);
        const V r = recip(m), at = _mm256_abs_epi32(t);
        return k_signs(join(k_half(r, at, e), k_half(odd(r), odd(at), odd(e))), o, t);
    }
    /// adm_restore. r0 = i32((k o + 2^14) >> 15), k o in int64; r0 egl may
    /// pass 2^31, so g stays in double.
    VMAFHIP_AVX2 static V restore(V k, V o, V t, V flag, const Gain &g)
    {
        const V add = set64(16384);
        const V e = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(k, o), add), 15);
        const V od = _mm256_srli_epi64(_mm256_add_epi64(_mm256_mul_epi32(odd(k), odd(o)), add), 15);
        return restore_double(k, join(e, od), o, t, flag, g.d);
    }

    using Csf = Irf123;
    VMAFHIP_AVX2 static Csf csf_of(uint32_t irf, int) { return irf123(irf); }
    VMAFHIP_AVX2 static V csf(V x, const Csf &w) { return csf_s123(x, w); }
    /// adm_f_s123 / adm_centre_s123: i32((m |c| - 2^31) >> 32) is the high
    /// half of the int64 m |c| - 2^31.
    VMAFHIP_AVX2 static V div(V c, int32_t m)
    {
        const V a = _mm256_abs_epi32(c), mm = set64(m), q = set64(ADM_S123_ROUND_QUIRK);
        return join_high(_mm256_add_epi64(_mm256_mul_epu32(a, mm), q),
                         _mm256_add_epi64(_mm256_mul_epu32(odd(a), mm), q));
    }
    VMAFHIP_AVX2 static V f(V c) { return div(c, 143165577); }
    VMAFHIP_AVX2 static V centre(V c) { return div(c, 286331153); }
};

/// §6 at positions [b, e).
template <typename Sc>
VMAFHIP_AVX2 void decouple_span(const typename Sc::T *const ref[3],
                                const typename Sc::T *const dis[3], double egl, ptrdiff_t b,
                                ptrdiff_t e, typename Sc::T *const r[3], typename Sc::T *const a[3])
{
    const Gain g = gain_of(egl);
    ptrdiff_t p = b;
    for (; p + 8 <= e; p += 8) {
        const V flag = Sc::angle(ref, dis, p); // shared by H, V and D
        for (int t = 0; t < 3; t++) {
            const V o = Sc::load(ref[t] + p), d = Sc::load(dis[t] + p);
            const V k = Sc::k(o, d);
            const V rt = Sc::restore(k, o, d, flag, g);
            Sc::put(r[t] + p, rt);
            Sc::put(a[t] + p, _mm256_sub_epi32(d, rt));
        }
    }
    if constexpr (sizeof(typename Sc::T) == 2)
        adm_kernels_scalar().decouple_s0(ref, dis, egl, p, e, r, a);
    else
        adm_kernels_scalar().decouple_s123(ref, dis, egl, p, e, r, a);
}

template <typename Sc>
VMAFHIP_AVX2 void masker_span(const typename Sc::T *const x[3], const uint32_t irf[3], ptrdiff_t b,
                              ptrdiff_t e, int32_t *f, int32_t *c)
{
    const typename Sc::Csf w[3] = {Sc::csf_of(irf[0], 0), Sc::csf_of(irf[1], 1),
                                   Sc::csf_of(irf[2], 2)};
    ptrdiff_t p = b;
    for (; p + 8 <= e; p += 8) {
        V fs = _mm256_setzero_si256(), cs = fs;
        for (int t = 0; t < 3; t++) {
            const V v = Sc::csf(Sc::load(x[t] + p), w[t]);
            fs = _mm256_add_epi32(fs, Sc::f(v));
            cs = _mm256_add_epi32(cs, Sc::centre(v));
        }
        store(f + p, fs);
        store(c + p, cs);
    }
    if constexpr (sizeof(typename Sc::T) == 2)
        adm_kernels_scalar().masker_s0(x, irf, p, e, f, c);
    else
        adm_kernels_scalar().masker_s123(x, irf, p, e, f, c);
}

} // namespace

void decouple_s0(const int16_t *const ref[3], const int16_t *const dis[3], double egl, ptrdiff_t b,
                 ptrdiff_t e, int16_t *const r[3], int16_t *const a[3])
{
    decouple_span<S0>(ref, dis, egl, b, e, r, a);
}

void decouple_s123(const int32_t *const ref[3], const int32_t *const dis[3], double egl,
                   ptrdiff_t b, ptrdiff_t e, int32_t *const r[3], int32_t *const a[3])
{
    decouple_span<S123>(ref, dis, egl, b, e, r, a);
}

void masker_s0(const int16_t *const x[3], const uint32_t irf[3], ptrdiff_t b, ptrdiff_t e,
               int32_t *f, int32_t *c)
{
    masker_span<S0>(x, irf, b, e, f, c);
}

void masker_s123(const int32_t *const x[3], const uint32_t irf[3], ptrdiff_t b, ptrdiff_t e,
                 int32_t *f, int32_t *c)
{
    masker_span<S123>(x, irf, b, e, f, c);
}

} // namespace vmafhip::adm_avx2
#endif
