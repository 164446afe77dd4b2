// float_ansnr CPU reference (docs/float_psnr.md §3): per row of the frame,
// both filtered rows and the row's float32 sums (rows in parallel: each
// depends on the input planes alone), then the rows' sums added in libvmaf's
// order, top to bottom, into float32 totals.
// Every § below is a section of docs/float_psnr.md.
#include <array>
#include <cstddef>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/float_ansnr/float_ansnr.h"
#include "extractors/float_picture.h"

namespace vmafhip {

namespace {

/// §3.1: a square filter of n x n float32 taps, each weight / divisor
/// rounded from double, as libvmaf's initialisers do.
template <int N> struct Filter {
    std::array<float, N * N> tap;
};

template <int N>
constexpr Filter<N> make_filter(const std::array<int, N * N> &weights, double divisor)
{
    Filter<N> f{};
    for (int i = 0; i < N * N; i++)
        f.tap[i] = static_cast<float>(weights[i] / divisor);
    return f;
}

constexpr Filter<3> REF_FILTER = make_filter<3>({1, 2, 1, 2, 4, 2, 1, 2, 1}, 16.0);
constexpr Filter<5> DIS_FILTER = make_filter<5>({2,  7,  12,  7,  2,  //
                                                 7,  31, 52,  31, 7,  //
                                                 12, 52, 127, 52, 12, //
                                                 7,  31, 52,  31, 7,  //
                                                 2,  7,  12,  7,  2},
                                                571.0);

/// §3.2: libvmaf's border: -i above and left, 2n - i - 1 below and right
/// (the top and left edges are not repeated, the bottom and right ones are).
int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

/// §3.2: row y of plane (w x h) filtered: per tap row a float32 sum of the
/// products left to right, the tap rows' sums added top to bottom.
template <int N>
void filter_row(const Filter<N> &f, const float *plane, int w, int h, int y, float *out)
{
    const int half = N / 2;
    for (int x = 0; x < w; x++) {
        float acc = 0;
        for (int v = 0; v < N; v++) {
            const float *row = plane + static_cast<size_t>(mirror(y - half + v, h)) * w;
            float inner = 0;
            for (int u = 0; u < N; u++)
                inner += f.tap[v * N + u] * row[mirror(x - half + u, w)];
            acc += inner;
        }
        out[x] = acc;
    }
}

} // namespace

void FloatAnsnr::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    // §3.1: samples offset by -128 before filtering.
    const FloatLuma l = float_luma(f, g_.bpc, -128, pool);
    const int w = l.w, h = l.h;
    std::vector<float> row_sig(static_cast<size_t>(h)), row_noise(static_cast<size_t>(h));
    pool.parallel_for(h, 4, [&](int y0, int y1) {
        std::vector<float> ref(static_cast<size_t>(w)), dis(static_cast<size_t>(w));
        for (int y = y0; y < y1; y++) {
            filter_row(REF_FILTER, l.ref.data(), w, h, y, ref.data());
            filter_row(DIS_FILTER, l.dis.data(), w, h, y, dis.data());
            // §3.3: the row's sums, left to right.
            float sig = 0, noise = 0;
            for (int x = 0; x < w; x++) {
                sig += ref[x] * ref[x];
                noise += (ref[x] - dis[x]) * (ref[x] - dis[x]);
            }
            row_sig[y] = sig;
            row_noise[y] = noise;
        }
    });
    float sig = 0, noise = 0;
    for (int y = 0; y < h; y++) {
        sig += row_sig[y];
        noise += row_noise[y];
    }
    FloatAnsnrAccum &a = *static_cast<FloatAnsnrAccum *>(accum);
    a.sig = sig;
    a.noise = noise;
}

} // namespace vmafhip
