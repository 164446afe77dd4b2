// integer motion row kernels in plain C++ (docs/motion.md §2): the
// per-sample arithmetic of kernels/motion/motion_ops.h, built for the
// baseline. Any CPU; the reference every vectorised table is tested against.
#include <algorithm>

#include "extractors/motion/motion_cpu_rows.h"

namespace vmafhip {

namespace {

template <typename T>
inline uint32_t diff_row(const T *__restrict__ prev, const T *__restrict__ cur, int w, int16_t *__restrict__ d)
{
    uint32_t any = 0;
    for (int j = 0; j < w; j++) {
        d[j] = static_cast<int16_t>(prev[j] - cur[j]);
        any |= prev[j] | cur[j];
    }
    return any;
}

void diff8(const uint8_t *prev, const uint8_t *cur, int w, int16_t *d)
{
    diff_row(prev, cur, w, d);
}

uint32_t diff16(const uint16_t *prev, const uint16_t *cur, int w, int16_t *d)
{
    return diff_row(prev, cur, w, d);
}

void vert(const int16_t *const d[5], int w, int bpc, int16_t *__restrict__ hi,
                              int16_t *__restrict__ lo)
{
    const int16_t *__restrict__ d0 = d[0], *__restrict__ d1 = d[1], *__restrict__ d2 = d[2];
    const int16_t *__restrict__ d3 = d[3], *__restrict__ d4 = d[4];
    for (int j = 0; j < w; j++)
        motion_split(motion_vert(d0[j], d1[j], d2[j], d3[j], d4[j], bpc), hi + j, lo + j);
}

/// yv is joined a block of columns at a time, so that the filter's loop
/// reads int32 values, as one that vectorises wants them.
uint64_t hori_sad(const int16_t *hi, const int16_t *lo, int w)
{
    constexpr int BLOCK = 256;
    int32_t y[BLOCK + 4];
    uint64_t sad = 0;
    for (int j0 = 0; j0 < w; j0 += BLOCK) {
        const int n = std::min(BLOCK, w - j0);
        for (int k = 0; k < n + 4; k++)
            y[k] = motion_join(hi[j0 - 2 + k], lo[j0 - 2 + k]);
        for (int j = 0; j < n; j++)
            sad += motion_hori_abs(y[j], y[j + 1], y[j + 2], y[j + 3], y[j + 4]);
    }
    return sad;
}

} // namespace

const MotionKernels &motion_kernels_scalar()
{
    static const MotionKernels k = {diff8, diff16, vert, hori_sad};
    return k;
}

void motion_vert_wide(const uint16_t *const p[5], const uint16_t *const c[5], int w, int bpc,
                      int16_t *hi, int16_t *lo)
{
    for (int j = 0; j < w; j++)
        motion_split(motion_vert(p[0][j] - c[0][j], p[1][j] - c[1][j], p[2][j] - c[2][j],
                                 p[3][j] - c[3][j], p[4][j] - c[4][j], bpc),
                     hi + j, lo + j);
}

} // namespace vmafhip
