// SpEED CPU code: conversion (§2.1); the pass of one plane side through the
// arithmetic the GPU kernels run too (kernels/speed/speed_ops.h and
// speed_solve.h): prescale (§5.1), filters and decimation (§5.2, §5.3),
// covariance (§5.4), eigenvalues (§5.5), the solve (§5.6) and the variances
// (§5.7); and, for both backends, on the host: the entropies (§5.8) and the
// plane score (§6). Every float and double rounding point and summation
// order is the page's; the build has no contraction.
#include <cmath>
#include <cstdint>
#include <cstddef>
#include <memory>
#include <vector>

#include "base/thread_pool.h"
#include "extractors/speed/speed.h"
#include "kernels/speed/speed_solve.h"

#if defined(__x86_64__)
#include "base/avx2.h"
#endif

namespace vmafhip {

/// The loops of a side's pass that run in the instruction set the
/// processor runs best (speed_kernels()).
struct SpeedKernels {
    /// §5.4: K from the side's E and its means.
    void (*covariances)(const float *e, int stride, const float *mean, int subw, int subh, float *k);
};

namespace {

constexpr int NE = SPEED_NE;
constexpr double LOG2_2PIE = 0x1.06073a671183dp+2; // C of §5.8

// §5.8: the entropy of each block of one side from its eigenvalues and
// variances (the side's block in the accumulator, speed_estimate()).
std::vector<float> entropies(const SpeedPlan &p, const SpeedSideHead &head, const float *var)
{
    std::vector<float> ent(static_cast<size_t>(p.nb), 0.0f);
    for (int q = 0; q < NE; q++) {
        const float l = head.lambda[q] < 0.0f ? 0.0f : head.lambda[q];
        for (size_t b = 0; b < ent.size(); b++)
            ent[b] = static_cast<float>(static_cast<double>(ent[b]) +
                                        (std::log2(static_cast<double>(l * var[b] + p.snn)) + LOG2_2PIE));
    }
    return ent;
}

/// §5.4, the lower triangle of K in one pass over the samples: per sample
/// the 25 differences from the means (speed_covariance_term()'s operands),
/// then row a of the triangle gains their products with difference a, four
/// or eight entries per instruction. Each entry is still speed_covariance()'s
/// sum: the same terms (a product's operands commute), added in its order.
__attribute__((always_inline)) inline void covariance_rows(const float *e, int stride, const float *mean,
                                                           int subw, int subh, float *k)
{
    constexpr int ROW = (NE + 3) / 4 * 4; // entries 0..a of row a, padded to whole vectors
    alignas(64) double acc[NE * ROW] = {};
    alignas(64) double d[ROW] = {};       // the padding stays 0: its products are never read
    const float *x[NE];
    for (int q = 0; q < NE; q++)
        x[q] = speed_position(e, stride, q);
    for (int i = 0; i < subh; i++)
        for (int j = 0; j < subw; j++) {
            const size_t at = static_cast<size_t>(i) * stride + j;
            for (int q = 0; q < NE; q++)
                d[q] = static_cast<double>(x[q][at]) - static_cast<double>(mean[q]);
            for (int a = 0; a < NE; a++) {
                const double da = d[a];
                double *row = acc + a * ROW;
                for (int b = 0; b < (a + 4) / 4 * 4; b++)
                    row[b] = row[b] + da * d[b];
            }
        }
    for (int a = 0; a < NE; a++)
        for (int b = 0; b <= a; b++)
            k[a * NE + b] = k[b * NE + a] = speed_covariance_of(acc[a * ROW + b], subw, subh);
}

void covariances_plain(const float *e, int stride, const float *mean, int subw, int subh, float *k)
{
    covariance_rows(e, stride, mean, subw, subh, k);
}

#if defined(__x86_64__)
VMAFHIP_AVX2 void covariances_avx2(const float *e, int stride, const float *mean, int subw, int subh,
                                   float *k)
{
    covariance_rows(e, stride, mean, subw, subh, k);
}

// The same code, compiled for the baseline and for AVX2.
const SpeedKernels speed_kernels_avx2{covariances_avx2};
#endif
const SpeedKernels speed_kernels_plain{covariances_plain};

double lg1(float s) { return std::log2(static_cast<double>(1.0f + s)); }

// §6: the weights of one block by mode.
void weights(int mode, float sr, float sd, double *wr, double *wd)
{
    const double mean = 1.0 + static_cast<double>(sr + sd) / 2.0;
    switch (mode) {
    case 1: *wr = *wd = lg1(sr); break;
    case 2: *wr = *wd = lg1(sd); break;
    case 3: *wr = *wd = std::log2(mean); break;
    case 4: *wr = lg1(sr), *wd = std::log2(mean); break;
    case 5:
        *wr = lg1(sr);
        *wd = std::log2(1.0 + (0.75 * static_cast<double>(sr) + 0.25 * static_cast<double>(sd)));
        break;
    case 6:
        *wr = lg1(sr);
        *wd = std::log2(1.0 + (0.25 * static_cast<double>(sr) + 0.75 * static_cast<double>(sd)));
        break;
    default: *wr = lg1(sr), *wd = lg1(sd); break;
    }
}

} // namespace

const SpeedKernels &speed_kernels(unsigned cpu_flags)
{
#if defined(__x86_64__)
    return choose_kernels(cpu_flags, speed_kernels_plain, &speed_kernels_avx2);
#else
    return choose_kernels(cpu_flags, speed_kernels_plain, nullptr);
#endif
}

/// Every element a side's pass reads it writes first, so the planes are
/// kept between frames as they are (fresh large allocations per frame cost
/// page faults).
struct SpeedCpuScratch {
    std::vector<float> in[2];                    ///< converted planes (§2.1, §8 step 3)
    std::vector<float> resampled, dec, e, y, qy, x; ///< §5.1 to §5.6
    SpeedSolveScratch solve;
};

namespace {

/// A side's scratch from pool, made on first use.
ScratchPool<SpeedCpuScratch>::Lease take_scratch(ScratchPool<SpeedCpuScratch> &pool)
{
    return pool.take([] { return std::make_shared<SpeedCpuScratch>(); });
}

} // namespace

void speed_side(const SpeedPlan &p, const SpeedKernels &k, const float *plane, SpeedCpuScratch &s,
                float *side)
{
    const SpeedDims &d = p.d;
    SpeedImage src{plane, d.ow};
    std::vector<float> &resampled = s.resampled;
    if (d.resample) {
        resampled.resize(static_cast<size_t>(d.sw) * d.sh);
        for (int y = 0; y < d.sh; y++)
            for (int x = 0; x < d.sw; x++)
                resampled[static_cast<size_t>(y) * d.sw + x] = speed_resample_at(
                    src, &p.ax.idx[static_cast<size_t>(x) * d.tx], &p.ax.w[static_cast<size_t>(x) * d.tx],
                    d.tx, &p.ay.idx[static_cast<size_t>(y) * d.ty],
                    &p.ay.w[static_cast<size_t>(y) * d.ty], d.ty, d.normalise != 0);
        src = SpeedImage{resampled.data(), d.sw};
    }
    // §5.2: the anti-alias filter at the decimated positions only (§11).
    std::vector<float> &dec = s.dec;
    dec.resize(static_cast<size_t>(d.opw) * d.oph);
    for (int i = 0; i < d.oph; i++)
        for (int j = 0; j < d.opw; j++)
            dec[static_cast<size_t>(i) * d.opw + j] =
                speed_filter_at(src, p.taps_a.data(), d.wa, d.sw, d.sh, 16 * i, 16 * j);
    // §5.3, on the truncated part that §5.4 to §5.6 read.
    const SpeedImage dv{dec.data(), d.opw};
    std::vector<float> &e = s.e;
    e.resize(static_cast<size_t>(d.tw) * d.th);
    for (int i = 0; i < d.th; i++)
        for (int j = 0; j < d.tw; j++)
            e[static_cast<size_t>(i) * d.tw + j] =
                dv(i, j) - speed_filter_at(dv, p.taps_l.data(), d.wl, d.opw, d.oph, i, j);
    // §5.4.
    float mean[NE], cov[NE * NE];
    for (int q = 0; q < NE; q++)
        mean[q] = speed_mean(e.data(), d.tw, q, d.subw, d.subh);
    k.covariances(e.data(), d.tw, mean, d.subw, d.subh, cov);
    // §5.5 to §5.7.
    const size_t n = static_cast<size_t>(NE) * p.nb;
    s.y.resize(n);
    s.qy.resize(n);
    s.x.resize(n);
    SpeedSideHead *head = reinterpret_cast<SpeedSideHead *>(side);
    speed_estimate(SpeedSerialTeam{}, s.solve, cov, e.data(), d.tw, p.nbh, p.nb, s.y.data(),
                   s.qy.data(), s.x.data(), head, side + sizeof(SpeedSideHead) / sizeof(float));
}

float speed_plane_score(const SpeedPlan &p, const float *ref, const float *dis, bool *singular)
{
    const SpeedSideHead &r = *reinterpret_cast<const SpeedSideHead *>(ref);
    const SpeedSideHead &d = *reinterpret_cast<const SpeedSideHead *>(dis);
    const float *sr = ref + sizeof(SpeedSideHead) / sizeof(float);
    const float *sd = dis + sizeof(SpeedSideHead) / sizeof(float);
    const bool fr = r.singular != 0, fd = d.singular != 0;
    *singular = fr || fd;
    if (fr != fd)
        return 0.0f;
    const std::vector<float> hr = entropies(p, r, sr), hd = entropies(p, d, sd);
    float score = 0.0f;
    for (size_t b = 0; b < static_cast<size_t>(p.nb); b++) {
        if (hr[b] < p.base && hd[b] < p.base)
            continue;
        double wr, wd;
        weights(p.mode, sr[b], sd[b], &wr, &wd);
        const float a = static_cast<float>(static_cast<double>(hr[b]) * wr);
        const float a2 = static_cast<float>(static_cast<double>(hd[b]) * wd);
        score = score + std::fabs(a - a2);
    }
    return score / static_cast<float>(p.nb);
}

void SpeedChroma::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    // The four sides (U reference, U distorted, V reference, V distorted)
    // are independent: one task each.
    float *side = static_cast<float *>(accum);
    const size_t n = speed_side_floats(plan_.d);
    pool.parallel_for(SIDES, 1, [&](int begin, int end) {
        for (int k = begin; k < end; k++) {
            const auto s = take_scratch(cpu_);
            const PlaneView &plane = k & 1 ? f.dis[1 + k / 2] : f.ref[1 + k / 2];
            float_plane(plane, g_.bpc, &(*s).in[0]);
            speed_side(plan_, *k_, (*s).in[0].data(), *s, side + static_cast<size_t>(k) * n);
        }
    });
}

void SpeedTemporal::cpu(const FrameView &f, void *accum, ThreadPool &pool) const
{
    if (f.index == 0)
        return; // finish() writes 0 (§8 step 2)
    // §8 step 3: previous minus current, in float; the reference difference
    // and the distorted one are independent: one task each.
    float *side = static_cast<float *>(accum);
    const size_t n = speed_side_floats(plan_.d);
    pool.parallel_for(SIDES, 1, [&](int begin, int end) {
        for (int k = begin; k < end; k++) {
            const auto s = take_scratch(cpu_);
            std::vector<float> &prev = (*s).in[0], &cur = (*s).in[1];
            float_plane(k == 0 ? f.prev_ref[0] : f.prev_dis[0], g_.bpc, &prev);
            float_plane(k == 0 || o_.use_ref_diff ? f.ref[0] : f.dis[0], g_.bpc, &cur);
            for (size_t i = 0; i < prev.size(); i++)
                prev[i] = prev[i] - cur[i];
            speed_side(plan_, *k_, prev.data(), *s, side + static_cast<size_t>(k) * n);
        }
    });
}

} // namespace vmafhip
