// float_motion CPU reference (docs/float_motion.md §2, §3): both reference
// lumas as floats, each blurred (the vertical pass of a row, then its
// horizontal pass), then the mean absolute difference. Rows run in
// parallel: a row's float sum depends on that row only, and the rows' sums
// are then added top to bottom as libvmaf adds them, so any thread count
// gives libvmaf's bits.
#include <cmath>
#include <cstring>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/float_motion/float_motion.h"
#include "extractors/vif_tools/separable_filter.h"
#include "extractors/vif_tools/vif_tools.h"

namespace vmafhip {

namespace {

constexpr int MIN_ROWS = 16; // rows per chunk of the thread pool

/// §2: the picture's luma as floats, blurred with taps (w x h, row-major).
std::vector<float> blurred(const PlaneView &pv, int bpc, const std::vector<float> &taps,
                           ThreadPool &pool)
{
    std::vector<float> plane;
    float_plane(pv, bpc, &plane);
    const int w = pv.w, h = pv.h;
    std::vector<float> out(plane.size());
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        std::vector<float> t(static_cast<size_t>(w));
        for (int y = y0; y < y1; y++) {
            filter_vertical(taps, w, h, y,
                            [&](int i, int j) { return plane[static_cast<size_t>(i) * w + j]; },
                            t.data());
            float *o = out.data() + static_cast<size_t>(y) * w;
            for (int x = 0; x < w; x++)
                o[x] = filter_horizontal(taps, w, t.data(), x);
        }
    });
    return out;
}

/// §3.1: Σ |a - b| of each row in float from 0, left to right, the rows'
/// sums in float top to bottom, divided by (float)(w * h).
float mean_abs_difference(const std::vector<float> &a, const std::vector<float> &b, int w, int h,
                          ThreadPool &pool)
{
    std::vector<float> rows(static_cast<size_t>(h));
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++) {
            const float *ra = a.data() + static_cast<size_t>(y) * w;
            const float *rb = b.data() + static_cast<size_t>(y) * w;
            float s = 0.0f;
            for (int x = 0; x < w; x++)
                s = s + std::fabs(ra[x] - rb[x]);
            rows[static_cast<size_t>(y)] = s;
        }
    });
    float total = 0.0f;
    for (float r : rows)
        total = total + r;
    return total / static_cast<float>(w * h);
}

} // namespace

void FloatMotion::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    FloatMotionAccum a{};
    const PlaneView &prev = f.prev_ref[0];
    // §3: frame 0 has no previous picture; motion_force_zero computes nothing.
    if (!o_.force_zero && f.index > 0 && prev.data) {
        const std::vector<float> p = blurred(prev, bpc_, taps_, pool);
        const std::vector<float> c = blurred(f.ref[0], bpc_, taps_, pool);
        float score = mean_abs_difference(p, c, f.ref[0].w, f.ref[0].h, pool);
        if (o_.add_scale1) {
            // §3.2: plus the score of the blurred pictures at half size, in float.
            const size_t n = static_cast<size_t>(half_.sw) * half_.sh;
            std::vector<float> hp(n), hc(n);
            resample(half_, p.data(), hp.data(), pool);
            resample(half_, c.data(), hc.data(), pool);
            score = score + mean_abs_difference(hp, hc, half_.sw, half_.sh, pool);
        }
        a.score = score;
    }
    std::memcpy(accum, &a, sizeof a);
}

} // namespace vmafhip
