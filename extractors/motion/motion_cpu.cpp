// integer motion CPU reference (docs/motion.md §2): rows split over the
// thread pool; each chunk of rows forms the differences prev - cur of each
// picture row once, filters five of them vertically into a row of yv, pads
// it with the mirrored columns and sums |z| along it, with the row kernels
// of motion_cpu_rows.h. The SAD is an integer sum of exact per-sample
// values, so it depends neither on how the rows were split nor on the
// kernels.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/motion/motion.h"
#include "extractors/motion/motion_cpu_rows.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up (and
// the four rows of differences a chunk shares with its neighbours).
constexpr int MIN_ROWS = 16;

/// The buffers of one chunk of rows.
struct ChunkRows {
    /// The differences of picture rows r - 4 .. r, row r in slot r % 5
    /// (§2.2: the mirrored rows of output row i are among rows i - 2 .. i + 2).
    std::vector<int16_t> ring;
    uint32_t any[5] = {0, 0, 0, 0, 0}; ///< diff16's OR of the samples of each slot
    std::vector<int16_t> hilo;         ///< the hi and lo rows of yv, mirrored columns included
    ptrdiff_t stride;

    explicit ChunkRows(int w) : stride(MOTION_PAD + w + MOTION_PAD + MOTION_ROW_SLACK)
    {
        ring.resize(5 * static_cast<size_t>(stride));
        hilo.resize(2 * static_cast<size_t>(stride));
    }
    int16_t *slot(int r) { return ring.data() + (r % 5) * stride; }
    int16_t *hi() { return hilo.data() + MOTION_PAD; }
    int16_t *lo() { return hilo.data() + stride + MOTION_PAD; }
};

/// §2.2: columns -2, -1, w and w + 1 of a row of w >= 3 columns.
void pad_columns(int16_t *row, int w)
{
    for (int c = 1; c <= 2; c++) {
        row[-c] = row[motion_mirror(-c, w)];
        row[w - 1 + c] = row[motion_mirror(w - 1 + c, w)];
    }
}

/// Σ |z| over rows [i0, i1) of the blurred difference prev - cur.
template <typename T>
uint64_t sad_rows(const PlaneView &prev, const PlaneView &cur, const MotionParams &p, const MotionKernels &k,
                  int i0, int i1)
{
    const int w = p.w, h = p.h;
    // 16-bit differences need 17 bits: those rows take the wide pass.
    const bool wide_only = p.bpc == 16;
    ChunkRows b(w);
    uint64_t sad = 0;
    int next = std::max(0, i0 - 2); // the next picture row to difference
    for (int i = i0; i < i1; i++) {
        for (; !wide_only && next <= std::min(h - 1, i + 2); next++) {
            if constexpr (sizeof(T) == 1)
                k.diff8(prev.row<T>(next), cur.row<T>(next), w, b.slot(next));
            else
                b.any[next % 5] = k.diff16(prev.row<T>(next), cur.row<T>(next), w, b.slot(next));
        }
        int rows[5];
        const int16_t *d[5];
        bool wide = wide_only;
        for (int t = 0; t < 5; t++) {
            rows[t] = motion_mirror(i - 2 + t, h);
            d[t] = b.slot(rows[t]);
            wide = wide || b.any[rows[t] % 5] >> p.bpc;
        }
        if constexpr (sizeof(T) == 2) {
            if (wide) {
                const uint16_t *pr[5], *cr[5];
                for (int t = 0; t < 5; t++) {
                    pr[t] = prev.row<T>(rows[t]);
                    cr[t] = cur.row<T>(rows[t]);
                }
                motion_vert_wide(pr, cr, w, p.bpc, b.hi(), b.lo());
            }
        }
        if (!wide)
            k.vert(d, w, p.bpc, b.hi(), b.lo());
        pad_columns(b.hi(), w);
        pad_columns(b.lo(), w);
        sad += k.hori_sad(b.hi(), b.lo(), w);
    }
    return sad;
}

} // namespace

uint64_t motion_cpu_sad(const MotionParams &p, const PlaneView &prev, const PlaneView &cur,
                        const MotionKernels &k, ThreadPool &pool)
{
    std::atomic<uint64_t> sad{0};
    pool.parallel_for(p.h, MIN_ROWS, [&](int i0, int i1) {
        const uint64_t part = p.bpc > 8 ? sad_rows<uint16_t>(prev, cur, p, k, i0, i1)
                                        : sad_rows<uint8_t>(prev, cur, p, k, i0, i1);
        sad.fetch_add(part, std::memory_order_relaxed);
    });
    return sad.load();
}

void Motion::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    MotionAccum a{};
    const PlaneView &prev = f.prev_ref[p_.prev];
    // §3: no SAD before min_index() (there is no earlier picture) or with
    // motion_force_zero.
    if (computes_sad() && f.index >= min_index() && prev.data)
        a.sad = motion_cpu_sad(p_, prev, f.ref[0], *k_, pool);
    std::memcpy(accum, &a, sizeof a);
}

} // namespace vmafhip
