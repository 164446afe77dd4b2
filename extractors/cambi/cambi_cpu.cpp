// cambi CPU code: one picture's pass, §3 to §10.
//
// Cost per frame: the preprocessing, mask, mode filter and decimations are
// a few integer operations per pixel. The window counts (§8.1) use sliding
// per-column histograms: each masked pixel in the value band enters and
// leaves the histograms of the ws columns it covers once (a run of equal
// values at once), so a scale costs at most about 2 * ws updates per masked
// pixel plus 2 nd + 1 lookups per pixel; it runs in horizontal bands over
// the frame's threads.
#include <algorithm>
#include <cstddef>
#include <memory>

#include "base/thread_pool.h"
#include "extractors/cambi/cambi.h"

#if defined(__x86_64__)
#include "base/avx2.h"
#endif

namespace vmafhip {

namespace {

inline uint32_t sample(const PlaneView &v, int bpc, int y, int x)
{
    return bpc > 8 ? v.row<uint16_t>(y)[x] : v.row<uint8_t>(y)[x];
}

/// The window counts of one pixel: histogram rows of one column, nd rows
/// apart in value (§8.1).
struct HistCounts {
    const uint16_t *centre;
    ptrdiff_t row;
    int operator()(int e) const { return centre[e * row]; }
};

/// §8.1: one row of the picture and the histograms its values enter.
struct HistRow {
    const uint16_t *values;
    const uint8_t *mask;
    uint16_t *hist; ///< row v - lo + nd for value v, w columns each
    int w, lo, hi, nd, pad;
};

/// §8.1: the masked band values of row r entering (delta 1) or leaving
/// (delta -1) the histograms of the columns their window covers. A run of
/// equal values, common where CAMBI looks (flat and banded areas), is added
/// at once: column c gains the number of the run's pixels within pad of it,
/// the sum of the pixels' own runs of adds, in one vectorisable pass (the
/// counts are exact integers, so the histograms are the same numbers).
__attribute__((always_inline)) inline void hist_update_row(const HistRow &r, int delta)
{
    const auto counted = [&r](int b) {
        const int v = r.values[b];
        return r.mask[b] && v >= r.lo && v <= r.hi;
    };
    for (int b = 0; b < r.w;) {
        if (!counted(b)) {
            b++;
            continue;
        }
        const int v = r.values[b];
        int e = b + 1; // the run is [b, e)
        while (e < r.w && r.values[e] == v && counted(e))
            e++;
        uint16_t *hr = r.hist + static_cast<size_t>(v - r.lo + r.nd) * r.w;
        const int c0 = std::max(b - r.pad, 0), c1 = std::min(e - 1 + r.pad + 1, r.w);
        for (int c = c0; c < c1; c++) {
            const int n = std::min(e - 1, c + r.pad) - std::max(b, c - r.pad) + 1;
            hr[c] = static_cast<uint16_t>(hr[c] + delta * n);
        }
        b = e;
    }
}

void hist_update_plain(const HistRow &r, int delta) { hist_update_row(r, delta); }

#if defined(__x86_64__)
/// The same code, compiled for AVX2: twice the adds per instruction.
VMAFHIP_AVX2 void hist_update_avx2(const HistRow &r, int delta) { hist_update_row(r, delta); }
#endif

/// hist_update_row() as the processor runs it best.
void hist_update(const HistRow &r, int delta)
{
#if defined(__x86_64__)
    static const auto fn = cpu_has_avx2() ? hist_update_avx2 : hist_update_plain;
    fn(r, delta);
#else
    hist_update_plain(r, delta);
#endif
}

} // namespace

/// The planes of one picture's pass, kept between frames as they are: a
/// fresh multi-megabyte allocation per picture costs more in page faults
/// than the pass itself. Every plane element a pass reads it writes first;
/// the histograms are all zero between scales and between passes (each
/// scale removes the rows it added; nothing in between can throw).
struct CambiCpuScratch {
    std::vector<uint16_t> img, tmp, hist;
    std::vector<uint8_t> mask, z, col;
    std::vector<float> cv;
};

double Cambi::score(const PlaneView &luma, const CambiPass &p, CambiCpuScratch &s,
                    ThreadPool &pool) const
{
    const int W = p.w, H = p.h;
    const size_t n = static_cast<size_t>(W) * H;
    s.img.resize(n);
    s.tmp.resize(n);
    s.mask.resize(n);
    s.z.resize(n);
    s.col.resize(static_cast<size_t>(W) + 6);
    s.cv.resize(n);
    // Raw pointers held in locals: byte stores could alias the vectors'
    // own pointers, which would then be reloaded in every inner loop.
    uint16_t *const img = s.img.data(), *const tmp = s.tmp.data();
    uint8_t *const mask = s.mask.data(), *const z = s.z.data(), *const col = s.col.data();
    float *const cv = s.cv.data();

    // §4.2: resize (nearest, index vectors) and depth mapping.
    for (int i = 0; i < H; i++) {
        const int y = p.resize ? p.sy[static_cast<size_t>(i)] : i;
        uint16_t *out = &img[static_cast<size_t>(i) * W];
        for (int j = 0; j < W; j++)
            out[j] = cambi_to10(
                sample(luma, g_.bpc, y, p.resize ? p.sx[static_cast<size_t>(j)] : j), g_.bpc);
    }
    // §4.3: anti-dithering, from the unfiltered values.
    if (anti_dither_) {
        std::copy(img, img + n, tmp);
        for (int i = 0; i < H; i++)
            for (int j = 0; j < W; j++)
                img[static_cast<size_t>(i) * W + j] = cambi_anti_dither(tmp, W, H, i, j);
    }
    // §5: zero-derivative flags, their 7x7 sums (columns, then rows), the mask.
    {
        // The last row and column apart, so that the inner loop has no edge
        // tests and vectorises.
        for (int i = 0; i < H; i++) {
            uint8_t *zr = z + static_cast<size_t>(i) * W;
            if (i < H - 1)
                for (int j = 0; j < W - 1; j++)
                    zr[j] = static_cast<uint8_t>(cambi_zero_derivative(img, W, H, i, j));
            else
                for (int j = 0; j < W - 1; j++)
                    zr[j] = static_cast<uint8_t>(cambi_zero_derivative(img, W, H, H - 1, j));
            zr[W - 1] = static_cast<uint8_t>(cambi_zero_derivative(img, W, H, i, W - 1));
        }
        // col[3 + j]: the flags of rows i-3 .. i+3 of column j, slid down a
        // row at a time (a row enters below, a row leaves above), with three
        // zero columns on each side for the horizontal sums.
        const auto slide = [&](int row, int sign) {
            const uint8_t *zr = z + static_cast<size_t>(row) * W;
            for (int j = 0; j < W; j++)
                col[3 + j] = static_cast<uint8_t>(col[3 + j] + sign * zr[j]);
        };
        std::fill(col, col + W + 6, 0);
        for (int a = 0; a < std::min(H, 3); a++)
            slide(a, 1);
        for (int i = 0; i < H; i++) {
            if (i + 3 < H)
                slide(i + 3, 1);
            if (i - 4 >= 0)
                slide(i - 4, -1);
            uint8_t *mr = mask + static_cast<size_t>(i) * W;
            for (int j = 0; j < W; j++) {
                const int sum = col[j] + col[j + 1] + col[j + 2] + col[j + 3] + col[j + 4] +
                                col[j + 5] + col[j + 6];
                mr[j] = sum > p.mask_index;
            }
        }
    }

    const float *R = cambi_reciprocals();
    const int nd = t_.nd, pad = p.pad, lo = t_.lo, hi = t_.hi;
    // Histogram rows for the band plus nd empty rows on each side, so that
    // v - d and v + d never need a test.
    const int rows = hi - lo + 1 + 2 * nd;
    // §8 runs in horizontal bands of the picture, one task each, with
    // histograms of their own; a band of at least four windows' height,
    // so that the rows each band adds before its first (its window) cost
    // little. bands: the most of any scale (the picture's).
    const auto bands_of = [&](int height, int most) {
        return std::clamp(height / (4 * (2 * pad + 1)), 1, most);
    };
    const int bands = bands_of(H, pool.size());
    const size_t band_hist = static_cast<size_t>(rows) * W;
    if (s.hist.size() < band_hist * bands)
        s.hist.assign(band_hist * bands, 0);
    double value[CAMBI_SCALES];
    int w = W, h = H;
    const size_t stride = static_cast<size_t>(W);
    for (int scale = 0; scale < CAMBI_SCALES; scale++) {
        // §6: halve P and M (once more before scale 0 with the speed-up).
        for (int halvings = (scale > 0) + (scale == 0 && speedup_); halvings > 0; halvings--) {
            const int nw = (w + 1) >> 1, nh = (h + 1) >> 1;
            for (int i = 0; i < nh; i++)
                for (int j = 0; j < nw; j++) {
                    img[i * stride + j] = img[2 * i * stride + 2 * j];
                    mask[i * stride + j] = mask[2 * i * stride + 2 * j];
                }
            w = nw, h = nh;
        }
        // §7: mode filter; the first and last rows keep their values.
        for (int r = 0; h > 2 && r < h; r++) {
            const uint16_t *src = &img[r * stride];
            uint16_t *out = &tmp[r * stride];
            out[0] = src[0];
            out[w - 1] = src[w - 1];
            for (int j = 1; j < w - 1; j++)
                out[j] = cambi_mode3(src[j - 1], src[j], src[j + 1]);
        }
        for (int i = 1; i < h - 1; i++)
            for (int j = 0; j < w; j++)
                img[i * stride + j] = cambi_mode3(tmp[(i - 1) * stride + j], tmp[i * stride + j],
                                                  tmp[(i + 1) * stride + j]);
        // §8: sliding per-column histograms of the masked band values, for
        // the rows [r0, r1) of a band, its histograms zero on entry. Before
        // row i they hold rows [i - pad - 1, i + pad) (from the first row on),
        // row i + pad enters and row i - pad - 1 leaves.
        const auto band = [&](int r0, int r1, uint16_t *hist) {
            const auto update = [&](int row, int delta) {
                hist_update(
                    HistRow{&img[row * stride], &mask[row * stride], hist, w, lo, hi, nd, pad}, delta);
            };
            for (int a = std::max(0, r0 - pad - 1); a < std::min(r0 + pad, h); a++)
                update(a, 1);
            for (int i = r0; i < r1; i++) {
                if (i + pad < h)
                    update(i + pad, 1);
                if (i - pad - 1 >= 0)
                    update(i - pad - 1, -1);
                const uint16_t *pv = &img[i * stride];
                const uint8_t *pm = &mask[i * stride];
                float *out = &cv[static_cast<size_t>(i) * w];
                for (int j = 0; j < w; j++) {
                    float c = 0.0f;
                    const int v = pv[j];
                    if (pm[j] && v >= lo && v <= hi)
                        c = cambi_c_value(v, t_, R,
                                          HistCounts{hist + static_cast<size_t>(v - lo + nd) * w + j,
                                                     static_cast<ptrdiff_t>(w)});
                    out[j] = c;
                }
            }
            // The rows still in the window leave: zero histograms again, for
            // the next scale or pass, for a window of adds rather than a
            // clear of them all.
            for (int a = std::max(0, r1 - pad - 1); a < std::min(r1 + pad, h); a++)
                update(a, -1);
        };
        const int nb = bands_of(h, bands);
        pool.parallel_for(nb, 1, [&](int b0, int b1) {
            for (int b = b0; b < b1; b++)
                band(static_cast<int>(static_cast<long long>(h) * b / nb),
                     static_cast<int>(static_cast<long long>(h) * (b + 1) / nb),
                     s.hist.data() + band_hist * b);
        });
        // §9.
        value[scale] = cambi_top_k_mean(cv, w * h, cambi_top_k_count(w * h, topk_));
    }
    return cambi_combine(value, p.ws); // §10
}

void Cambi::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    CambiAccum &a = *static_cast<CambiAccum *>(accum);
    const auto s = cpu_.take([] { return std::make_shared<CambiCpuScratch>(); });
    a.dis = score(f.dis[0], dis_, *s, pool);
    a.src = o_.full_ref ? score(f.ref[0], src_, *s, pool) : 0.0;
}

} // namespace vmafhip
