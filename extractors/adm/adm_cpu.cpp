// integer ADM CPU reference (docs/adm.md): runs the stages of adm_stages.h
// scale by scale, rows split over the thread pool, and sums the per-row
// results exactly. Every reduction is an integer sum of per-row rounded
// values, so the result does not depend on how the rows were split (§12.1).
// Every § here is a section of docs/adm.md.
#include <vector>

#include "base/thread_pool.h"
#include "extractors/adm/adm.h"
#include "extractors/adm/adm_cpu_avx2.h"
#include "extractors/adm/adm_stages.h"

namespace vmafhip {

namespace {

// Rows per chunk: enough work per chunk to amortise the pool's wake-up.
constexpr int MIN_ROWS = 8;

/// The buffers of one scale, band type T (int16 at scale 0, else int32).
template <typename T> struct ScaleBuffers {
    std::vector<T> ref[4], dis[4]; // DWT bands H, V, D, A
    std::vector<T> r[3], a[3];     // decoupled (§6)
    std::vector<int32_t> dlm_f, dlm_c, aim_f, aim_c; // maskers (§8, §9.1)

    void resize(const AdmScaleParams &q)
    {
        const size_t n = static_cast<size_t>(q.w) * static_cast<size_t>(q.h);
        for (int b = 0; b < 4; b++) {
            ref[b].resize(n);
            dis[b].resize(n);
        }
        for (int t = 0; t < 3; t++) {
            r[t].resize(n);
            a[t].resize(n);
        }
        for (auto *v : {&dlm_f, &dlm_c, &aim_f, &aim_c})
            v->resize(n);
    }
    void bands(std::vector<T> (&src)[4], T *out[4])
    {
        for (int b = 0; b < 4; b++)
            out[b] = src[b].data();
    }
};

/// Pointers to the H, V, D planes of v (the first three; a band set also has A).
template <typename T> void const_ptrs(const std::vector<T> *v, const T *out[3])
{
    for (int t = 0; t < 3; t++)
        out[t] = v[t].data();
}

} // namespace

struct AdmCpuBuffers {
    ScaleBuffers<int16_t> s0;
    ScaleBuffers<int32_t> s123[3];
    std::vector<uint64_t> den_rows;          // [row][θ]
    std::vector<int64_t> num_rows, aim_rows; // [row][θ]

    explicit AdmCpuBuffers(const AdmParams &p)
    {
        s0.resize(p.s[0]);
        for (int sc = 1; sc < ADM_SCALES; sc++)
            s123[sc - 1].resize(p.s[sc]);
    }
};

namespace {

/// §6-§10 at one scale from its DWT bands: per-row den, DLM and AIM sums.
template <typename T>
void score_scale(const AdmKernels &k, const AdmParams &p, int sc, ScaleBuffers<T> &b,
                 AdmCpuBuffers &buf, ThreadPool &pool, AdmAccum *acc)
{
    const AdmScaleParams &q = p.s[sc];
    const bool aim = !p.skip_aim;
    const T *ref[3], *dis[3], *r[3], *a[3];
    const_ptrs(b.ref, ref);
    const_ptrs(b.dis, dis);
    AdmDecoupleOut<T> dec;
    for (int t = 0; t < 3; t++) {
        dec.r[t] = b.r[t].data();
        dec.a[t] = b.a[t].data();
    }
    dec.dlm_f = b.dlm_f.data();
    dec.dlm_c = b.dlm_c.data();
    dec.aim_f = aim ? b.aim_f.data() : nullptr;
    dec.aim_c = aim ? b.aim_c.data() : nullptr;
    pool.parallel_for(q.h, MIN_ROWS, [&](int i0, int i1) {
        adm_decouple(k, ref, dis, q, p.egl, i0, i1, dec);
    });

    const_ptrs(b.r, r);
    const_ptrs(b.a, a);
    buf.den_rows.assign(3 * static_cast<size_t>(q.h), 0);
    buf.num_rows.assign(3 * static_cast<size_t>(q.h), 0);
    buf.aim_rows.assign(3 * static_cast<size_t>(q.h), 0);
    const int rows = q.bottom - q.top;
    pool.parallel_for(rows, MIN_ROWS, [&](int k0, int k1) {
        for (int i = q.top + k0; i < q.top + k1; i++) {
            uint64_t *den = &buf.den_rows[3 * static_cast<size_t>(i)];
            if constexpr (sizeof(T) == 2)
                adm_den_row(k, ref, q, i, den);
            else
                adm_den_row(k, ref, q, sc, i, den);
            // DLM: test signal r, masker from a. AIM: test signal a, masker from r.
            adm_cm_row(k, r, b.dlm_f.data(), b.dlm_c.data(), q, i,
                       &buf.num_rows[3 * static_cast<size_t>(i)]);
            if (aim)
                adm_cm_row(k, a, b.aim_f.data(), b.aim_c.data(), q, i,
                           &buf.aim_rows[3 * static_cast<size_t>(i)]);
        }
    });
    for (int i = q.top; i < q.bottom; i++) {
        for (int t = 0; t < 3; t++) {
            acc->den[sc][t] += buf.den_rows[3 * static_cast<size_t>(i) + t];
            acc->num[sc][t] += buf.num_rows[3 * static_cast<size_t>(i) + t];
            acc->aim[sc][t] += buf.aim_rows[3 * static_cast<size_t>(i) + t];
        }
    }
}

/// One frame with kernel table k into scratch buf.
void run(const AdmKernels &k, const AdmParams &p, const FrameView &f, AdmCpuBuffers &buf,
         ThreadPool &pool, AdmAccum *acc)
{
    *acc = AdmAccum{};
    // Scale 0: DWT of both pictures (with adm_skip_scale0 only A is used, §4.4).
    {
        ScaleBuffers<int16_t> &b = buf.s0;
        int16_t *ref[4], *dis[4];
        b.bands(b.ref, ref);
        b.bands(b.dis, dis);
        const AdmScaleParams &q = p.s[0];
        pool.parallel_for(2 * q.h, MIN_ROWS, [&](int k0, int k1) {
            // Items [0, h) are reference rows, [h, 2h) distorted rows.
            if (k0 < q.h)
                adm_dwt_s0(k, f.ref[0], p.bpc, q, k0, k1 < q.h ? k1 : q.h, ref);
            if (k1 > q.h)
                adm_dwt_s0(k, f.dis[0], p.bpc, q, (k0 > q.h ? k0 : q.h) - q.h, k1 - q.h, dis);
        });
        if (!p.skip_scale0)
            score_scale(k, p, 0, b, buf, pool, acc);
    }
    // Scales 1-3: the input is the previous scale's A band.
    for (int sc = 1; sc < ADM_SCALES; sc++) {
        ScaleBuffers<int32_t> &b = buf.s123[sc - 1];
        int32_t *ref[4], *dis[4];
        b.bands(b.ref, ref);
        b.bands(b.dis, dis);
        const AdmScaleParams &q = p.s[sc];
        pool.parallel_for(2 * q.h, MIN_ROWS, [&](int k0, int k1) {
            const int a0 = k0 < q.h ? k0 : q.h, a1 = k1 < q.h ? k1 : q.h;
            const int b0 = (k0 > q.h ? k0 : q.h) - q.h, b1 = (k1 > q.h ? k1 : q.h) - q.h;
            if (sc == 1) {
                if (a0 < a1)
                    adm_dwt_s123(k, buf.s0.ref[ADM_A].data(), q, sc, a0, a1, ref);
                if (b0 < b1)
                    adm_dwt_s123(k, buf.s0.dis[ADM_A].data(), q, sc, b0, b1, dis);
            } else {
                if (a0 < a1)
                    adm_dwt_s123(k, buf.s123[sc - 2].ref[ADM_A].data(), q, sc, a0, a1, ref);
                if (b0 < b1)
                    adm_dwt_s123(k, buf.s123[sc - 2].dis[ADM_A].data(), q, sc, b0, b1, dis);
            }
        });
        score_scale(k, p, sc, b, buf, pool, acc);
    }
}

} // namespace

void adm_cpu_frame(const AdmKernels &k, const AdmParams &p, const FrameView &f, ThreadPool &pool,
                   AdmAccum *acc)
{
    AdmCpuBuffers buf(p);
    run(k, p, f, buf, pool, acc);
}

void Adm::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    const auto buf = cpu_.take([&] { return std::make_shared<AdmCpuBuffers>(p_); });
    run(*k_, p_, f, *buf, pool, static_cast<AdmAccum *>(accum));
}

} // namespace vmafhip
