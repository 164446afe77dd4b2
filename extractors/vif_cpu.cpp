// integer VIF CPU reference (docs/vif.md §3, §4, §8): libvmaf's pipeline on
// images padded the way libvmaf pads them (mirrored rows above and below,
// mirrored columns of every filtered row), with the per-sample arithmetic of
// kernels/vif_ops.h. Rows are split over the thread pool; every sum is an
// exact integer sum, so the result does not depend on the split.
#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "base/cpu_clones.h"
#include "base/thread_pool.h"
#include "extractors/vif.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up.
constexpr int MIN_ROWS = 8;

/// The ref and dis images of one scale (uint16, every scale and bit depth)
/// with `pad` rows above and below, as libvmaf's buffer holds them.
struct PaddedPair {
    int w = 0, h = 0, pad = 0;
    std::vector<uint16_t> data[2]; ///< [ref, dis]: (h + 2 pad) rows of w samples

    void resize(int w_, int h_, int pad_)
    {
        w = w_;
        h = h_;
        pad = pad_;
        for (auto &d : data)
            d.resize(static_cast<size_t>(w) * static_cast<size_t>(h + 2 * pad));
    }
    /// Row i in [-pad, h + pad) of picture p (0 ref, 1 dis).
    uint16_t *row(int p, int i) { return data[p].data() + static_cast<ptrdiff_t>(i + pad) * w; }

    /// §3: the pad rows, mirrored. prev: the previous scale, used only when
    /// this one has a single row (§8: libvmaf's pad rows are then its row 1).
    void pad_rows(PaddedPair *prev)
    {
        for (int p = 0; p < 2; p++)
            for (int k = 1; k <= pad; k++) {
                const uint16_t *top = h > 1 ? row(p, vif_mirror(-k, h)) : prev->row(p, 1);
                const uint16_t *bot = h > 1 ? row(p, vif_mirror(h - 1 + k, h)) : prev->row(p, 1);
                std::copy(top, top + w, row(p, -k));
                std::copy(bot, bot + w, row(p, h - 1 + k));
            }
    }
};

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

/// Buffers of one chunk of rows.
struct RowScratch {
    RowSums<uint64_t> vsum, hsum; ///< vertical and horizontal filter sums of one row
    RowSums<uint32_t> vsum32;   ///< vertical sums where uint32 holds them (VIF_NARROW_SUMS_8BIT)
    std::vector<uint32_t> v[5]; ///< the rounded vertical outputs of one row (mu1, mu2, xx,
                                ///< yy, xy), mirrored columns on both sides
    std::vector<uint16_t> t[2]; ///< low-pass vertical outputs of one row, ref and dis
};

/// §3 / §8: the `r` columns left and right of a filtered row of w columns
/// (row[0 .. w) valid, the pointer has r slots before it and after w).
/// stale: libvmaf's value of every such column when w == 1 (§8).
template <typename T> void pad_columns(T *row, int w, int r, const T *stale)
{
    for (int k = 1; k <= r; k++) {
        row[-k] = w > 1 ? row[vif_mirror(-k, w)] : *stale;
        row[w - 1 + k] = w > 1 ? row[vif_mirror(w - 1 + k, w)] : *stale;
    }
}

/// One field of vif_horizontal_tap over a row, taps f[0 .. 3] at once:
/// sum[j] += f[t] * v[j + t] (four taps per pass over the sums, a quarter of
/// the memory traffic of one), for the means (uint32) and the second moments
/// (uint64).
template <typename Acc>
inline void horizontal_taps4(Acc *__restrict__ sum, const uint32_t *__restrict__ v, const uint32_t f[4], int w)
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
VMAFHIP_CPU_CLONES void horizontal_taps(uint32_t *sum, const uint32_t *v, const uint32_t f[4], int w)
{
    horizontal_taps4(sum, v, f, w);
}
VMAFHIP_CPU_CLONES void horizontal_taps(uint64_t *sum, const uint32_t *v, const uint32_t f[4], int w)
{
    horizontal_taps4(sum, v, f, w);
}

/// vif_vertical_tap over a row: tap f of rows x (ref) and y (dis) into the
/// sums; second moments in uint64, or in uint32 where they fit (8-bit scale 0:
/// twice the lanes).
template <typename Acc>
inline void vertical_taps_row(uint32_t *__restrict__ m1, uint32_t *__restrict__ m2,
                              Acc *__restrict__ xx, Acc *__restrict__ yy, Acc *__restrict__ xy,
                              uint32_t f, const uint16_t *__restrict__ x,
                              const uint16_t *__restrict__ y, int w)
{
    for (int j = 0; j < w; j++)
        vif_vertical_tap(m1[j], m2[j], xx[j], yy[j], xy[j], f, x[j], y[j]);
}
VMAFHIP_CPU_CLONES void vertical_taps(uint32_t *m1, uint32_t *m2, uint64_t *xx, uint64_t *yy,
                                      uint64_t *xy, uint32_t f, const uint16_t *x, const uint16_t *y,
                                      int w)
{
    vertical_taps_row(m1, m2, xx, yy, xy, f, x, y, w);
}
VMAFHIP_CPU_CLONES void vertical_taps(uint32_t *m1, uint32_t *m2, uint32_t *xx, uint32_t *yy,
                                      uint32_t *xy, uint32_t f, const uint16_t *x, const uint16_t *y,
                                      int w)
{
    vertical_taps_row(m1, m2, xx, yy, xy, f, x, y, w);
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
void vertical_row(PaddedPair &im, int i, int vp, int vq, RowSums<Acc> &a, uint32_t *const v[5])
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

/// §4.1: statistics of rows [i0, i1) of scale S into part.
template <int S>
void stats_rows(const VifParams &p, PaddedPair &im, const VifVert &stale, const uint16_t *table,
                int i0, int i1, RowScratch &rs, VifPartial &part)
{
    constexpr int R = vif_half(S);
    const int w = im.w;
    const size_t n = static_cast<size_t>(w);
    const int vp = vif_vp_shift(S, p.bpc), vq = vif_vq_shift(S, p.bpc);
    uint32_t *v[5];
    for (int c = 0; c < 5; c++) {
        rs.v[c].resize(n + 2 * R + 3); // 3 spare values, read by the zero taps below
        v[c] = rs.v[c].data() + R;
    }
    const uint32_t stale_v[5] = {stale.mu1, stale.mu2, stale.xx, stale.yy, stale.xy};
    for (int i = i0; i < i1; i++) {
        // vif_vertical, tap by tap over the whole row: the same sums, in
        // loops the compiler vectorises; 8-bit scale 0 in uint32
        // (VIF_NARROW_SUMS_8BIT).
        if (S == 0 && p.bpc == 8)
            vertical_row<S>(im, i, vp, vq, rs.vsum32, v);
        else
            vertical_row<S>(im, i, vp, vq, rs.vsum, v);
        for (int c = 0; c < 5; c++)
            pad_columns(v[c], w, R, &stale_v[c]);
        // vif_horizontal, tap by tap over the whole row likewise, a field at
        // a time (five streams in and out at once defeat the vectoriser).
        RowSums<uint64_t> &h = rs.hsum;
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
void down_rows(const VifParams &p, PaddedPair &src, PaddedPair &dst, int y0, int y1, RowScratch &rs)
{
    constexpr int R = vif_half(S);
    const int w = src.w;
    const int shift = vif_down_shift(S, p.bpc);
    for (int pic = 0; pic < 2; pic++) {
        rs.t[pic].resize(static_cast<size_t>(w + 2 * R));
        uint16_t *t = rs.t[pic].data() + R;
        for (int y = y0; y < y1; y++) {
            const uint16_t *in = src.row(pic, 2 * y - R); // only even rows are kept
            for (int j = 0; j < w; j++)
                t[j] = vif_lowpass<S>(in + j, w, shift);
            pad_columns(t, w, R, t); // w >= 2 at scales 0-2 (W >= 8)
            uint16_t *out = dst.row(pic, y);
            for (int x = 0; x < dst.w; x++)
                out[x] = vif_lowpass<S>(t + 2 * x - R, 1, 16);
        }
    }
}

} // namespace

struct VifCpuScratch {
    PaddedPair img[VIF_SCALES];

    /// RowScratch for the chunks in flight, kept between frames.
    std::mutex mutex;
    std::vector<std::unique_ptr<RowScratch>> spare;

    std::unique_ptr<RowScratch> take()
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (spare.empty())
            return std::make_unique<RowScratch>();
        std::unique_ptr<RowScratch> r = std::move(spare.back());
        spare.pop_back();
        return r;
    }
    void give(std::unique_ptr<RowScratch> r)
    {
        std::lock_guard<std::mutex> lock(mutex);
        spare.push_back(std::move(r));
    }
};

namespace {

template <typename T> void widen(const T *__restrict in, uint16_t *__restrict out, int w)
{
    for (int j = 0; j < w; j++)
        out[j] = in[j];
}

template <typename T> void copy_rows(const PlaneView &pl, PaddedPair &im, int pic, int i0, int i1)
{
    for (int i = i0; i < i1; i++)
        widen(pl.row<T>(i), im.row(pic, i), im.w);
}

/// Scale S (>= 1) from scale S - 1, then its pad rows.
template <int S> void build_scale(const VifParams &p, VifCpuScratch &b, ThreadPool &pool)
{
    pool.parallel_for(p.h[S], MIN_ROWS, [&](int y0, int y1) {
        std::unique_ptr<RowScratch> rs = b.take();
        down_rows<S>(p, b.img[S - 1], b.img[S], y0, y1, *rs);
        b.give(std::move(rs));
    });
    b.img[S].pad_rows(&b.img[S - 1]);
}

/// Statistics of scale S into acc.
template <int S> void score_scale(const VifParams &p, VifCpuScratch &b, ThreadPool &pool, VifAccum *acc)
{
    // §8: with one column at scale 3, libvmaf's mirrored columns hold the
    // scale-2 vertical outputs of its last row, column 1.
    VifVert stale = {0, 0, 0, 0, 0};
    if (S == 3 && p.w[3] == 1) {
        PaddedPair &s2 = b.img[2];
        const int i = p.h[2] - 1 - vif_half(2);
        stale = vif_vertical<2>(s2.row(0, i) + 1, s2.row(1, i) + 1, s2.w, vif_vp_shift(2, p.bpc),
                                vif_vq_shift(2, p.bpc));
    }
    const uint16_t *table = vif_log2_table();
    std::mutex m;
    pool.parallel_for(p.h[S], MIN_ROWS, [&](int i0, int i1) {
        std::unique_ptr<RowScratch> rs = b.take();
        VifPartial part = {0, 0, 0, 0};
        stats_rows<S>(p, b.img[S], stale, table, i0, i1, *rs, part);
        b.give(std::move(rs));
        std::lock_guard<std::mutex> lock(m); // exact integer sums: any order
        acc->num_log[S] += part.num_log;
        acc->den_log[S] += part.den_log;
        acc->num_nonlog[S] += part.num_nonlog;
        acc->den_nonlog[S] += part.den_nonlog;
    });
}

} // namespace

void Vif::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const VifParams &p = p_;
    if (!cpu_) {
        cpu_ = std::make_shared<VifCpuScratch>();
        for (int s = 0; s < VIF_SCALES; s++)
            cpu_->img[s].resize(p.w[s], p.h[s], vif_half(s));
    }
    VifCpuScratch &b = *cpu_;
    VifAccum *acc = static_cast<VifAccum *>(accum);
    *acc = VifAccum{};

    // Scale 0: the luma planes as uint16, padded.
    pool.parallel_for(2 * p.h[0], 4 * MIN_ROWS, [&](int k0, int k1) {
        // Items [0, h) are reference rows, [h, 2h) distorted rows.
        for (int pic = 0; pic < 2; pic++) {
            const int a = (k0 > pic * p.h[0] ? k0 : pic * p.h[0]) - pic * p.h[0];
            const int e = (k1 < (pic + 1) * p.h[0] ? k1 : (pic + 1) * p.h[0]) - pic * p.h[0];
            if (a >= e)
                continue;
            const PlaneView &pl = pic ? f.dis[0] : f.ref[0];
            if (p.bpc > 8)
                copy_rows<uint16_t>(pl, b.img[0], pic, a, e);
            else
                copy_rows<uint8_t>(pl, b.img[0], pic, a, e);
        }
    });
    b.img[0].pad_rows(nullptr);

    if (!p.skip_scale0)
        score_scale<0>(p, b, pool, acc);
    build_scale<1>(p, b, pool);
    score_scale<1>(p, b, pool, acc);
    build_scale<2>(p, b, pool);
    score_scale<2>(p, b, pool, acc);
    build_scale<3>(p, b, pool);
    score_scale<3>(p, b, pool, acc);
}

} // namespace vmafhip
