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
#include "kernels/float_bits.h"

#if defined(__x86_64__)
#include "base/avx2.h"
#endif

namespace vmafhip {

/// §8.1: one row of the picture and the histograms its values enter.
struct CambiHistRow {
    const uint16_t *values;
    const uint8_t *mask;
    uint16_t *hist; ///< row v - lo + nd for value v, w columns each
    int w, lo, hi, nd, pad;
};

/// The per-pixel loops of a picture's pass (§4.3 to §8.1), in the
/// instruction set the processor runs best (cambi_kernels()).
struct CambiKernels {
    void (*hist_update)(const CambiHistRow &r, int delta);
    void (*anti_dither)(uint16_t *img, const uint16_t *src, int w, int h);
    void (*mask)(const uint16_t *img, uint8_t *z, uint8_t *col, uint8_t *mask, int w, int h,
                 int mask_index);
    void (*halve16)(uint16_t *p, size_t stride, int nw, int nh);
    void (*halve8)(uint8_t *p, size_t stride, int nw, int nh);
    void (*mode)(uint16_t *img, uint16_t *tmp, size_t stride, int w, int h);
};

namespace {

/// The window counts of one pixel: histogram rows of one column, nd rows
/// apart in value (§8.1).
struct HistCounts {
    const uint16_t *centre;
    ptrdiff_t row;
    int operator()(int e) const { return centre[e * row]; }
};

/// §8.1: the masked band values of row r entering (delta 1) or leaving
/// (delta -1) the histograms of the columns their window covers. A run of
/// equal values, common where CAMBI looks (flat and banded areas), is added
/// at once: column c gains the number of the run's pixels within pad of it,
/// the sum of the pixels' own runs of adds, in one vectorisable pass (the
/// counts are exact integers, so the histograms are the same numbers).
__attribute__((always_inline)) inline void hist_update_row(const CambiHistRow &r, int delta)
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

/// §4.3: the anti-dithered w x h plane img from the unfiltered values in
/// src. Each row's columns but the last, whose right and lower neighbours
/// exist, in a loop cambi_anti_dither() folds into one vectorisable sum.
__attribute__((always_inline)) inline void anti_dither_plane(uint16_t *__restrict img,
                                                             const uint16_t *__restrict src, int w, int h)
{
    for (int i = 0; i < h; i++) {
        uint16_t *out = img + static_cast<size_t>(i) * w;
        const uint16_t *row = src + static_cast<size_t>(i) * w;
        if (i < h - 1)
            for (int j = 0; j < w - 1; j++)
                out[j] = cambi_anti_dither(row, w, 2, 0, j);
        else
            for (int j = 0; j < w - 1; j++)
                out[j] = cambi_anti_dither(row, w, 1, 0, j);
        out[w - 1] = cambi_anti_dither(src, w, h, i, w - 1);
    }
}

/// §5: the zero-derivative flags z of img, their 7x7 sums and the mask.
__attribute__((always_inline)) inline void mask_plane(const uint16_t *__restrict img, uint8_t *__restrict z,
                                                      uint8_t *__restrict col, uint8_t *__restrict mask,
                                                      int w, int h, int mask_index)
{
    // Row by row, the last row and column apart, so that the inner loop has
    // no edge tests and vectorises.
    for (int i = 0; i < h; i++) {
        uint8_t *zr = z + static_cast<size_t>(i) * w;
        const uint16_t *row = img + static_cast<size_t>(i) * w;
        if (i < h - 1)
            for (int j = 0; j < w - 1; j++)
                zr[j] = static_cast<uint8_t>(cambi_zero_derivative(row, w, 2, 0, j));
        else
            for (int j = 0; j < w - 1; j++)
                zr[j] = static_cast<uint8_t>(cambi_zero_derivative(row, w, 1, 0, j));
        zr[w - 1] = static_cast<uint8_t>(cambi_zero_derivative(img, w, h, i, w - 1));
    }
    // col[3 + j]: the flags of rows i-3 .. i+3 of column j, slid down a row
    // at a time (a row enters below, a row leaves above), with three zero
    // columns on each side for the horizontal sums.
    const auto slide = [&](int row, int sign) {
        const uint8_t *zr = z + static_cast<size_t>(row) * w;
        for (int j = 0; j < w; j++)
            col[3 + j] = static_cast<uint8_t>(col[3 + j] + sign * zr[j]);
    };
    std::fill(col, col + w + 6, 0);
    for (int a = 0; a < std::min(h, 3); a++)
        slide(a, 1);
    for (int i = 0; i < h; i++) {
        if (i + 3 < h)
            slide(i + 3, 1);
        if (i - 4 >= 0)
            slide(i - 4, -1);
        uint8_t *mr = mask + static_cast<size_t>(i) * w;
        for (int j = 0; j < w; j++) {
            const int sum = col[j] + col[j + 1] + col[j + 2] + col[j + 3] + col[j + 4] + col[j + 5] +
                            col[j + 6];
            mr[j] = sum > mask_index;
        }
    }
}

/// §6: one halving of the w x h top-left corner of P and M (row pitch
/// stride) in place. Row i > 0 reads row 2i, which it never overlaps.
template <typename T>
__attribute__((always_inline)) inline void halve_rows(T *p, size_t stride, int nw, int nh)
{
    for (int j = 0; j < nw; j++)
        p[j] = p[2 * j];
    for (int i = 1; i < nh; i++) {
        T *__restrict out = p + i * stride;
        const T *__restrict in = p + 2 * i * stride;
        for (int j = 0; j < nw; j++)
            out[j] = in[2 * j];
    }
}

/// §7: the mode filter of the w x h top-left corner of img (row pitch
/// stride), through tmp; the first and last rows keep their values.
__attribute__((always_inline)) inline void mode_filter(uint16_t *__restrict img, uint16_t *__restrict tmp,
                                                       size_t stride, int w, int h)
{
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
            img[i * stride + j] =
                cambi_mode3(tmp[(i - 1) * stride + j], tmp[i * stride + j], tmp[(i + 1) * stride + j]);
}

#define VMAFHIP_CAMBI_KERNELS(attr, suffix)                                                         \
    attr void hist_update_##suffix(const CambiHistRow &r, int delta)                                \
    {                                                                                               \
        hist_update_row(r, delta);                                                                  \
    }                                                                                               \
    attr void anti_dither_##suffix(uint16_t *a, const uint16_t *b, int w, int h)                   \
    {                                                                                               \
        anti_dither_plane(a, b, w, h);                                                              \
    }                                                                                               \
    attr void mask_##suffix(const uint16_t *a, uint8_t *b, uint8_t *c, uint8_t *d, int w, int h,    \
                            int m)                                                                  \
    {                                                                                               \
        mask_plane(a, b, c, d, w, h, m);                                                            \
    }                                                                                               \
    attr void halve16_##suffix(uint16_t *p, size_t s, int w, int h) { halve_rows(p, s, w, h); }     \
    attr void halve8_##suffix(uint8_t *p, size_t s, int w, int h) { halve_rows(p, s, w, h); }       \
    attr void mode_##suffix(uint16_t *a, uint16_t *b, size_t s, int w, int h)                       \
    {                                                                                               \
        mode_filter(a, b, s, w, h);                                                                 \
    }                                                                                               \
    const CambiKernels cambi_kernels_##suffix{hist_update_##suffix, anti_dither_##suffix,           \
                                              mask_##suffix,        halve16_##suffix,              \
                                              halve8_##suffix,      mode_##suffix};

// The same integer code, compiled for the baseline and for AVX2.
VMAFHIP_CAMBI_KERNELS(, plain)
#if defined(__x86_64__)
VMAFHIP_CAMBI_KERNELS(VMAFHIP_AVX2, avx2)
#endif
#undef VMAFHIP_CAMBI_KERNELS

} // namespace

const CambiKernels &cambi_kernels(unsigned cpu_flags)
{
#if defined(__x86_64__)
    return choose_kernels(cpu_flags, cambi_kernels_plain, &cambi_kernels_avx2);
#else
    return choose_kernels(cpu_flags, cambi_kernels_plain, nullptr);
#endif
}

/// §9's fast path: a band's c-values above 0, and their exact sum in units
/// of 2^-24 (cambi_units()).
struct CambiBandSum {
    uint64_t units;
    int nonzero;
};

/// The planes of one picture's pass, kept between frames as they are: a
/// fresh multi-megabyte allocation per picture costs more in page faults
/// than the pass itself. Every plane element a pass reads it writes first;
/// the histograms are all zero between scales and between passes (each
/// scale removes the rows it added; nothing in between can throw).
struct CambiCpuScratch {
    std::vector<uint16_t> img, tmp, hist;
    std::vector<uint8_t> mask, z, col;
    std::vector<float> cv;
    std::vector<CambiBandSum> sums; ///< per band of §8
    std::vector<uint32_t> bins;     ///< §9's counts (cambi_top_k_units())
};

/// c-values are 0 or positive, and such floats order as their bits do: a
/// histogram of the top 16 bits of every value finds the bin of the k-th
/// largest; a second pass adds the units of the values above that bin and
/// counts the bin's values by their low 16 bits, each such count being of
/// one float value. Two passes, where libvmaf's selection moves the values
/// about several times.
uint64_t cambi_top_k_units(const float *cv, int n, int k, std::vector<uint32_t> &bins)
{
    constexpr int BINS = 1 << 16;
    bins.assign(BINS, 0);
    for (int i = 0; i < n; i++)
        bins[float_bits(cv[i]) >> 16]++;
    int top = BINS - 1;
    int64_t above = 0; // values in bins above top
    while (above + bins[static_cast<size_t>(top)] < k)
        above += bins[static_cast<size_t>(top--)];
    std::fill(bins.begin(), bins.end(), 0);
    uint64_t units = 0;
    for (int i = 0; i < n; i++) {
        const uint32_t b = float_bits(cv[i]);
        if (static_cast<int>(b >> 16) > top)
            units += cambi_units(cv[i]);
        else if (static_cast<int>(b >> 16) == top)
            bins[b & 0xffff]++;
    }
    for (int low = BINS - 1; low >= 0 && above < k; low--) {
        const int64_t take = std::min<int64_t>(bins[static_cast<size_t>(low)], k - above);
        units += static_cast<uint64_t>(take) *
                 cambi_units(bits_float(static_cast<uint32_t>(top) << 16 | static_cast<uint32_t>(low)));
        above += take;
    }
    return units;
}

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

    // §4.2: resize (nearest, index vectors) and depth mapping, into tmp
    // when §4.3 then filters it into img.
    uint16_t *const pre = anti_dither_ ? tmp : img;
    const auto prepare = [&](auto sample_type) {
        using T = decltype(sample_type);
        const int bpc = g_.bpc;
        for (int i = 0; i < H; i++) {
            const T *in = luma.row<T>(p.resize ? p.sy[static_cast<size_t>(i)] : i);
            uint16_t *out = pre + static_cast<size_t>(i) * W;
            if (p.resize)
                for (int j = 0; j < W; j++)
                    out[j] = cambi_to10(in[p.sx[static_cast<size_t>(j)]], bpc);
            else
                for (int j = 0; j < W; j++)
                    out[j] = cambi_to10(in[j], bpc);
        }
    };
    if (g_.bpc > 8)
        prepare(uint16_t{});
    else
        prepare(uint8_t{});
    const CambiKernels &loops = *k_;
    if (anti_dither_)
        loops.anti_dither(img, tmp, W, H); // §4.3, from the unfiltered values
    loops.mask(img, z, col, mask, W, H, p.mask_index); // §5

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
    s.sums.resize(static_cast<size_t>(bands));
    double value[CAMBI_SCALES];
    int w = W, h = H;
    const size_t stride = static_cast<size_t>(W);
    for (int scale = 0; scale < CAMBI_SCALES; scale++) {
        // §6: halve P and M (once more before scale 0 with the speed-up).
        for (int halvings = (scale > 0) + (scale == 0 && speedup_); halvings > 0; halvings--) {
            const int nw = (w + 1) >> 1, nh = (h + 1) >> 1;
            loops.halve16(img, stride, nw, nh);
            loops.halve8(mask, stride, nw, nh);
            w = nw, h = nh;
        }
        loops.mode(img, tmp, stride, w, h); // §7
        // §8: sliding per-column histograms of the masked band values, for
        // the rows [r0, r1) of a band, its histograms zero on entry. Before
        // row i they hold rows [i - pad - 1, i + pad) (from the first row on),
        // row i + pad enters and row i - pad - 1 leaves.
        const auto band = [&](int r0, int r1, uint16_t *hist, CambiBandSum &sum) {
            uint64_t units = 0;
            int nonzero = 0;
            const auto update = [&](int row, int delta) {
                loops.hist_update(
                    CambiHistRow{&img[row * stride], &mask[row * stride], hist, w, lo, hi, nd, pad}, delta);
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
                    if (pm[j] && v >= lo && v <= hi) {
                        c = cambi_c_value(v, t_, R,
                                          HistCounts{hist + static_cast<size_t>(v - lo + nd) * w + j,
                                                     static_cast<ptrdiff_t>(w)});
                        units += cambi_units(c);
                        nonzero += c > 0.0f;
                    }
                    out[j] = c;
                }
            }
            sum = CambiBandSum{units, nonzero};
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
                     s.hist.data() + band_hist * b, s.sums[b]);
        });
        // §9. The sum of the k largest c-values in units is exact in any
        // order below CAMBI_EXACT_UNITS (§14): then it gives the double
        // libvmaf's selection and ordered sum give, without either. Where at
        // most k c-values are above 0, the k largest are all of them and
        // zeros, whose sum the bands made; else it is counted out.
        const int k = cambi_top_k_count(w * h, topk_);
        uint64_t units = 0;
        int nonzero = 0;
        for (int b = 0; b < nb; b++)
            units += s.sums[b].units, nonzero += s.sums[b].nonzero;
        if (nonzero > k)
            units = cambi_top_k_units(cv, w * h, k, s.bins);
        value[scale] = units < CAMBI_EXACT_UNITS ? cambi_exact_mean(units, k)
                                                 : cambi_top_k_mean(cv, w * h, k);
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
