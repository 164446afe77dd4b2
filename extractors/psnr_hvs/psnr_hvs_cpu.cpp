// psnr_hvs CPU reference (docs/psnr_hvs.md §3-§5): the error terms of every
// block computed in parallel, then added in libvmaf's order (blocks row by
// row, the 64 terms of a block row-major) into one float32 sum, which is the
// C code's sequential float sum to the bit.
// Every § below is a section of docs/psnr_hvs.md.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/psnr_hvs/psnr_hvs.h"
#include "extractors/psnr_hvs/psnr_hvs_dct.h"

namespace vmafhip {

namespace {

constexpr int N = PSNR_HVS_BLOCK;
constexpr int STEP = N - 1;

// §4.1: the contrast sensitivity tables of Xiph's code, symmetric about the
// diagonal: these are their upper triangles, row i holding columns i..7.
// Double literals made float, as the C tables are (float entries initialised
// from double constants).
struct CsfTriangle {
    float v[36];
};
constexpr CsfTriangle CSF_TRIANGLES[3] = {
    {{1.6193873005, 2.2901594831, 2.08509755623, 1.48366094411, 1.00227514334, 0.678296995242,
      0.466224900598, 0.3265091542, //
      1.94321815382, 2.04793073064, 1.68731108984, 1.2305666963, 0.868920337363, 0.61280991668,
      0.436405793551, //
      1.34329019223, 1.09205635862, 0.875748795257, 0.670882927016, 0.501731932449,
      0.372504254596, //
      0.772819797575, 0.605636379554, 0.48309405692, 0.380429446972, 0.295774038565, //
      0.448996256676, 0.352889268808, 0.283006984131, 0.226951348204, //
      0.27032073436, 0.215017739696, 0.17408067321, //
      0.168869545842, 0.136153931001, //
      0.109083846276}},
    {{1.91113096927, 2.46074210438, 1.18284184739, 1.14982565193, 1.05017074788, 0.898018824055,
      0.74725392039, 0.615105596242, //
      1.58529308355, 1.21363250036, 1.38190029285, 1.33100189972, 1.17428548929, 0.996404342439,
      0.830890433625, //
      0.978712413627, 1.02624506078, 1.03145147362, 0.960060382087, 0.849823426169,
      0.731221236837, //
      0.861317501629, 0.801821139099, 0.751437590932, 0.685398513368, 0.608694761374, //
      0.676555426187, 0.605503172737, 0.55002013668, 0.495804539034, //
      0.514674450957, 0.454353482512, 0.407050308965, //
      0.389234902883, 0.342353999733, //
      0.295530605237}},
    {{2.03871978502, 2.62502345193, 1.26180942886, 1.11019789803, 1.01397751469, 0.867069376285,
      0.721500455585, 0.593906509971, //
      1.69112867013, 1.17180569821, 1.3342742857, 1.28513006198, 1.13381474809, 0.962064122248,
      0.802254508198, //
      0.944981930573, 0.990876405848, 0.995903384143, 0.926972725286, 0.820534991409,
      0.706020324706, //
      0.831632933426, 0.77418706195, 0.725539939514, 0.661776842059, 0.587716619023, //
      0.653238524286, 0.584635025748, 0.531064164893, 0.478717061273, //
      0.496936637883, 0.438694579826, 0.393021669543, //
      0.375820256136, 0.330555063063, //
      0.285345396658}},
};

/// Entry (i, j) of a table from its upper triangle.
constexpr float csf_entry(const CsfTriangle &t, int i, int j)
{
    const int r = i < j ? i : j, c = i < j ? j : i;
    return t.v[r * N - r * (r - 1) / 2 + (c - r)];
}

/// The CSF of a plane and its masking weights, row-major.
struct Weights {
    float csf[N * N];
    float mask[N * N];
};

/// §4.1: mask = (csf * 0.3885746225901003)^2, in double, stored as float.
Weights make_weights(int p)
{
    Weights w;
    for (int k = 0; k < N * N; k++) {
        w.csf[k] = csf_entry(CSF_TRIANGLES[p], k / N, k % N);
        const double scaled = w.csf[k] * 0.3885746225901003;
        w.mask[k] = static_cast<float>(scaled * scaled);
    }
    return w;
}

const Weights &weights(int p)
{
    static const Weights w[3] = {make_weights(0), make_weights(1), make_weights(2)};
    return w[p];
}

/// §4.2: how evenly a block's variance spreads over its four 4x4 quarters
/// (0 for a flat block).
float variance_ratio(const int32_t b[N * N])
{
    float mean = 0, quarter_mean[4] = {0, 0, 0, 0};
    // The quarter of (i, j): ((i & 12) >> 2) + ((j & 12) >> 1), i.e. 2 for
    // the right half, 1 for the bottom half.
    const auto quarter = [](int i, int j) { return ((i & 12) >> 2) + ((j & 12) >> 1); };
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            mean += static_cast<float>(b[i * N + j]);
            quarter_mean[quarter(i, j)] += static_cast<float>(b[i * N + j]);
        }
    mean /= 64.f;
    for (float &m : quarter_mean)
        m /= 16.f;
    float var = 0, quarter_var[4] = {0, 0, 0, 0};
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            const float d = static_cast<float>(b[i * N + j]) - mean;
            var += d * d;
            const int q = quarter(i, j);
            const float dq = static_cast<float>(b[i * N + j]) - quarter_mean[q];
            quarter_var[q] += dq * dq;
        }
    // Unbiased variances: the float constants (1 / 63.f) * 64 and (1 / 15.f) * 16.
    constexpr float UNBIAS64 = 1 / 63.f * 64, UNBIAS16 = 1 / 15.f * 16;
    var *= UNBIAS64;
    for (float &v : quarter_var)
        v *= UNBIAS16;
    if (var > 0)
        var = (quarter_var[0] + quarter_var[1] + quarter_var[2] + quarter_var[3]) / var;
    return var;
}

/// §4.3: the masking energy of a block's DCT: the AC coefficients' squares
/// (int32 products, wrapping as the C code's do) weighted, times the variance
/// ratio, square-rooted, over 32.
float masking(const int32_t dct[N * N], float ratio, const Weights &w)
{
    float energy = 0;
    for (int k = 1; k < N * N; k++) {
        const uint32_t c = static_cast<uint32_t>(dct[k]);
        const int32_t sq = static_cast<int32_t>(c * c);
        energy += static_cast<float>(sq) * w.mask[k];
    }
    const float product = energy * ratio;
    return static_cast<float>(std::sqrt(static_cast<double>(product)) / 32.f);
}

/// §3-§4: the 64 error terms of the block at (x, y) into terms.
template <typename T>
void block_terms(const PlaneView &ref, const PlaneView &dis, int x, int y, const Weights &w,
                 float *terms)
{
    int32_t s[N * N], d[N * N];
    for (int i = 0; i < N; i++) {
        const T *rs = ref.row<T>(y + i) + x, *rd = dis.row<T>(y + i) + x;
        for (int j = 0; j < N; j++) {
            s[i * N + j] = rs[j];
            d[i * N + j] = rd[j];
        }
    }
    const float s_ratio = variance_ratio(s), d_ratio = variance_ratio(d);
    psnr_hvs_fdct8x8(s, s);
    psnr_hvs_fdct8x8(d, d);
    const float s_mask = masking(s, s_ratio, w), d_mask = masking(d, d_ratio, w);
    const float m = d_mask > s_mask ? d_mask : s_mask;
    for (int k = 0; k < N * N; k++) {
        float err = static_cast<float>(std::abs(s[k] - d[k]));
        if (k) { // the DC coefficient is never masked
            const float threshold = m / w.mask[k];
            err = err < threshold ? 0 : err - threshold;
        }
        const float weighted = err * w.csf[k];
        terms[k] = weighted * weighted;
    }
}

template <typename T>
float plane_sum(const PlaneView &ref, const PlaneView &dis, int p, ThreadPool &pool)
{
    const Weights &w = weights(p);
    const int bx = PsnrHvs::blocks(ref.w), by = PsnrHvs::blocks(ref.h);
    const size_t row_terms = static_cast<size_t>(bx) * N * N;
    std::vector<float> terms(row_terms * by);
    pool.parallel_for(by, 1, [&](int y0, int y1) {
        for (int by_i = y0; by_i < y1; by_i++)
            for (int bx_i = 0; bx_i < bx; bx_i++)
                block_terms<T>(ref, dis, bx_i * STEP, by_i * STEP, w,
                               terms.data() + by_i * row_terms + static_cast<size_t>(bx_i) * N * N);
    });
    // §5: one float32 sum in libvmaf's order; never split.
    float sum = 0;
    for (const float t : terms)
        sum += t;
    return sum;
}

} // namespace

float psnr_hvs_plane_sum(const PlaneView &ref, const PlaneView &dis, int p, int bpc, ThreadPool &pool)
{
    return bpc > 8 ? plane_sum<uint16_t>(ref, dis, p, pool) : plane_sum<uint8_t>(ref, dis, p, pool);
}

void PsnrHvs::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    PsnrHvsAccum &a = *static_cast<PsnrHvsAccum *>(accum);
    for (int p = 0; p < 3; p++)
        a.sum[p] = psnr_hvs_plane_sum(f.ref[p], f.dis[p], p, g_.bpc, pool);
}

} // namespace vmafhip
