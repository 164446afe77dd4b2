// cambi CPU code: one picture's pass, §3 to §10, in plain C++.
//
// Cost per frame: the preprocessing, mask, mode filter and decimations are
// a few integer operations per pixel. The window counts (§8.1) use sliding
// per-column histograms: each masked pixel in the value band enters and
// leaves the histograms of the ws columns it covers once, so a scale costs
// about 2 * ws updates per masked pixel plus 2 nd + 1 lookups per pixel.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "extractors/cambi/cambi.h"

namespace vmafhip {

namespace {

constexpr int RECIPROCALS = 4226; // p0 + pm <= 65 * 65

// §2.7: 1/i printed with 9 significant digits and read back as a float,
// which is not always the correctly rounded 1/i.
struct Reciprocals {
    float r[RECIPROCALS];
    Reciprocals()
    {
        r[0] = 0.0f;
        for (int i = 1; i < RECIPROCALS; i++) {
            char text[32];
            std::snprintf(text, sizeof text, "%.9g", 1.0 / i);
            r[i] = std::strtof(text, nullptr);
        }
    }
};

const float *reciprocals()
{
    static const Reciprocals table;
    return table.r;
}

// §2.1.
constexpr int contrast_weight[33] = {0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
                                     8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};
constexpr int scale_weight[5] = {16, 8, 4, 2, 1};

// §4.2: a sample of bpc bits to 10 bits (1024 possible above 10 bits).
inline uint16_t to10(uint32_t x, int bpc)
{
    if (bpc <= 8)
        return static_cast<uint16_t>(x << (10 - bpc));
    if (bpc == 9)
        return static_cast<uint16_t>(x << 1);
    if (bpc == 10)
        return static_cast<uint16_t>(x);
    return static_cast<uint16_t>((x + (1u << (bpc - 11))) >> (bpc - 10));
}

inline uint32_t sample(const PlaneView &v, int bpc, int y, int x)
{
    return bpc > 8 ? v.row<uint16_t>(y)[x] : v.row<uint8_t>(y)[x];
}

inline uint16_t mode3(uint16_t a, uint16_t b, uint16_t c)
{
    if (a == b || a == c)
        return a;
    if (b == c)
        return b;
    return std::min(a, std::min(b, c));
}

// §9: libvmaf's selection (a descending partition around a[k]), then the
// double sum of a[0..k-1] in that order.
double top_k_mean(float *a, int n, double topk)
{
    int k = static_cast<int>(static_cast<double>(n) * topk);
    k = std::clamp(k, 1, n);
    if (k < n) {
        int left = 0, right = n - 1;
        while (left < right) {
            const float pivot = a[k];
            int i = left, j = right;
            do {
                while (a[i] > pivot)
                    i++;
                while (a[j] < pivot)
                    j--;
                if (i <= j) {
                    std::swap(a[i], a[j]);
                    i++;
                    j--;
                }
            } while (i <= j);
            if (j < k)
                left = i;
            if (k < i)
                right = j;
        }
    }
    double sum = 0.0;
    for (int i = 0; i < k; i++)
        sum += a[i];
    return sum / k;
}

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
            out[j] = to10(sample(luma, g_.bpc, y, p.resize ? p.sx[static_cast<size_t>(j)] : j),
                          g_.bpc);
    }
    // §4.3: anti-dithering, from the unfiltered values.
    if (anti_dither_) {
        tmp = img;
        for (int i = 0; i < H; i++) {
            const uint16_t *r0 = &tmp[static_cast<size_t>(i) * W];
            const uint16_t *r1 = i < H - 1 ? r0 + W : nullptr;
            uint16_t *out = &img[static_cast<size_t>(i) * W];
            for (int j = 0; j < W; j++) {
                if (r1 && j < W - 1)
                    out[j] = static_cast<uint16_t>((r0[j] + r0[j + 1] + r1[j] + r1[j + 1]) >> 2);
                else if (r1)
                    out[j] = static_cast<uint16_t>((r0[j] + r1[j]) >> 1);
                else if (j < W - 1)
                    out[j] = static_cast<uint16_t>((r0[j] + r0[j + 1]) >> 1);
            }
        }
    }
    // §5: zero-derivative flags, their 7x7 sums (columns, then rows), the mask.
    {
        std::vector<uint8_t> z(n);
        for (int i = 0; i < H; i++)
            for (int j = 0; j < W; j++) {
                const size_t q = static_cast<size_t>(i) * W + j;
                z[q] = (j == W - 1 || img[q] == img[q + 1]) && (i == H - 1 || img[q] == img[q + W]);
            }
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

    const float *R = reciprocals();
    const int nd = nd_, pad = p.pad, lo = band_lo_, hi = band_hi_;
    // Histogram rows for the band plus nd empty rows on each side, so that
    // v - d and v + d never need a test.
    const int rows = hi - lo + 1 + 2 * nd;
    std::vector<uint16_t> hist;
    std::vector<float> cv(n);
    double raw = 0.0;
    int w = W, h = H;
    const size_t stride = static_cast<size_t>(W);
    for (int scale = 0; scale < 5; scale++) {
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
                out[j] = mode3(src[j - 1], src[j], src[j + 1]);
        }
        for (int i = 1; i < h - 1; i++)
            for (int j = 0; j < w; j++)
                img[i * stride + j] = mode3(tmp[(i - 1) * stride + j], tmp[i * stride + j],
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
                if (pm[j] && v >= lo && v <= hi) {
                    const uint16_t *hc = &hist[static_cast<size_t>(v - lo + nd) * w + j];
                    const int p0 = hc[0], u = v + nd;
                    for (int d = 1; d <= nd; d++) {
                        if (u > tvi_[d] || u + d <= vlt_)
                            continue;
                        const int p1 = hc[static_cast<ptrdiff_t>(d) * w];
                        const int p2 = hc[-static_cast<ptrdiff_t>(d) * w];
                        const int pmax = p1 > p2 ? p1 : p2;
                        const float val =
                            static_cast<float>(contrast_weight[d] * p0 * pmax) * R[p0 + pmax];
                        c = std::max(c, val);
                    }
                }
                out[j] = c;
            }
        }
        // §9, and §10's sum in its order.
        raw += scale_weight[scale] * top_k_mean(cv.data(), w * h, topk_);
    }
    return raw / static_cast<double>(p.ws * p.ws);
}

void Cambi::cpu(const FrameView &f, void *accum, ThreadPool &) const
{
    CambiAccum &a = *static_cast<CambiAccum *>(accum);
    a.dis = score(f.dis[0], dis_);
    a.src = o_.full_ref ? score(f.ref[0], src_) : 0.0;
}

} // namespace vmafhip
