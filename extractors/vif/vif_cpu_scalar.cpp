// integer VIF row kernels in plain C++ (docs/vif.md §4): the per-sample
// arithmetic of kernels/vif/vif_ops.h, built for the baseline. Any CPU; also
// the scale-3 rows of the AVX2 kernels (a 64th of the pixels).
#include <vector>

#include "extractors/vif/vif.h"
#include "extractors/vif/vif_cpu_rows.h"

namespace vmafhip {

namespace {

/// Filter sums of one row, a field per array (loops over a row vectorise).
/// Acc: the type of the second-moment sums.
template <typename Acc> struct RowSums {
    std::vector<uint32_t> mu[2]; ///< means
    std::vector<Acc> sq[3];      ///< second moments xx, yy, xy

    void zero(size_t w)
    {
        for (auto &b : mu)
            b.assign(w, 0u);
        for (auto &b : sq)
            b.assign(w, Acc{0});
    }
};

/// One field of vif_horizontal_tap over a row, taps f[0 .. 3] at once:
/// sum[j] += f[t] * v[j + t] (four taps per pass over the sums, a quarter of
/// the memory traffic of one), for the means (uint32) and the second moments
/// (uint64).
template <typename Acc>
inline void horizontal_taps(Acc *__restrict__ sum, const uint32_t *__restrict__ v, const uint32_t f[4], int w)
{
    const uint32_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3];
    for (int j = 0; j < w; j++) {
        Acc a = sum[j];
        vif_horizontal_tap_field(a, f0, v[j]);
        vif_horizontal_tap_field(a, f1, v[j + 1]);
        vif_horizontal_tap_field(a, f2, v[j + 2]);
        vif_horizontal_tap_field(a, f3, v[j + 3]);
        sum[j] = a;
    }
}

/// vif_vertical_tap over a row: tap f of rows x (ref) and y (dis) into the
/// sums; second moments in uint64, or in uint32 where they fit (8-bit scale 0:
/// twice the lanes).
template <typename Acc>
inline void vertical_taps(uint32_t *__restrict__ m1, uint32_t *__restrict__ m2, Acc *__restrict__ xx,
                          Acc *__restrict__ yy, Acc *__restrict__ xy, uint32_t f,
                          const uint16_t *__restrict__ x, const uint16_t *__restrict__ y, int w)
{
    for (int j = 0; j < w; j++)
        vif_vertical_tap(m1[j], m2[j], xx[j], yy[j], xy[j], f, x[j], y[j]);
}

/// The vertical sums rounded (vif_vertical_round) into the five fields
/// arrays. Pointers as parameters: GCC honours their __restrict there.
template <typename Acc>
void round_vertical(const uint32_t *__restrict m1, const uint32_t *__restrict m2,
                    const Acc *__restrict xx, const Acc *__restrict yy, const Acc *__restrict xy,
                    int vp, int vq, int w, uint32_t *__restrict v1, uint32_t *__restrict v2,
                    uint32_t *__restrict vxx, uint32_t *__restrict vyy, uint32_t *__restrict vxy)
{
    for (int j = 0; j < w; j++) {
        const VifVert r = vif_vertical_round(VifSums{m1[j], m2[j], xx[j], yy[j], xy[j]}, vp, vq);
        v1[j] = r.mu1;
        v2[j] = r.mu2;
        vxx[j] = r.xx;
        vyy[j] = r.yy;
        vxy[j] = r.xy;
    }
}

/// The vertical sums of rows i - R .. i + R of scale S, rounded, into v[5][w].
template <int S, typename Acc>
void vertical_row(const VifScaleView &im, int i, int vp, int vq, RowSums<Acc> &a, uint32_t *const v[5])
{
    constexpr int R = vif_half(S);
    const int w = im.w;
    a.zero(static_cast<size_t>(w));
    uint32_t *m1 = a.mu[0].data(), *m2 = a.mu[1].data();
    Acc *xx = a.sq[0].data(), *yy = a.sq[1].data(), *xy = a.sq[2].data();
    for (int k = 0; k <= 2 * R; k++)
        vertical_taps(m1, m2, xx, yy, xy, vif_tap_at<S>(k), im.row(0, i - R + k), im.row(1, i - R + k), w);
    round_vertical(m1, m2, xx, yy, xy, vp, vq, w, v[0], v[1], v[2], v[3], v[4]);
}

class ScalarRows final : public VifRows {
public:
    void stats(int s, const VifParams &p, const VifScaleView &im, const VifVert &stale, int i0, int i1,
               VifPartial *part) override
    {
        const uint16_t *table = vif_log2_table();
        switch (s) {
        case 0: stats_rows<0>(p, im, stale, table, i0, i1, *part); break;
        case 1: stats_rows<1>(p, im, stale, table, i0, i1, *part); break;
        case 2: stats_rows<2>(p, im, stale, table, i0, i1, *part); break;
        default: stats_rows<3>(p, im, stale, table, i0, i1, *part); break;
        }
    }

    void down(int s, const VifParams &p, const VifScaleView &src, const VifScaleView &dst, int y0,
              int y1) override
    {
        switch (s) {
        case 1: down_rows<1>(p, src, dst, y0, y1); break;
        case 2: down_rows<2>(p, src, dst, y0, y1); break;
        default: down_rows<3>(p, src, dst, y0, y1); break;
        }
    }

private:
    RowSums<uint64_t> vsum_, hsum_; ///< vertical and horizontal filter sums of one row
    RowSums<uint32_t> vsum32_;      ///< vertical sums where uint32 holds them (VIF_NARROW_SUMS_8BIT)
    std::vector<uint32_t> v_[5];    ///< the rounded vertical outputs of one row (mu1, mu2, xx,
                                    ///< yy, xy), mirrored columns on both sides
    std::vector<uint16_t> t_;       ///< low-pass vertical outputs of one row

    /// §4.1: statistics of rows [i0, i1) of scale S into part.
    template <int S>
    void stats_rows(const VifParams &p, const VifScaleView &im, const VifVert &stale, const uint16_t *table,
                    int i0, int i1, VifPartial &part)
    {
        constexpr int R = vif_half(S);
        const int w = im.w;
        const size_t n = static_cast<size_t>(w);
        const int vp = vif_vp_shift(S, p.bpc), vq = vif_vq_shift(S, p.bpc);
        uint32_t *v[5];
        for (int c = 0; c < 5; c++) {
            v_[c].resize(n + 2 * R + 3); // 3 spare values, read by the zero taps below
            v[c] = v_[c].data() + R;
        }
        const uint32_t stale_v[5] = {stale.mu1, stale.mu2, stale.xx, stale.yy, stale.xy};
        for (int i = i0; i < i1; i++) {
            // vif_vertical, tap by tap over the whole row: the same sums, in
            // loops the compiler vectorises; 8-bit scale 0 in uint32
            // (VIF_NARROW_SUMS_8BIT).
            if (S == 0 && p.bpc == 8)
                vertical_row<S>(im, i, vp, vq, vsum32_, v);
            else
                vertical_row<S>(im, i, vp, vq, vsum_, v);
            for (int c = 0; c < 5; c++)
                vif_pad_columns(v[c], w, R, &stale_v[c]);
            // vif_horizontal, tap by tap over the whole row likewise, a field at
            // a time (five streams in and out at once defeat the vectoriser).
            RowSums<uint64_t> &h = hsum_;
            h.zero(n);
            uint32_t *__restrict__ h1 = h.mu[0].data(), *__restrict__ h2 = h.mu[1].data();
            uint64_t *__restrict__ hxx = h.sq[0].data(), *__restrict__ hyy = h.sq[1].data();
            uint64_t *__restrict__ hxy = h.sq[2].data();
            // Taps in fours, the last group padded with zero taps (which read
            // the spare values past the mirrored columns: times 0, nothing).
            for (int k = 0; k <= 2 * R; k += 4) {
                uint32_t f[4];
                for (int t = 0; t < 4; t++)
                    f[t] = k + t <= 2 * R ? vif_tap_at<S>(k + t) : 0;
                horizontal_taps(h1, v[0] + k - R, f, w);
                horizontal_taps(h2, v[1] + k - R, f, w);
                horizontal_taps(hxx, v[2] + k - R, f, w);
                horizontal_taps(hyy, v[3] + k - R, f, w);
                horizontal_taps(hxy, v[4] + k - R, f, w);
            }
            for (int j = 0; j < w; j++) {
                VifSums s{h1[j], h2[j], hxx[j], hyy[j], hxy[j]};
                vif_horizontal_round(s);
                vif_pixel(s, p.egl, table, part);
            }
        }
    }

    /// §4.2: rows [y0, y1) of scale S (>= 1) from the padded scale S - 1.
    template <int S>
    void down_rows(const VifParams &p, const VifScaleView &src, const VifScaleView &dst, int y0, int y1)
    {
        constexpr int R = vif_half(S);
        const int w = src.w;
        const int shift = vif_down_shift(S, p.bpc);
        t_.resize(static_cast<size_t>(w + 2 * R));
        uint16_t *t = t_.data() + R;
        for (int pic = 0; pic < 2; pic++)
            for (int y = y0; y < y1; y++) {
                const uint16_t *in = src.row(pic, 2 * y - R); // only even rows are kept
                for (int j = 0; j < w; j++)
                    t[j] = vif_lowpass<S>(in + j, src.stride, shift);
                vif_pad_columns(t, w, R, t); // w >= 2 at scales 0-2 (W >= 8)
                uint16_t *out = dst.row(pic, y);
                for (int x = 0; x < dst.w; x++)
                    out[x] = vif_lowpass<S>(t + 2 * x - R, 1, 16);
            }
    }
};

} // namespace

std::unique_ptr<VifRows> vif_rows_scalar() { return std::make_unique<ScalarRows>(); }

} // namespace vmafhip
