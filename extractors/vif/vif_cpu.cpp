// integer VIF CPU reference (docs/vif.md §3, §4, §8): libvmaf's pipeline on
// images padded the way libvmaf pads them (mirrored rows above and below,
// mirrored columns of every filtered row), with the per-sample arithmetic of
// kernels/vif/vif_ops.h in the row kernels of vif_cpu_rows.h. Rows are split
// over the thread pool; every sum is an exact integer sum, so the result
// does not depend on the split, nor on the row kernels.
#include <algorithm>
#include <memory>
#include <mutex>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/vif/vif.h"
#include "extractors/vif/vif_cpu_rows.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up.
constexpr int MIN_ROWS = 8;

/// The ref and dis images of one scale (uint16, every scale and bit depth)
/// with `pad` rows above and below, as libvmaf's buffer holds them, and
/// VIF_ROW_SLACK samples after the last row.
struct PaddedPair {
    int w = 0, h = 0, pad = 0;
    std::vector<uint16_t> data[2]; ///< [ref, dis]: (h + 2 pad) rows of w samples

    void resize(int w_, int h_, int pad_)
    {
        w = w_;
        h = h_;
        pad = pad_;
        for (auto &d : data)
            d.resize(static_cast<size_t>(w) * static_cast<size_t>(h + 2 * pad) + VIF_ROW_SLACK);
    }
    /// Row i in [-pad, h + pad) of picture p (0 ref, 1 dis).
    uint16_t *row(int p, int i) { return data[p].data() + static_cast<ptrdiff_t>(i + pad) * w; }

    /// The scale as the row kernels read it.
    VifScaleView view() { return VifScaleView{{row(0, 0), row(1, 0)}, w, w, h}; }

    /// §3: the pad rows, mirrored. prev: the previous scale, used only when
    /// this one has a single row (§8: libvmaf's pad rows are then its row 1).
    void pad_rows(PaddedPair *prev)
    {
        for (int p = 0; p < 2; p++)
            for (int k = 1; k <= pad; k++) {
                const uint16_t *top = h > 1 ? row(p, vif_mirror(-k, h)) : prev->row(p, 1);
                const uint16_t *bot = h > 1 ? row(p, vif_mirror(h - 1 + k, h)) : prev->row(p, 1);
                std::copy(top, top + w, row(p, -k));
                std::copy(bot, bot + w, row(p, h - 1 + k));
            }
    }
};

} // namespace

struct VifCpuScratch {
    PaddedPair img[VIF_SCALES];
    VifRowsFactory make = nullptr;

    /// Row kernels for the chunks in flight, kept between frames.
    std::mutex mutex;
    std::vector<std::unique_ptr<VifRows>> spare;

    VifCpuScratch(const VifParams &p, VifRowsFactory rows) : make(rows)
    {
        for (int s = 0; s < VIF_SCALES; s++)
            img[s].resize(p.w[s], p.h[s], vif_half(s));
    }

    std::unique_ptr<VifRows> take()
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (spare.empty())
            return make();
        std::unique_ptr<VifRows> r = std::move(spare.back());
        spare.pop_back();
        return r;
    }
    void give(std::unique_ptr<VifRows> r)
    {
        std::lock_guard<std::mutex> lock(mutex);
        spare.push_back(std::move(r));
    }
};

namespace {

template <typename T> void widen(const T *__restrict in, uint16_t *__restrict out, int w)
{
    for (int j = 0; j < w; j++)
        out[j] = in[j];
}

template <typename T> void copy_rows(const PlaneView &pl, PaddedPair &im, int pic, int i0, int i1)
{
    for (int i = i0; i < i1; i++)
        widen(pl.row<T>(i), im.row(pic, i), im.w);
}

/// The part of items [k0, k1) of a job that falls in [base, base + n),
/// where the job has one kind of work: [*a, *e) from base, maybe empty.
void part_of(int k0, int k1, int base, int n, int *a, int *e)
{
    *a = std::max(k0, base) - base;
    *e = std::min(k1, base + n) - base;
}

/// The statistics of scale S into acc and scale S + 1 from scale S, then
/// its pad rows. Both only read scale S: one job for the pool, one wait.
void scale_step(int S, const VifParams &p, VifCpuScratch &b, ThreadPool &pool, VifAccum *acc)
{
    // §8: with one column at scale 3, libvmaf's mirrored columns hold the
    // scale-2 vertical outputs of its last row, column 1.
    VifVert stale = {0, 0, 0, 0, 0};
    if (S == 3 && p.w[3] == 1) {
        PaddedPair &s2 = b.img[2];
        const int i = p.h[2] - 1 - vif_half(2);
        stale = vif_vertical<2>(s2.row(0, i) + 1, s2.row(1, i) + 1, s2.w, vif_vp_shift(2, p.bpc),
                                vif_vq_shift(2, p.bpc));
    }
    const bool last = S + 1 == VIF_SCALES;
    const int stats = S == 0 && p.skip_scale0 ? 0 : p.h[S], down = last ? 0 : p.h[S + 1];
    const VifScaleView im = b.img[S].view(), next = last ? im : b.img[S + 1].view();
    std::mutex m;
    // Items [0, stats) are rows of statistics, [stats, stats + down) rows of
    // scale S + 1.
    pool.parallel_for(stats + down, MIN_ROWS, [&](int k0, int k1) {
        std::unique_ptr<VifRows> rows = b.take();
        VifPartial part = {0, 0, 0, 0};
        int a, e;
        part_of(k0, k1, 0, stats, &a, &e);
        if (a < e)
            rows->stats(S, p, im, stale, a, e, &part);
        part_of(k0, k1, stats, down, &a, &e);
        if (a < e)
            rows->down(S + 1, p, im, next, a, e);
        b.give(std::move(rows));
        std::lock_guard<std::mutex> lock(m); // exact integer sums: any order
        acc->num_log[S] += part.num_log;
        acc->den_log[S] += part.den_log;
        acc->num_nonlog[S] += part.num_nonlog;
        acc->den_nonlog[S] += part.den_nonlog;
    });
    if (!last)
        b.img[S + 1].pad_rows(&b.img[S]);
}

/// One frame into *acc.
void run_frame(const VifParams &p, const FrameView &f, VifCpuScratch &b, ThreadPool &pool, VifAccum *acc)
{
    *acc = VifAccum{};

    // Scale 0: the luma planes as uint16, padded.
    pool.parallel_for(2 * p.h[0], 4 * MIN_ROWS, [&](int k0, int k1) {
        // Items [0, h) are reference rows, [h, 2h) distorted rows.
        for (int pic = 0; pic < 2; pic++) {
            int a, e;
            part_of(k0, k1, pic * p.h[0], p.h[0], &a, &e);
            if (a >= e)
                continue;
            const PlaneView &pl = pic ? f.dis[0] : f.ref[0];
            if (p.bpc > 8)
                copy_rows<uint16_t>(pl, b.img[0], pic, a, e);
            else
                copy_rows<uint8_t>(pl, b.img[0], pic, a, e);
        }
    });
    b.img[0].pad_rows(nullptr);
    for (int s = 0; s < VIF_SCALES; s++)
        scale_step(s, p, b, pool, acc);
}

} // namespace

const VifKernels &vif_kernels_scalar()
{
    static const VifKernels k = {vif_rows_scalar};
    return k;
}

const VifKernels *vif_kernels_avx2()
{
    static const VifKernels k = {vif_rows_avx2};
    return vif_cpu_has_avx2() ? &k : nullptr;
}

void Vif::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const auto scratch = cpu_.take([&] { return std::make_shared<VifCpuScratch>(p_, k_->rows); });
    run_frame(p_, f, *scratch, pool, static_cast<VifAccum *>(accum));
}

void vif_cpu_run(const Vif &v, const FrameView &f, VifRowsFactory rows, ThreadPool &pool, VifAccum *acc)
{
    VifCpuScratch scratch(v.params(), rows);
    run_frame(v.params(), f, scratch, pool, acc);
}

} // namespace vmafhip
