// AVX2 kernels of the ADM DWT (docs/adm.md §4): the vertical and horizontal
// passes of every scale. The rest of each span goes to the plain kernels.
#if defined(__x86_64__)
#include "extractors/adm/adm_cpu_avx2_ops.h"

namespace vmafhip::adm_avx2 {

namespace {

// db2 taps (adm_dwt_lo, adm_dwt_hi) in the pairs madd multiplies.
struct Taps16 {
    V lo01, lo23, hi01, hi23;
};
VMAFHIP_AVX2 inline Taps16 taps16()
{
    return {avx2_pairs(15826, 27411), avx2_pairs(7345, -4240), avx2_pairs(-4240, -7345),
            avx2_pairs(27411, -15826)};
}

/// 16 samples of a picture row as int16 lanes.
VMAFHIP_AVX2 inline V load_px(const uint8_t *p)
{
    return _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i *>(p)));
}
VMAFHIP_AVX2 inline V load_px(const uint16_t *p)
{
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
}
VMAFHIP_AVX2 inline V load_px(const int16_t *p)
{
    return _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
}

/**
 * The vertical sums of 16 columns of int16 lanes x[0..3], exact int32 (the
 * taps' magnitudes add to 54822, so |sum| < 2^31 for any int16 input):
 * lo and hi, each as two vectors of columns 0-3, 8-11 and 4-7, 12-15
 * (madd's order after unpacking).
 */
struct VertSums {
    V lo[2], hi[2];
};
VMAFHIP_AVX2 inline VertSums vert_sums(const V x[4], const Taps16 &t)
{
    const V a[2] = {_mm256_unpacklo_epi16(x[0], x[1]), _mm256_unpackhi_epi16(x[0], x[1])};
    const V b[2] = {_mm256_unpacklo_epi16(x[2], x[3]), _mm256_unpackhi_epi16(x[2], x[3])};
    VertSums s;
    for (int h = 0; h < 2; h++) {
        s.lo[h] =
            _mm256_add_epi32(_mm256_madd_epi16(a[h], t.lo01), _mm256_madd_epi16(b[h], t.lo23));
        s.hi[h] =
            _mm256_add_epi32(_mm256_madd_epi16(a[h], t.hi01), _mm256_madd_epi16(b[h], t.hi23));
    }
    return s;
}

/// The vertical pass of 16 columns of int16 lanes x[0..3]: (sum + add) >> shift
/// of the sums of vert_sums, in its order.
struct Vert {
    V lo[2], hi[2];
};
VMAFHIP_AVX2 inline Vert vert_rounded(const V x[4], const Taps16 &t, V lo_add, V hi_add,
                                      __m128i shift)
{
    const VertSums v = vert_sums(x, t);
    Vert r;
    for (int k = 0; k < 2; k++) {
        r.lo[k] = _mm256_sra_epi32(_mm256_add_epi32(v.lo[k], lo_add), shift);
        r.hi[k] = _mm256_sra_epi32(_mm256_add_epi32(v.hi[k], hi_add), shift);
    }
    return r;
}

/// 16 columns of rows s[0..3] from x as int16 lanes.
template <typename T> VMAFHIP_AVX2 inline void load_rows(const T *const s[4], int x, V p[4])
{
    for (int k = 0; k < 4; k++)
        p[k] = load_px(s[k] + x);
}

/**
 * §4.2 vertical pass of 16 columns. Samples below 2^bpc (the context
 * refuses others) keep every result within int16, so the saturating pack
 * equals the int16 store; it also restores column order.
 */
template <typename Pix>
VMAFHIP_AVX2 inline void s0_vert16cols(const Pix *const s[4], int x, const Taps16 &t, V lo_add,
                                       V hi_add, __m128i shift, int16_t *lo, int16_t *hi)
{
    V p[4];
    load_rows(s, x, p);
    const Vert v = vert_rounded(p, t, lo_add, hi_add, shift);
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(lo + x), _mm256_packs_epi32(v.lo[0], v.lo[1]));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(hi + x), _mm256_packs_epi32(v.hi[0], v.hi[1]));
}

template <typename Pix>
VMAFHIP_AVX2 void
s0_vert_span(const Pix *const s[4], int bpc, int b, int e, int16_t *lo, int16_t *hi,
             void (*rest)(const Pix *const *, int, int, int, int16_t *, int16_t *))
{
    const Taps16 t = taps16();
    const int32_t half = 1 << (bpc - 1);
    const V lo_add = set32(half - 46342 * half), hi_add = set32(half); // adm_s0_vert_lo / _hi
    const __m128i shift = _mm_cvtsi32_si128(bpc);
    int x = b;
    for (; x + 16 <= e; x += 16)
        s0_vert16cols(s, x, t, lo_add, hi_add, shift, lo, hi);
    rest(s, bpc, x, e, lo, hi);
}

/// The horizontal sums of outputs j .. j + 7 of a padded row p (taps a, b
/// on the pairs p[2j], p[2j + 1] and p[2j + 2], p[2j + 3]), int32, rounded:
/// (sum + 32768) >> 16 lies within ±27411 for any int16 row.
VMAFHIP_AVX2 inline V s0_hori8(const int16_t *p, int j, V ab, V cd)
{
    const V x01 = load_px(p + 2 * j), x23 = load_px(p + 2 * j + 2);
    const V sum = _mm256_add_epi32(_mm256_madd_epi16(x01, ab), _mm256_madd_epi16(x23, cd));
    return _mm256_srai_epi32(_mm256_add_epi32(sum, set32(32768)), 16);
}

/// Outputs j .. j + 15 of one band as int16 (the pack is exact, see s0_hori8).
VMAFHIP_AVX2 inline void s0_hori16(const int16_t *p, int j, V ab, V cd, int16_t *out)
{
    const V v = _mm256_packs_epi32(s0_hori8(p, j, ab, cd), s0_hori8(p, j + 8, ab, cd));
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out + j), _mm256_permute4x64_epi64(v, 0xD8));
}

/// The int64 sums of the vertical pass: even lanes from x[k], odd lanes
/// from odd(x[k]), 4 columns each; taps tp[0..3] in int64 lanes.
VMAFHIP_AVX2 inline V taps64(const V x[4], const V tp[4])
{
    V s = _mm256_mul_epi32(x[0], tp[0]);
    for (int k = 1; k < 4; k++)
        s = _mm256_add_epi64(s, _mm256_mul_epi32(x[k], tp[k]));
    return s;
}

/// adm_s123_round of int64 lanes: the low 32 bits of (sum + add) >> shift
/// do not depend on the shift being arithmetic, since shift <= 32.
VMAFHIP_AVX2 inline V round64(V sum, V add, __m128i shift)
{
    return _mm256_srl_epi64(_mm256_add_epi64(sum, add), shift);
}

struct Taps64 {
    V lo[4], hi[4];
};
VMAFHIP_AVX2 inline Taps64 taps64()
{
    return {{set64(15826), set64(27411), set64(7345), set64(-4240)},
            {set64(-4240), set64(-7345), set64(27411), set64(-15826)}};
}

/// §4.3 horizontal pass, outputs j .. j + 3 of a padded int32 row p: lanes
/// of p + 2j hold the taps' inputs 0 (even) and 1 (odd), of p + 2j + 2
/// inputs 2 and 3. Results in the low halves of the int64 lanes.
VMAFHIP_AVX2 inline void s123_hori4(const int32_t *p, int j, const Taps64 &t, V add, __m128i shift,
                                    V *lo, V *hi)
{
    const V a = load(p + 2 * j), b = load(p + 2 * j + 2);
    const V x[4] = {a, odd(a), b, odd(b)};
    *lo = round64(taps64(x, t.lo), add, shift);
    *hi = round64(taps64(x, t.hi), add, shift);
}

/// The low halves of the int64 lanes of u (outputs j .. j + 3) and w
/// (j + 4 .. j + 7), stored in order.
VMAFHIP_AVX2 inline void store_halves(int32_t *out, V u, V w)
{
    const V v = _mm256_castps_si256(
        _mm256_shuffle_ps(_mm256_castsi256_ps(u), _mm256_castsi256_ps(w), _MM_SHUFFLE(2, 0, 2, 0)));
    store(out, _mm256_permute4x64_epi64(v, 0xD8));
}

} // namespace

void s0_vert8(const uint8_t *const s[4], int bpc, int b, int e, int16_t *lo, int16_t *hi)
{
    s0_vert_span(s, bpc, b, e, lo, hi, adm_kernels_scalar().s0_vert8);
}

void s0_vert16(const uint16_t *const s[4], int bpc, int b, int e, int16_t *lo, int16_t *hi)
{
    s0_vert_span(s, bpc, b, e, lo, hi, adm_kernels_scalar().s0_vert16);
}

void s0_hori(const int16_t *l, const int16_t *h, int b, int e, int16_t *const out[4])
{
    const Taps16 t = taps16();
    int j = b;
    for (; j + 16 <= e; j += 16) {
        s0_hori16(l, j, t.lo01, t.lo23, out[ADM_A]);
        s0_hori16(l, j, t.hi01, t.hi23, out[ADM_V]);
        s0_hori16(h, j, t.lo01, t.lo23, out[ADM_H]);
        s0_hori16(h, j, t.hi01, t.hi23, out[ADM_D]);
    }
    adm_kernels_scalar().s0_hori(l, h, j, e, out);
}

void s123_vert16(const int16_t *const s[4], int shift, int b, int e, int32_t *lo, int32_t *hi)
{
    // int16 input (scale 1): the sums are exact in int32, and so is the
    // rounding add (at most 2^15).
    const Taps16 t = taps16();
    const V add = set32(static_cast<int32_t>(adm_half(shift)));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    int x = b;
    for (; x + 16 <= e; x += 16) {
        V p[4];
        load_rows(s, x, p);
        const Vert v = vert_rounded(p, t, add, add, sh);
        const V *l = v.lo, *h = v.hi;
        // Columns 0-3, 8-11 | 4-7, 12-15 back in order.
        store(lo + x, _mm256_permute2x128_si256(l[0], l[1], 0x20));
        store(lo + x + 8, _mm256_permute2x128_si256(l[0], l[1], 0x31));
        store(hi + x, _mm256_permute2x128_si256(h[0], h[1], 0x20));
        store(hi + x + 8, _mm256_permute2x128_si256(h[0], h[1], 0x31));
    }
    adm_kernels_scalar().s123_vert16(s, shift, x, e, lo, hi);
}

void s123_vert32(const int32_t *const s[4], int shift, int b, int e, int32_t *lo, int32_t *hi)
{
    const Taps64 t = taps64();
    const V add = set64(adm_half(shift));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    int x = b;
    for (; x + 8 <= e; x += 8) {
        V ev[4], od[4];
        for (int k = 0; k < 4; k++) {
            ev[k] = load(s[k] + x);
            od[k] = odd(ev[k]);
        }
        store(lo + x, join(round64(taps64(ev, t.lo), add, sh), round64(taps64(od, t.lo), add, sh)));
        store(hi + x, join(round64(taps64(ev, t.hi), add, sh), round64(taps64(od, t.hi), add, sh)));
    }
    adm_kernels_scalar().s123_vert32(s, shift, x, e, lo, hi);
}

void s123_hori(const int32_t *l, const int32_t *h, int shift, int b, int e, int32_t *const out[4])
{
    const Taps64 t = taps64();
    const V add = set64(adm_half(shift));
    const __m128i sh = _mm_cvtsi32_si128(shift);
    int j = b;
    for (; j + 8 <= e; j += 8) {
        V a[2], v[2], hh[2], d[2];
        for (int k = 0; k < 2; k++) {
            s123_hori4(l, j + 4 * k, t, add, sh, &a[k], &v[k]);
            s123_hori4(h, j + 4 * k, t, add, sh, &hh[k], &d[k]);
        }
        store_halves(out[ADM_A] + j, a[0], a[1]);
        store_halves(out[ADM_V] + j, v[0], v[1]);
        store_halves(out[ADM_H] + j, hh[0], hh[1]);
        store_halves(out[ADM_D] + j, d[0], d[1]);
    }
    adm_kernels_scalar().s123_hori(l, h, shift, j, e, out);
}

} // namespace vmafhip::adm_avx2
#endif
