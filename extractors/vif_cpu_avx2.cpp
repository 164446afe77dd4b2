// integer VIF row kernels with AVX2 intrinsics (docs/vif.md §4): the
// integers of the scalar rows (vif_cpu_scalar.cpp, kernels/vif_ops.h) on
// every in-range input, for scales 0-2; scale 3 goes to the scalar rows.
//
// Every filter is vpmaddwd on pairs of 16-bit values, a pair of taps per
// instruction. It multiplies signed values, so a sample that may reach 2^15
// is stored minus 32768 and the sum gets 32768 * 65536 = 2^31 back (the taps
// of every filter sum to 65536); sums are uint32 that wrap, which is exact
// because every true sum is below 2^32 (§6). Second moments are split into
// 16-bit halves, each filtered as above, and joined before the shifts:
//   vertical:   (x^2 summed) = 65536 * SH + SL, the halves of x^2 filtered;
//   horizontal: the halves of the vertical outputs filtered, then
//               (65536 SH + SL + 32768) >> 16 = SH + ((SL + 32768) >> 16).
// The per-pixel statistic runs on eight pixels at once; its doubles are the
// scalar code's operations in the same order, and the logarithms read the
// exponent and top mantissa bits of exact doubles (§5).
#include "extractors/vif_cpu_rows.h"

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstring>
#include <vector>

#include "extractors/vif.h"
#endif // defined(__x86_64__)

namespace vmafhip {

#if defined(__x86_64__)

#define VIF_AVX2 __attribute__((target("avx2")))

namespace {

/// The vertical outputs of a row as the horizontal stage reads them, one
/// array per field: the means and the 16-bit halves of the second moments,
/// each minus 32768 (int16).
enum Field { MU1, MU2, XX_H, XX_L, YY_H, YY_L, XY_H, XY_L, FIELDS };

/// Taps 2m and 2m + 1 of the filter of scale S for vpmaddwd (the low half
/// multiplies the first of a pair); tap 2 half + 1 is 0.
template <int S> VIF_AVX2 inline __m256i tap_pair(int m)
{
    const int k = 2 * m;
    const uint32_t hi = k + 1 <= 2 * vif_half(S) ? vif_tap_at<S>(k + 1) : 0;
    return _mm256_set1_epi32(static_cast<int>(vif_tap_at<S>(k) | hi << 16));
}

VIF_AVX2 inline __m256i load(const void *p) { return _mm256_loadu_si256(static_cast<const __m256i *>(p)); }
VIF_AVX2 inline __m256i u32(uint32_t v) { return _mm256_set1_epi32(static_cast<int>(v)); }

/// Sixteen values of a field, from the uint32 lanes of the two unpacked
/// halves (packus keeps each 128-bit lane's order, which undoes the
/// unpacks'; every value fits 16 bits), minus 32768.
VIF_AVX2 inline void store_field(int16_t *out, __m256i lo, __m256i hi)
{
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out),
                        _mm256_xor_si256(_mm256_packus_epi32(lo, hi), _mm256_set1_epi16(INT16_MIN)));
}

/// Half H of the vertical sums of 16 columns of scale S from the rows
/// x[0], x[stride], ... (and y): the unpacked pairs of columns 0-3 and
/// 8-11 (H = 0) or 4-7 and 12-15 (H = 1), each pair of rows a vpmaddwd
/// with a pair of taps; rounded (vif_vertical_round) into val: mu1, mu2,
/// xx, yy, xy as uint32. Wide: x^2 may reach 2^16 (above 8 bits, or scales
/// 1-2). Biased: samples may reach 2^15 (16 bits, or scales 1-2). Not
/// inlined: one half's eight sums and temporaries fill the registers, and
/// the two halves' loads are best not shared.
template <int S, bool Wide, bool Biased, int H>
VIF_AVX2 __attribute__((noinline)) void vertical_half(const uint16_t *x, const uint16_t *y, ptrdiff_t stride,
                                                      const __m256i *taps, __m128i vp, __m128i vq, __m256i *val)
{
    constexpr int R = vif_half(S);
    const __m256i sign = _mm256_set1_epi16(INT16_MIN);
    __m256i m1 = _mm256_setzero_si256(), m2 = m1, xxl = m1, yyl = m1, xyl = m1, xxh = m1, yyh = m1, xyh = m1;
    // Not unrolled: GCC would turn each sum into a tree whose parts spill.
#pragma GCC unroll 1
    for (int m = 0; m <= R; m++, x += 2 * stride, y += 2 * stride) {
        const ptrdiff_t next = m < R ? stride : 0; // the last pair's second tap is 0
        const __m256i f = taps[m];
        const __m256i xa = load(x), xb = load(x + next), ya = load(y), yb = load(y + next);
        const __m256i xp = H ? _mm256_unpackhi_epi16(xa, xb) : _mm256_unpacklo_epi16(xa, xb);
        const __m256i yp = H ? _mm256_unpackhi_epi16(ya, yb) : _mm256_unpacklo_epi16(ya, yb);
        m1 = _mm256_add_epi32(m1, _mm256_madd_epi16(Biased ? _mm256_xor_si256(xp, sign) : xp, f));
        m2 = _mm256_add_epi32(m2, _mm256_madd_epi16(Biased ? _mm256_xor_si256(yp, sign) : yp, f));
        xxl = _mm256_add_epi32(xxl, _mm256_madd_epi16(_mm256_xor_si256(_mm256_mullo_epi16(xp, xp), sign), f));
        yyl = _mm256_add_epi32(yyl, _mm256_madd_epi16(_mm256_xor_si256(_mm256_mullo_epi16(yp, yp), sign), f));
        xyl = _mm256_add_epi32(xyl, _mm256_madd_epi16(_mm256_xor_si256(_mm256_mullo_epi16(xp, yp), sign), f));
        if (Wide) {
            __m256i hxx = _mm256_mulhi_epu16(xp, xp), hyy = _mm256_mulhi_epu16(yp, yp);
            __m256i hxy = _mm256_mulhi_epu16(xp, yp);
            if (Biased) {
                hxx = _mm256_xor_si256(hxx, sign);
                hyy = _mm256_xor_si256(hyy, sign);
                hxy = _mm256_xor_si256(hxy, sign);
            }
            xxh = _mm256_add_epi32(xxh, _mm256_madd_epi16(hxx, f));
            yyh = _mm256_add_epi32(yyh, _mm256_madd_epi16(hyy, f));
            xyh = _mm256_add_epi32(xyh, _mm256_madd_epi16(hxy, f));
        }
    }
    // (sum + add) >> shift, the squares' sum being 65536 SH + SL (SH = 0
    // unless Wide; vq <= 16).
    const int vp_n = _mm_cvtsi128_si32(vp), vq_n = _mm_cvtsi128_si32(vq);
    const __m256i mean_add = u32((Biased ? 0x80000000u : 0u) + vif_round_add(vp_n));
    val[0] = _mm256_srl_epi32(_mm256_add_epi32(m1, mean_add), vp);
    val[1] = _mm256_srl_epi32(_mm256_add_epi32(m2, mean_add), vp);
    const __m256i sl[3] = {xxl, yyl, xyl}, sh[3] = {xxh, yyh, xyh};
    for (int c = 0; c < 3; c++) {
        const __m256i l = _mm256_add_epi32(sl[c], u32(0x80000000u));
        if (!Wide) { // vq = 0
            val[2 + c] = l;
            continue;
        }
        const __m256i hi = _mm256_add_epi32(sh[c], u32(Biased ? 0x80000000u : 0u));
        val[2 + c] = _mm256_add_epi32(_mm256_sll_epi32(hi, _mm_cvtsi32_si128(16 - vq_n)),
                                      _mm256_srl_epi32(_mm256_add_epi32(l, u32(vif_round_add(vq_n))), vq));
    }
}

/// The vertical outputs of row i of scale S into the FIELDS arrays, columns
/// [0, w rounded up to 16).
template <int S, bool Wide, bool Biased>
VIF_AVX2 void vertical(const VifScaleView &im, int i, int vp, int vq, int16_t *const out[FIELDS])
{
    constexpr int R = vif_half(S);
    const __m128i vp_c = _mm_cvtsi32_si128(vp), vq_c = _mm_cvtsi32_si128(vq);
    const uint16_t *x = im.row(0, i - R), *y = im.row(1, i - R);
    const __m256i mask16 = u32(0xFFFF);
    __m256i taps[R + 1];
    for (int m = 0; m <= R; m++)
        taps[m] = tap_pair<S>(m);
    for (int j = 0; j < im.w; j += 16) {
        __m256i lo[5], hi[5];
        vertical_half<S, Wide, Biased, 0>(x + j, y + j, im.stride, taps, vp_c, vq_c, lo);
        vertical_half<S, Wide, Biased, 1>(x + j, y + j, im.stride, taps, vp_c, vq_c, hi);
        store_field(out[MU1] + j, lo[0], hi[0]);
        store_field(out[MU2] + j, lo[1], hi[1]);
        for (int c = 0; c < 3; c++) {
            store_field(out[XX_H + 2 * c] + j, _mm256_srli_epi32(lo[2 + c], 16), _mm256_srli_epi32(hi[2 + c], 16));
            store_field(out[XX_L + 2 * c] + j, _mm256_and_si256(lo[2 + c], mask16),
                        _mm256_and_si256(hi[2 + c], mask16));
        }
    }
}

/// T[32768 .. 65535] (§5) and one more entry: the gathers read 32 bits at
/// every 16-bit entry.
const uint16_t *gather_table()
{
    static const std::vector<uint16_t> t = [] {
        std::vector<uint16_t> v(vif_log2_table(), vif_log2_table() + VIF_LOG2_ENTRIES);
        v.push_back(0);
        return v;
    }();
    return t.data();
}

/// The four sums of the per-pixel statistic, in lanes.
struct StatSums {
    __m256i den, num; ///< den_log, num_log: int32 lanes (one row, at most 4096 values
                      ///< below 2^16 in a lane: widths end at 32768)
    __m256i nonlog;   ///< num_nonlog: int64 lanes
    __m256i count;    ///< den_nonlog: int32 lanes

    VIF_AVX2 StatSums() : den(_mm256_setzero_si256()), num(den), nonlog(den), count(den) {}
};

/// L(x) + 2048 (1023 + 15) of eight exact doubles x in [2^17, 2^53) (lo,
/// hi: four each), as int32 lanes in the order lo0 hi0 lo1 hi1 ... (see
/// interleave): the exponent field is bitlength - 1 + 1023, the 15 mantissa
/// bits below the leading one index T (vif_log2).
VIF_AVX2 inline __m256i log2_biased(__m256d lo, __m256d hi, const uint16_t *table)
{
    const __m256i a = _mm256_castpd_si256(lo), b = _mm256_castpd_si256(hi);
    // The fields of hi shifted into the high half of each 64-bit lane.
    const __m256i idx = _mm256_and_si256(_mm256_blend_epi32(_mm256_srli_epi64(a, 37), _mm256_srli_epi64(b, 5), 0xAA),
                                         _mm256_set1_epi32(0x7FFF));
    const __m256i e = _mm256_blend_epi32(_mm256_srli_epi64(a, 52), _mm256_srli_epi64(b, 20), 0xAA);
    const __m256i t = _mm256_and_si256(_mm256_i32gather_epi32(reinterpret_cast<const int *>(table), idx, 2),
                                       _mm256_set1_epi32(0xFFFF));
    return _mm256_add_epi32(t, _mm256_slli_epi32(e, 11));
}

/// Eight int32 lanes in the order of log2_biased's results.
VIF_AVX2 inline __m256i interleave(__m256i v)
{
    return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}

/// The high 32 bits of a * b + 2^31 in every 32-bit lane (a_odd, b_odd:
/// a, b shifted right by 32 in 64-bit lanes).
VIF_AVX2 inline __m256i mul_round_hi(__m256i a, __m256i b, __m256i a_odd, __m256i b_odd)
{
    const __m256i half = _mm256_set1_epi64x(0x80000000ll);
    const __m256i even = _mm256_add_epi64(_mm256_mul_epu32(a, b), half);
    const __m256i odd = _mm256_add_epi64(_mm256_mul_epu32(a_odd, b_odd), half);
    return _mm256_blend_epi32(_mm256_srli_epi64(even, 32), odd, 0xAA);
}

VIF_AVX2 inline __m128i half_of(__m256i v, int h)
{
    return h ? _mm256_extracti128_si256(v, 1) : _mm256_castsi256_si128(v);
}

/// vif_pixel on the valid lanes of eight pixels (horizontal sums mu1, mu2,
/// and xx, yy, xy already rounded and cut to 32 bits).
VIF_AVX2 inline void pixel_stats(__m256i mu1, __m256i mu2, __m256i xx, __m256i yy, __m256i xy, __m256i valid,
                                 __m256d egl, const uint16_t *table, StatSums &acc)
{
    const __m256i zero = _mm256_setzero_si256();
    const __m256i mu1_odd = _mm256_srli_epi64(mu1, 32), mu2_odd = _mm256_srli_epi64(mu2, 32);
    const __m256i s1 = _mm256_sub_epi32(xx, mul_round_hi(mu1, mu1, mu1_odd, mu1_odd));
    const __m256i s2 = _mm256_max_epi32(_mm256_sub_epi32(yy, mul_round_hi(mu2, mu2, mu2_odd, mu2_odd)), zero);
    const __m256i s12 = _mm256_sub_epi32(xy, mul_round_hi(mu1, mu2, mu1_odd, mu2_odd));
    const __m256i log = _mm256_and_si256(_mm256_cmpgt_epi32(s1, _mm256_set1_epi32(VIF_SIGMA_NSQ - 1)), valid);
    const __m256i nonlog = _mm256_andnot_si256(log, valid);
    acc.count = _mm256_sub_epi32(acc.count, nonlog);
    const __m256i s2n = _mm256_and_si256(s2, nonlog); // >= 0: the halves of a 64-bit lane
    acc.nonlog = _mm256_add_epi64(acc.nonlog, _mm256_add_epi64(_mm256_blend_epi32(s2n, zero, 0xAA),
                                                                _mm256_srli_epi64(s2n, 32)));
    if (_mm256_testz_si256(log, log))
        return;
    const __m256i num = _mm256_and_si256(
        log, _mm256_and_si256(_mm256_cmpgt_epi32(s12, zero), _mm256_cmpgt_epi32(s2, zero)));
    const __m256d sigma = _mm256_set1_pd(VIF_SIGMA_NSQ);
    __m256d d1[2], x[2], n1[2], n1t[2];
    for (int h = 0; h < 2; h++) {
        d1[h] = _mm256_cvtepi32_pd(half_of(s1, h));
        x[h] = _mm256_add_pd(d1[h], sigma); // sigma_nsq + s1: exact (s1 < 2^31)
        const __m256d d12 = _mm256_cvtepi32_pd(half_of(s12, h));
        __m256d g = _mm256_div_pd(d12, _mm256_add_pd(d1[h], _mm256_set1_pd(65536 * 1.0e-10)));
        // vif_residual: the product rounded, then the difference; cvttpd2dq
        // is vif_trunc_i32.
        const __m256d d = _mm256_sub_pd(_mm256_cvtepi32_pd(half_of(s2, h)), _mm256_mul_pd(g, d12));
        const __m128i sv = _mm_max_epi32(_mm256_cvttpd_epi32(d), _mm_setzero_si128());
        n1[h] = _mm256_add_pd(_mm256_cvtepi32_pd(sv), sigma); // exact, below 2^32
        g = _mm256_min_pd(g, egl);                            // g < egl ? g : egl
        // (g * g) * s1 truncated (below 2^45) plus n1: exact in a double.
        const __m256d t = _mm256_round_pd(_mm256_mul_pd(_mm256_mul_pd(g, g), d1[h]),
                                          _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
        n1t[h] = _mm256_add_pd(t, n1[h]);
    }
    // den_log += L(sigma_nsq + s1) - 17 * 2048, num_log += L(n1t) - L(n1).
    const __m256i den = _mm256_sub_epi32(log2_biased(x[0], x[1], table), _mm256_set1_epi32(2048 * (1038 + 17)));
    acc.den = _mm256_add_epi32(acc.den, _mm256_and_si256(den, interleave(log)));
    const __m256i n = _mm256_sub_epi32(log2_biased(n1t[0], n1t[1], table), log2_biased(n1[0], n1[1], table));
    acc.num = _mm256_add_epi32(acc.num, _mm256_and_si256(n, interleave(num)));
}

VIF_AVX2 inline int64_t sum64(__m256i v)
{
    const __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    return _mm_cvtsi128_si64(s) + _mm_extract_epi64(s, 1);
}

/// The sum of eight int32 lanes.
VIF_AVX2 inline int64_t sum32(__m256i v)
{
    return sum64(_mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(v)),
                                  _mm256_cvtepi32_epi64(_mm256_extracti128_si256(v, 1))));
}

/// Columns of the horizontal stage per step: the filter sums of a step's
/// fields stay in L1.
constexpr int STEP = 64;

/// The horizontal filter of scale S over one field, columns [0, n) (n a
/// multiple of 16): for every 16 columns, the sums of the even ones, then
/// of the odd ones (a load of 16 values at column c holds the pairs (c,
/// c + 1), (c + 2, c + 3), ...). One field at a time: the taps stay in
/// registers.
template <int S> VIF_AVX2 __attribute__((noinline)) void filter_field(const int16_t *in, int n, int32_t *sums)
{
    constexpr int R = vif_half(S);
    __m256i f[R + 1];
    for (int m = 0; m <= R; m++)
        f[m] = tap_pair<S>(m);
    for (int j = 0; j < n; j += 8) { // 8 columns of one parity
        const int16_t *p = in + (j & ~15) + (j & 8 ? 1 : 0) - R;
        __m256i a = _mm256_madd_epi16(load(p), f[0]);
        for (int m = 1; m <= R; m++)
            a = _mm256_add_epi32(a, _mm256_madd_epi16(load(p + 2 * m), f[m]));
        _mm256_store_si256(reinterpret_cast<__m256i *>(sums + j), a);
    }
}

/// The horizontal stage of scale S over the FIELDS arrays (mirrored
/// columns on both sides) and the statistic of columns [0, w), into acc.
template <int S>
VIF_AVX2 void horizontal_stats(const int16_t *const in[FIELDS], int w, double egl, const uint16_t *table,
                               StatSums &acc)
{
    const __m256i half_add = u32(0x80000000u), round_add = u32(0x80008000u);
    const __m256i lanes = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    const __m256d egl_v = _mm256_set1_pd(egl);
    alignas(32) int32_t sums[FIELDS][STEP];
    for (int j0 = 0; j0 < w; j0 += STEP) {
        const int n = (w - j0 < STEP ? w - j0 + 15 : STEP) & ~15;
        for (int c = 0; c < FIELDS; c++)
            filter_field<S>(in[c] + j0, n, sums[c]);
        for (int j = 0; j < n; j += 8) {
            __m256i sq[3];
            for (int c = 0; c < 3; c++)
                sq[c] = _mm256_add_epi32(_mm256_add_epi32(load(sums[XX_H + 2 * c] + j), half_add),
                                         _mm256_srli_epi32(_mm256_add_epi32(load(sums[XX_L + 2 * c] + j), round_add), 16));
            // Lane l is column j0 + (j & ~15) + 2 l, plus 1 in the odd half.
            const int c0 = j0 + (j & ~15) + (j & 8 ? 1 : 0);
            const __m256i valid =
                _mm256_cmpgt_epi32(_mm256_set1_epi32(w), _mm256_add_epi32(_mm256_set1_epi32(c0), lanes));
            pixel_stats(_mm256_add_epi32(load(sums[MU1] + j), half_add), _mm256_add_epi32(load(sums[MU2] + j), half_add),
                        sq[0], sq[1], sq[2], valid, egl_v, table, acc);
        }
    }
}

/// §4.2 with filter S (1 or 2): rows [y0, y1) of dst from src. t: a row's
/// worth of buffer, R slots before it.
template <int S>
VIF_AVX2 void down_rows(const VifParams &p, const VifScaleView &src, const VifScaleView &dst, int y0, int y1,
                        uint16_t *t)
{
    constexpr int R = vif_half(S);
    const int w = src.w;
    const __m256i sign = _mm256_set1_epi16(INT16_MIN);
    const int shift = vif_down_shift(S, p.bpc);
    const __m128i shift_c = _mm_cvtsi32_si128(shift);
    const __m256i v_add = u32(0x80000000u + vif_round_add(shift)), h_add = u32(0x80008000u);
    __m256i f[R + 1];
    for (int m = 0; m <= R; m++)
        f[m] = tap_pair<S>(m);
    for (int pic = 0; pic < 2; pic++)
        for (int y = y0; y < y1; y++) {
            // Vertical, at the even rows only.
            for (int j = 0; j < w; j += 16) {
                __m256i lo = _mm256_setzero_si256(), hi = lo;
                for (int m = 0; m <= R; m++) {
                    const int a = 2 * y - R + 2 * m;
                    const __m256i ra = load(src.row(pic, a) + j), rb = load(src.row(pic, m < R ? a + 1 : a) + j);
                    lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_xor_si256(_mm256_unpacklo_epi16(ra, rb), sign), f[m]));
                    hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_xor_si256(_mm256_unpackhi_epi16(ra, rb), sign), f[m]));
                }
                lo = _mm256_srl_epi32(_mm256_add_epi32(lo, v_add), shift_c);
                hi = _mm256_srl_epi32(_mm256_add_epi32(hi, v_add), shift_c);
                _mm256_storeu_si256(reinterpret_cast<__m256i *>(t + j), _mm256_packus_epi32(lo, hi));
            }
            vif_pad_columns(t, w, R, t); // w >= 2 at scales 0-2 (W >= 8)
            // Horizontal, at the even columns: a load from column 2x - R + 2m
            // holds the pairs of taps 2m, 2m + 1 of outputs x, x + 1, ...
            uint16_t *out = dst.row(pic, y);
            for (int x = 0; x < dst.w; x += 8) {
                __m256i acc = _mm256_setzero_si256();
                for (int m = 0; m <= R; m++)
                    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_xor_si256(load(t + 2 * x - R + 2 * m), sign), f[m]));
                acc = _mm256_srli_epi32(_mm256_add_epi32(acc, h_add), 16);
                const __m128i v = _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi32(acc, acc), 0x08));
                if (x + 8 <= dst.w) {
                    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + x), v);
                } else { // the row's last columns, and nothing past them
                    uint16_t last[8];
                    _mm_storeu_si128(reinterpret_cast<__m128i *>(last), v);
                    std::memcpy(out + x, last, sizeof(uint16_t) * static_cast<size_t>(dst.w - x));
                }
            }
        }
}

class Avx2Rows final : public VifRows {
public:
    void stats(int s, const VifParams &p, const VifScaleView &im, const VifVert &stale, int i0, int i1,
               VifPartial *part) override
    {
        if (s == 3) {
            scalar_->stats(s, p, im, stale, i0, i1, part);
            return;
        }
        if (s == 0 && p.bpc == 8)
            stats_rows<0, false, false>(p, im, i0, i1, part);
        else if (s == 0 && p.bpc < 16)
            stats_rows<0, true, false>(p, im, i0, i1, part);
        else if (s == 0)
            stats_rows<0, true, true>(p, im, i0, i1, part);
        else if (s == 1)
            stats_rows<1, true, true>(p, im, i0, i1, part);
        else
            stats_rows<2, true, true>(p, im, i0, i1, part);
    }

    void down(int s, const VifParams &p, const VifScaleView &src, const VifScaleView &dst, int y0,
              int y1) override
    {
        if (s == 3) {
            scalar_->down(s, p, src, dst, y0, y1);
            return;
        }
        const int r = vif_half(s);
        t_.resize(static_cast<size_t>(src.w + 2 * r + 32));
        if (s == 1)
            down_rows<1>(p, src, dst, y0, y1, t_.data() + r);
        else
            down_rows<2>(p, src, dst, y0, y1, t_.data() + r);
    }

private:
    std::unique_ptr<VifRows> scalar_ = vif_rows_scalar();
    std::vector<int16_t> fields_[FIELDS];
    std::vector<uint16_t> t_;

    template <int S, bool Wide, bool Biased>
    VIF_AVX2 void stats_rows(const VifParams &p, const VifScaleView &im, int i0, int i1, VifPartial *part)
    {
        constexpr int R = vif_half(S);
        const int w = im.w;
        // Columns [-R, w rounded up to 16 + R], and 16 more for the loads of
        // the last step's zero tap.
        const size_t n = static_cast<size_t>((w + 15) / 16 * 16 + 2 * R + 16);
        int16_t *v[FIELDS];
        for (int c = 0; c < FIELDS; c++) {
            fields_[c].resize(n);
            v[c] = fields_[c].data() + R;
        }
        const uint16_t *table = gather_table();
        const int vp = vif_vp_shift(S, p.bpc), vq = vif_vq_shift(S, p.bpc);
        for (int i = i0; i < i1; i++) {
            vertical<S, Wide, Biased>(im, i, vp, vq, v);
            for (int c = 0; c < FIELDS; c++)
                vif_pad_columns(v[c], w, R, v[c]); // w >= 2 at scales 0-2 (W >= 8)
            StatSums acc;
            horizontal_stats<S>(v, w, p.egl, table, acc);
            add_sums(acc, part);
        }
    }

    VIF_AVX2 static void add_sums(const StatSums &acc, VifPartial *part)
    {
        part->den_log += sum32(acc.den);
        part->num_log += sum32(acc.num);
        part->num_nonlog += sum64(acc.nonlog);
        part->den_nonlog += sum32(acc.count);
    }
};

} // namespace

bool vif_cpu_has_avx2() { return __builtin_cpu_supports("avx2"); }

std::unique_ptr<VifRows> vif_rows_avx2() { return std::make_unique<Avx2Rows>(); }

#else // defined(__x86_64__)

bool vif_cpu_has_avx2() { return false; }

std::unique_ptr<VifRows> vif_rows_avx2() { return nullptr; }

#endif // defined(__x86_64__)

} // namespace vmafhip
