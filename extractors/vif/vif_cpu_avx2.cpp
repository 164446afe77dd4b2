// integer VIF row kernels with AVX2 intrinsics (docs/vif.md §4): the
// integers of the scalar rows (vif_cpu_scalar.cpp, kernels/vif/vif_ops.h) on
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
// The per-pixel statistic is in vif_cpu_avx2_pixel.h.
#include "extractors/vif/vif_cpu_rows.h"

#if defined(__x86_64__)
#include <cstring>
#include <vector>

#include "extractors/vif/vif_cpu_avx2_pixel.h"
#endif // defined(__x86_64__)

namespace vmafhip {

#if defined(__x86_64__)

namespace {

using namespace vif_avx2;

/// The vertical outputs of a row as the horizontal stage reads them, one
/// array per field: the means and the 16-bit halves of the second moments,
/// each minus 32768 (int16).
enum Field { MU1, MU2, XX_H, XX_L, YY_H, YY_L, XY_H, XY_L, FIELDS };

/// Taps k and k + 1 of the filter of scale S for vpmaddwd (the low half
/// multiplies the first of a pair); taps outside 0 .. 2 half are 0.
template <int S> VMAFHIP_AVX2 inline __m256i tap_pair(int k)
{
    const auto tap = [](int t) { return t >= 0 && t <= 2 * vif_half(S) ? vif_tap_at<S>(t) : 0u; };
    return avx2_pairs(static_cast<int>(tap(k)), static_cast<int>(tap(k + 1)));
}

/// Sixteen values of a field, from the uint32 lanes of the two unpacked
/// halves (packus keeps each 128-bit lane's order, which undoes the
/// unpacks'; every value fits 16 bits), minus 32768.
VMAFHIP_AVX2 inline void store_field(int16_t *out, __m256i lo, __m256i hi)
{
    _mm256_storeu_si256(reinterpret_cast<__m256i *>(out),
                        _mm256_xor_si256(_mm256_packus_epi32(lo, hi), _mm256_set1_epi16(INT16_MIN)));
}

/// Vectors [C0, C1) of the vertical sums of rows i (sum0) and i + 1 (sum1)
/// of scale S at 16 columns, in the order mu1, mu2, then the low 16 bits of
/// x^2, y^2, xy (C < 5), then their high 16 bits (C >= 5, Wide only). x
/// and y point at row i - R; each pair of rows (i - R + 2m, i - R + 2m + 1)
/// is unpacked (half H: the pairs of columns 0-3 and 8-11, or 4-7 and
/// 12-15) and multiplied once for both sums, one vpmaddwd per field and row:
/// taps[2m] are the taps of row i on it (2m, 2m + 1), taps[2m + 1] those of
/// row i + 1 (2m - 1, 2m). last: the offset of the second row of the last
/// pair (0 where that is past the picture: row i gives it a zero tap, and
/// then row i + 1 is not one). Values that may reach 2^15 are taken minus
/// 32768: Biased (16 bits, or scales 1-2) the samples and the high halves,
/// always the low halves. Not inlined and not unrolled: the sums stay in
/// registers (unrolled, GCC turns each into a tree whose parts spill; the
/// two halves' loads are best not shared).
template <int S, bool Biased, int H, int C0, int C1>
VMAFHIP_AVX2 __attribute__((noinline)) void vertical_sums(const uint16_t *x, const uint16_t *y, ptrdiff_t stride,
                                                      ptrdiff_t last, const __m256i *taps, __m256i *sum0,
                                                      __m256i *sum1)
{
    constexpr int R = vif_half(S), N = C1 - C0;
    const __m256i sign = _mm256_set1_epi16(INT16_MIN);
    __m256i a0[N], a1[N];
    for (int c = 0; c < N; c++)
        a0[c] = a1[c] = _mm256_setzero_si256();
#pragma GCC unroll 1
    for (int m = 0; m <= R; m++, x += 2 * stride, y += 2 * stride) {
        const ptrdiff_t next = m < R ? stride : last;
        const __m256i xa = avx2_load(x), xb = avx2_load(x + next), ya = avx2_load(y), yb = avx2_load(y + next);
        const __m256i xp = H ? _mm256_unpackhi_epi16(xa, xb) : _mm256_unpacklo_epi16(xa, xb);
        const __m256i yp = H ? _mm256_unpackhi_epi16(ya, yb) : _mm256_unpacklo_epi16(ya, yb);
        const __m256i f0 = taps[2 * m], f1 = taps[2 * m + 1];
        for (int c = 0; c < N; c++) {
            const int field = C0 + c;
            __m256i v;
            switch (field) {
            case 0: v = xp; break;
            case 1: v = yp; break;
            case 2: v = _mm256_mullo_epi16(xp, xp); break;
            case 3: v = _mm256_mullo_epi16(yp, yp); break;
            case 4: v = _mm256_mullo_epi16(xp, yp); break;
            case 5: v = _mm256_mulhi_epu16(xp, xp); break;
            case 6: v = _mm256_mulhi_epu16(yp, yp); break;
            default: v = _mm256_mulhi_epu16(xp, yp); break;
            }
            if (Biased || (field >= 2 && field < 5))
                v = _mm256_xor_si256(v, sign);
            a0[c] = _mm256_add_epi32(a0[c], _mm256_madd_epi16(v, f0));
            a1[c] = _mm256_add_epi32(a1[c], _mm256_madd_epi16(v, f1));
        }
    }
    for (int c = 0; c < N; c++) {
        sum0[C0 + c] = a0[c];
        sum1[C0 + c] = a1[c];
    }
}

/// vif_vertical_round of one unpack half's sums (vertical_sums' order) into
/// val: mu1, mu2, xx, yy, xy as uint32. The squares' sum is 65536 SH + SL
/// (SH = 0 unless Wide; vq <= 16). Wide: x^2 may reach 2^16 (above 8 bits,
/// or scales 1-2).
template <bool Wide, bool Biased> VMAFHIP_AVX2 inline void vertical_round(const __m256i *sum, int vp, int vq, __m256i *val)
{
    const __m128i vp_c = _mm_cvtsi32_si128(vp), vq_c = _mm_cvtsi32_si128(vq);
    const __m256i mean_add = u32((Biased ? 0x80000000u : 0u) + vif_round_add(vp));
    val[0] = _mm256_srl_epi32(_mm256_add_epi32(sum[0], mean_add), vp_c);
    val[1] = _mm256_srl_epi32(_mm256_add_epi32(sum[1], mean_add), vp_c);
    for (int c = 0; c < 3; c++) {
        const __m256i l = _mm256_add_epi32(sum[2 + c], u32(0x80000000u));
        if (!Wide) { // vq = 0
            val[2 + c] = l;
            continue;
        }
        const __m256i h = _mm256_add_epi32(sum[5 + c], u32(Biased ? 0x80000000u : 0u));
        val[2 + c] = _mm256_add_epi32(_mm256_sll_epi32(h, _mm_cvtsi32_si128(16 - vq)),
                                      _mm256_srl_epi32(_mm256_add_epi32(l, u32(vif_round_add(vq))), vq_c));
    }
}

/// The vertical outputs of rows i and i + 1 of scale S (last: as in
/// vertical_sums) into the FIELDS arrays out[0] and out[1], columns [0, w
/// rounded up to 16).
template <int S, bool Wide, bool Biased>
VMAFHIP_AVX2 void vertical(const VifScaleView &im, int i, ptrdiff_t last, int vp, int vq, int16_t *const out[2][FIELDS])
{
    constexpr int R = vif_half(S);
    __m256i taps[2 * (R + 1)];
    for (int m = 0; m <= R; m++) {
        taps[2 * m] = tap_pair<S>(2 * m);
        taps[2 * m + 1] = tap_pair<S>(2 * m - 1);
    }
    const uint16_t *x = im.row(0, i - R), *y = im.row(1, i - R);
    const __m256i mask16 = u32(0xFFFF);
    for (int j = 0; j < im.w; j += 16) {
        __m256i val[2][2][5]; // [row][half][field]
        __m256i sum[2][2][8]; // [half][row][vector]
        vertical_sums<S, Biased, 0, 0, 5>(x + j, y + j, im.stride, last, taps, sum[0][0], sum[0][1]);
        vertical_sums<S, Biased, 1, 0, 5>(x + j, y + j, im.stride, last, taps, sum[1][0], sum[1][1]);
        if (Wide) {
            vertical_sums<S, Biased, 0, 5, 8>(x + j, y + j, im.stride, last, taps, sum[0][0], sum[0][1]);
            vertical_sums<S, Biased, 1, 5, 8>(x + j, y + j, im.stride, last, taps, sum[1][0], sum[1][1]);
        }
        for (int h = 0; h < 2; h++)
            for (int r = 0; r < 2; r++)
                vertical_round<Wide, Biased>(sum[h][r], vp, vq, val[r][h]);
        for (int r = 0; r < 2; r++) {
            store_field(out[r][MU1] + j, val[r][0][0], val[r][1][0]);
            store_field(out[r][MU2] + j, val[r][0][1], val[r][1][1]);
            for (int c = 0; c < 3; c++) {
                store_field(out[r][XX_H + 2 * c] + j, _mm256_srli_epi32(val[r][0][2 + c], 16),
                            _mm256_srli_epi32(val[r][1][2 + c], 16));
                store_field(out[r][XX_L + 2 * c] + j, _mm256_and_si256(val[r][0][2 + c], mask16),
                            _mm256_and_si256(val[r][1][2 + c], mask16));
            }
        }
    }
}

/// Columns of the horizontal stage per step: the filter sums of a step's
/// fields stay in L1.
constexpr int STEP = 64;

/// The horizontal filter of scale S over one field, columns [0, n) (n a
/// multiple of 16): for every 16 columns, the sums of the even ones, then
/// of the odd ones (a load of 16 values at column c holds the pairs (c,
/// c + 1), (c + 2, c + 3), ...). One field at a time: the taps stay in
/// registers.
template <int S> VMAFHIP_AVX2 __attribute__((noinline)) void filter_field(const int16_t *in, int n, int32_t *sums)
{
    constexpr int R = vif_half(S);
    __m256i f[R + 1];
    for (int m = 0; m <= R; m++)
        f[m] = tap_pair<S>(2 * m);
    for (int j = 0; j < n; j += 8) { // 8 columns of one parity
        const int16_t *p = in + (j & ~15) + (j & 8 ? 1 : 0) - R;
        __m256i a = _mm256_madd_epi16(avx2_load(p), f[0]);
        for (int m = 1; m <= R; m++)
            a = _mm256_add_epi32(a, _mm256_madd_epi16(avx2_load(p + 2 * m), f[m]));
        _mm256_store_si256(reinterpret_cast<__m256i *>(sums + j), a);
    }
}

/// The horizontal stage of scale S over the FIELDS arrays (mirrored
/// columns on both sides) and the statistic of columns [0, w), into acc.
template <int S>
VMAFHIP_AVX2 void horizontal_stats(const int16_t *const in[FIELDS], int w, double egl, const uint16_t *table,
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
                sq[c] = _mm256_add_epi32(_mm256_add_epi32(avx2_load(sums[XX_H + 2 * c] + j), half_add),
                                         _mm256_srli_epi32(_mm256_add_epi32(avx2_load(sums[XX_L + 2 * c] + j), round_add), 16));
            // Lane l is column j0 + (j & ~15) + 2 l, plus 1 in the odd half.
            const int c0 = j0 + (j & ~15) + (j & 8 ? 1 : 0);
            const __m256i valid =
                _mm256_cmpgt_epi32(_mm256_set1_epi32(w), _mm256_add_epi32(_mm256_set1_epi32(c0), lanes));
            pixel_stats(_mm256_add_epi32(avx2_load(sums[MU1] + j), half_add), _mm256_add_epi32(avx2_load(sums[MU2] + j), half_add),
                        sq[0], sq[1], sq[2], valid, egl_v, table, acc);
        }
    }
}

/// §4.2 with filter S (1 or 2): rows [y0, y1) of dst from src. t: a row's
/// worth of buffer, R slots before it.
template <int S>
VMAFHIP_AVX2 void down_rows(const VifParams &p, const VifScaleView &src, const VifScaleView &dst, int y0, int y1,
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
        f[m] = tap_pair<S>(2 * m);
    for (int pic = 0; pic < 2; pic++)
        for (int y = y0; y < y1; y++) {
            // Vertical, at the even rows only.
            for (int j = 0; j < w; j += 16) {
                __m256i lo = _mm256_setzero_si256(), hi = lo;
                for (int m = 0; m <= R; m++) {
                    const int a = 2 * y - R + 2 * m;
                    const __m256i ra = avx2_load(src.row(pic, a) + j), rb = avx2_load(src.row(pic, m < R ? a + 1 : a) + j);
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
                    acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_xor_si256(avx2_load(t + 2 * x - R + 2 * m), sign), f[m]));
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
    std::vector<int16_t> fields_[2][FIELDS]; ///< the vertical outputs of two rows
    std::vector<uint16_t> t_;                ///< the low-pass vertical outputs of one row

    template <int S, bool Wide, bool Biased>
    VMAFHIP_AVX2 void stats_rows(const VifParams &p, const VifScaleView &im, int i0, int i1, VifPartial *part)
    {
        constexpr int R = vif_half(S);
        const int w = im.w;
        // Columns [-R, w rounded up to 16 + R], and 16 more for the loads of
        // the horizontal stage's zero tap.
        const size_t n = static_cast<size_t>((w + 15) / 16 * 16 + 2 * R + 16);
        int16_t *v[2][FIELDS];
        for (int r = 0; r < 2; r++)
            for (int c = 0; c < FIELDS; c++) {
                fields_[r][c].resize(n);
                v[r][c] = fields_[r][c].data() + R;
            }
        const uint16_t *table = gather_table();
        const int vp = vif_vp_shift(S, p.bpc), vq = vif_vq_shift(S, p.bpc);
        for (int i = i0; i < i1; i += 2) { // two rows at a time
            vertical<S, Wide, Biased>(im, i, i + 1 < im.h ? im.stride : 0, vp, vq, v);
            for (int r = 0; r < 2 && i + r < i1; r++) {
                for (int c = 0; c < FIELDS; c++)
                    vif_pad_columns(v[r][c], w, R, v[r][c]); // w >= 2 at scales 0-2 (W >= 8)
                StatSums acc;
                horizontal_stats<S>(v[r], w, p.egl, table, acc);
                acc.add_to(part);
            }
        }
    }

};

} // namespace

bool vif_cpu_has_avx2() { return cpu_has_avx2(); }

std::unique_ptr<VifRows> vif_rows_avx2() { return std::make_unique<Avx2Rows>(); }

#else // defined(__x86_64__)

bool vif_cpu_has_avx2() { return false; }

std::unique_ptr<VifRows> vif_rows_avx2() { return nullptr; }

#endif // defined(__x86_64__)

} // namespace vmafhip
