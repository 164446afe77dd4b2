// float_motion CPU reference (docs/float_motion.md §2, §3): both reference
// lumas (and with motion_add_uv both Cb and Cr, §3.3) as floats, each blurred
// (the vertical pass of a row, then its horizontal pass), then the mean
// absolute difference, every value through
// kernels/float_motion/float_motion_ops.h, which the GPU kernels run too.
// Rows run in parallel: a row's float sum depends on that row only, and the
// rows' sums are then added top to bottom as libvmaf adds them, so any thread
// count gives libvmaf's bits.
#include <cstring>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/float_motion/float_motion.h"
#include "extractors/vif_tools/vif_tools.h"
#include "kernels/float_motion/float_motion_ops.h"

namespace vmafhip {

namespace {

constexpr int MIN_ROWS = 16; // rows per chunk of the thread pool

/// §2: the picture's luma as floats, blurred with taps (w x h, row-major).
std::vector<float> blurred(const PlaneView &pv, int bpc, const std::vector<float> &taps,
                           ThreadPool &pool)
{
    std::vector<float> plane;
    float_plane(pv, bpc, &plane);
    const int w = pv.w, h = pv.h, fw = static_cast<int>(taps.size());
    std::vector<float> out(plane.size());
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        std::vector<float> t(static_cast<size_t>(w));
        for (int y = y0; y < y1; y++) {
            for (int x = 0; x < w; x++)
                t[static_cast<size_t>(x)] =
                    fmotion_vertical(plane.data(), taps.data(), fw, w, h, y, x);
            float *o = out.data() + static_cast<size_t>(y) * w;
            for (int x = 0; x < w; x++)
                o[x] = fmotion_horizontal(t.data(), taps.data(), fw, w, x);
        }
    });
    return out;
}

/// §3.1: Σ |a - b| of each row of the w x h pictures (fmotion_row_sad()).
std::vector<float> row_sads(const std::vector<float> &a, const std::vector<float> &b, int w,
                            int h, ThreadPool &pool)
{
    std::vector<float> rows(static_cast<size_t>(h));
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++)
            rows[static_cast<size_t>(y)] =
                fmotion_row_sad(a.data() + static_cast<size_t>(y) * w,
                                b.data() + static_cast<size_t>(y) * w, w);
    });
    return rows;
}

/// §3.4: the blurred w x h plane b as libvmaf's half-size step reads it,
/// from buffers of the luma's pitch (luma_w wide pictures): b itself where
/// the pitches agree (luma, 4:4:4), else that reading, made in *scratch.
const float *as_scale1_reads(const std::vector<float> &b, int w, int h, int luma_w,
                             std::vector<float> *scratch, ThreadPool &pool)
{
    const FmotionScale1Reads reads{b.data(), w, fmotion_libvmaf_pitch(w),
                                   fmotion_libvmaf_pitch(luma_w)};
    if (reads.own_pitch == reads.buffer_pitch)
        return b.data();
    scratch->resize(b.size());
    pool.parallel_for(h, MIN_ROWS, [&](int y0, int y1) {
        for (int y = y0; y < y1; y++)
            for (int x = 0; x < w; x++)
                (*scratch)[static_cast<size_t>(y) * w + x] = reads(y, x);
    });
    return scratch->data();
}

/// §3: the float score of one plane pair of a luma_w wide picture: its
/// pictures blurred, their mean absolute difference, plus with
/// motion_add_scale1 that of the half-size pictures.
float plane_score(const PlaneView &prev, const PlaneView &cur, int luma_w, int bpc,
                  const std::vector<float> &taps, const Resampling &half, bool add_scale1,
                  ThreadPool &pool)
{
    const int w = cur.w, h = cur.h;
    const std::vector<float> p = blurred(prev, bpc, taps, pool);
    const std::vector<float> c = blurred(cur, bpc, taps, pool);
    const std::vector<float> rows = row_sads(p, c, w, h, pool);
    std::vector<float> half_rows;
    if (add_scale1) {
        // §3.2: the blurred pictures at half size.
        const size_t n = static_cast<size_t>(half.sw) * half.sh;
        std::vector<float> hp(n), hc(n);
        std::vector<float> scratch;
        resample(half, as_scale1_reads(p, w, h, luma_w, &scratch, pool), hp.data(), pool);
        resample(half, as_scale1_reads(c, w, h, luma_w, &scratch, pool), hc.data(), pool);
        half_rows = row_sads(hp, hc, half.sw, half.sh, pool);
    }
    return fmotion_score(rows.data(), w, h, add_scale1 ? half_rows.data() : nullptr, half.sw,
                         half.sh);
}

} // namespace

void FloatMotion::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    FloatMotionAccum a{};
    // §3: frame 0 has no previous picture; motion_force_zero computes nothing.
    if (!o_.force_zero && f.index > 0 && f.prev_ref[0].data)
        for (int q = 0; q < scored_planes(); q++) {
            // §3.3: luma, then with motion_add_uv Cb and Cr, each on its own.
            const PlaneView &prev = q ? f.prev_ref_chroma[0][q - 1] : f.prev_ref[0];
            a.plane[q] = plane_score(prev, f.ref[q], g_.w, bpc_, taps_, half(q),
                                     o_.add_scale1 != 0, pool);
        }
    std::memcpy(accum, &a, sizeof a);
}

} // namespace vmafhip
