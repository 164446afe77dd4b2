// integer motion CPU reference (docs/motion.md §2): rows split over the
// thread pool, each row's vertical pass into a row buffer, then the
// horizontal pass and Σ |z|. The SAD is an integer sum of exact per-sample
// values, so it does not depend on how the rows were split.
#include <atomic>
#include <cstring>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/motion.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up.
constexpr int MIN_ROWS = 16;

/// Σ |z| over rows [i0, i1) of the blurred difference prev - cur.
/// yv: a buffer of p.w values.
template <typename T>
uint64_t sad_rows(const PlaneView &prev, const PlaneView &cur, const MotionParams &p, int i0,
                  int i1, int32_t *yv)
{
    const int w = p.w;
    uint64_t sad = 0;
    for (int i = i0; i < i1; i++) {
        const T *pr[5], *cr[5];
        for (int k = 0; k < 5; k++) {
            const int r = motion_mirror(i - 2 + k, p.h);
            pr[k] = prev.row<T>(r);
            cr[k] = cur.row<T>(r);
        }
        // §2.3: previous minus current, in this order (the floor shifts are
        // not symmetric in the sign).
        for (int j = 0; j < w; j++)
            yv[j] = motion_vert(pr[0][j] - cr[0][j], pr[1][j] - cr[1][j], pr[2][j] - cr[2][j],
                                pr[3][j] - cr[3][j], pr[4][j] - cr[4][j], p.bpc);
        // §2.4: mirrored columns only within 2 of either edge.
        for (int j = 0; j < w; j++) {
            if (j >= 2 && j + 2 < w)
                sad += motion_hori_abs(yv[j - 2], yv[j - 1], yv[j], yv[j + 1], yv[j + 2]);
            else
                sad += motion_hori_abs(yv[motion_mirror(j - 2, w)], yv[motion_mirror(j - 1, w)],
                                       yv[j], yv[motion_mirror(j + 1, w)],
                                       yv[motion_mirror(j + 2, w)]);
        }
    }
    return sad;
}

} // namespace

void Motion::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    MotionAccum a{};
    const PlaneView &prev = f.prev_ref[p_.prev];
    // §3: no SAD before min_index() (there is no earlier picture) or with
    // motion_force_zero.
    if (computes_sad() && f.index >= min_index() && prev.data) {
        const PlaneView &cur = f.ref[0];
        std::atomic<uint64_t> sad{0};
        pool.parallel_for(p_.h, MIN_ROWS, [&](int i0, int i1) {
            std::vector<int32_t> yv(static_cast<size_t>(p_.w));
            const uint64_t part = p_.bpc > 8 ? sad_rows<uint16_t>(prev, cur, p_, i0, i1, yv.data())
                                             : sad_rows<uint8_t>(prev, cur, p_, i0, i1, yv.data());
            sad.fetch_add(part, std::memory_order_relaxed);
        });
        a.sad = sad.load();
    }
    std::memcpy(accum, &a, sizeof a);
}

} // namespace vmafhip
