// integer motion CPU reference (docs/motion.md §2): rows split over the
// thread pool, each row's vertical pass into a row buffer, then the
// horizontal pass and Σ |z|. The SAD is an integer sum of exact per-sample
// values, so it does not depend on how the rows were split.
#include <atomic>
#include <cstring>
#include <vector>

#include "base/cpu_clones.h"
#include "base/thread_pool.h"
#include "extractors/motion.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up.
constexpr int MIN_ROWS = 16;

/// §2.3: the vertical pass of one row from the rows m(i-2) .. m(i+2) of the
/// previous (pr) and current (cr) pictures, previous minus current in this
/// order (the floor shifts are not symmetric in the sign).
template <typename T>
inline void vert_row(const T *const pr[5], const T *const cr[5], int w, int bpc, int32_t *__restrict__ yv)
{
    const T *__restrict__ p0 = pr[0], *__restrict__ p1 = pr[1], *__restrict__ p2 = pr[2];
    const T *__restrict__ p3 = pr[3], *__restrict__ p4 = pr[4];
    const T *__restrict__ c0 = cr[0], *__restrict__ c1 = cr[1], *__restrict__ c2 = cr[2];
    const T *__restrict__ c3 = cr[3], *__restrict__ c4 = cr[4];
    for (int j = 0; j < w; j++)
        yv[j] = motion_vert(p0[j] - c0[j], p1[j] - c1[j], p2[j] - c2[j], p3[j] - c3[j], p4[j] - c4[j], bpc);
}

// The loops above and below in 64-bit integer arithmetic vectorise with AVX2
// (signed 32 x 32 -> 64 products), so they are also built for it.
VMAFHIP_CPU_CLONES void vert_row_8(const uint8_t *const pr[5], const uint8_t *const cr[5], int w,
                                   int bpc, int32_t *yv)
{
    vert_row(pr, cr, w, bpc, yv);
}
VMAFHIP_CPU_CLONES void vert_row_16(const uint16_t *const pr[5], const uint16_t *const cr[5], int w,
                                    int bpc, int32_t *yv)
{
    vert_row(pr, cr, w, bpc, yv);
}

/// §2.4: Σ |z| of the horizontal pass over columns [2, w - 2), where no
/// column is mirrored.
VMAFHIP_CPU_CLONES uint64_t hori_inner_sad(const int32_t *__restrict__ yv, int w)
{
    uint64_t sad = 0;
    for (int j = 2; j < w - 2; j++)
        sad += motion_hori_abs(yv[j - 2], yv[j - 1], yv[j], yv[j + 1], yv[j + 2]);
    return sad;
}

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
        if constexpr (sizeof(T) == 1)
            vert_row_8(pr, cr, w, p.bpc, yv);
        else
            vert_row_16(pr, cr, w, p.bpc, yv);
        sad += hori_inner_sad(yv, w);
        // §2.4: the columns within 2 of either edge, mirrored.
        for (int j = 0; j < w; j++) {
            if (j == 2 && w > 4)
                j = w - 2;
            sad += motion_hori_abs(yv[motion_mirror(j - 2, w)], yv[motion_mirror(j - 1, w)], yv[j],
                                   yv[motion_mirror(j + 1, w)], yv[motion_mirror(j + 2, w)]);
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
