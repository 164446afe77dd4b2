// cambi CPU code: one picture's pass, §3 to §10, in plain C++.
//
// Cost per frame: the preprocessing, mask, mode filter and decimations are
// a few integer operations per pixel. The window counts (§8.1) use sliding
// per-column histograms: each masked pixel in the value band enters and
// leaves the histograms of the ws columns it covers once, so a scale costs
// about 2 * ws updates per masked pixel plus 2 nd + 1 lookups per pixel.
#include <algorithm>
#include <cstddef>

#include "extractors/cambi/cambi.h"

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

} // namespace

double Cambi::score(const PlaneView &luma, const CambiPass &p) const
{
    const int W = p.w, H = p.h;
    const size_t n = static_cast<size_t>(W) * H;
    std::vector<uint16_t> img(n), tmp(n);
    std::vector<uint8_t> mask(n);

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
        tmp = img;
        for (int i = 0; i < H; i++)
            for (int j = 0; j < W; j++)
                img[static_cast<size_t>(i) * W + j] = cambi_anti_dither(tmp.data(), W, H, i, j);
    }
    // §5: zero-derivative flags, their 7x7 sums (columns, then rows), the mask.
    {
        std::vector<uint8_t> z(n);
        for (int i = 0; i < H; i++)
            for (int j = 0; j < W; j++)
                z[static_cast<size_t>(i) * W + j] =
                    static_cast<uint8_t>(cambi_zero_derivative(img.data(), W, H, i, j));
        std::vector<uint8_t> col(static_cast<size_t>(W));
        for (int i = 0; i < H; i++) {
            std::fill(col.begin(), col.end(), 0);
            for (int a = std::max(0, i - 3); a <= std::min(H - 1, i + 3); a++)
                for (int j = 0; j < W; j++)
                    col[static_cast<size_t>(j)] += z[static_cast<size_t>(a) * W + j];
            int sum = 0;
            for (int j = 0; j < std::min(W, 3); j++)
                sum += col[static_cast<size_t>(j)];
            for (int j = 0; j < W; j++) {
                if (j + 3 < W)
                    sum += col[static_cast<size_t>(j + 3)];
                if (j - 4 >= 0)
                    sum -= col[static_cast<size_t>(j - 4)];
                mask[static_cast<size_t>(i) * W + j] = sum > p.mask_index;
            }
        }
    }

    const float *R = cambi_reciprocals();
    const int nd = t_.nd, pad = p.pad, lo = t_.lo, hi = t_.hi;
    // Histogram rows for the band plus nd empty rows on each side, so that
    // v - d and v + d never need a test.
    const int rows = hi - lo + 1 + 2 * nd;
    std::vector<uint16_t> hist;
    std::vector<float> cv(n);
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
        // §8: sliding per-column histograms of the masked band values.
        hist.assign(static_cast<size_t>(rows) * w, 0);
        auto update = [&](int row, int delta) {
            const uint16_t *pv = &img[row * stride];
            const uint8_t *pm = &mask[row * stride];
            for (int b = 0; b < w; b++) {
                const int v = pv[b];
                if (!pm[b] || v < lo || v > hi)
                    continue;
                uint16_t *hr = &hist[static_cast<size_t>(v - lo + nd) * w];
                const int c1 = std::min(b + pad + 1, w);
                for (int c = std::max(b - pad, 0); c < c1; c++)
                    hr[c] = static_cast<uint16_t>(hr[c] + delta);
            }
        };
        for (int a = 0; a < std::min(pad, h); a++)
            update(a, 1);
        for (int i = 0; i < h; i++) {
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
                                      HistCounts{&hist[static_cast<size_t>(v - lo + nd) * w + j],
                                                 static_cast<ptrdiff_t>(w)});
                out[j] = c;
            }
        }
        // §9.
        value[scale] = cambi_top_k_mean(cv.data(), w * h, cambi_top_k_count(w * h, topk_));
    }
    return cambi_combine(value, p.ws); // §10
}

void Cambi::cpu(const FrameView &f, void *accum, ThreadPool &) const
{
    CambiAccum &a = *static_cast<CambiAccum *>(accum);
    a.dis = score(f.dis[0], dis_);
    a.src = o_.full_ref ? score(f.ref[0], src_) : 0.0;
}

} // namespace vmafhip
