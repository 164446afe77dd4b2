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

#include "extractors/speed/speed.h"
#include "kernels/speed/speed_solve.h"

namespace vmafhip {

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

void speed_side(const SpeedPlan &p, const std::vector<float> &plane, float *side)
{
    const SpeedDims &d = p.d;
    SpeedImage src{plane.data(), d.ow};
    std::vector<float> resampled;
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
    std::vector<float> dec(static_cast<size_t>(d.opw) * d.oph);
    for (int i = 0; i < d.oph; i++)
        for (int j = 0; j < d.opw; j++)
            dec[static_cast<size_t>(i) * d.opw + j] =
                speed_filter_at(src, p.taps_a.data(), d.wa, d.sw, d.sh, 16 * i, 16 * j);
    // §5.3, on the truncated part that §5.4 to §5.6 read.
    const SpeedImage dv{dec.data(), d.opw};
    std::vector<float> e(static_cast<size_t>(d.tw) * d.th);
    for (int i = 0; i < d.th; i++)
        for (int j = 0; j < d.tw; j++)
            e[static_cast<size_t>(i) * d.tw + j] =
                dv(i, j) - speed_filter_at(dv, p.taps_l.data(), d.wl, d.opw, d.oph, i, j);
    // §5.4.
    float mean[NE], k[NE * NE];
    for (int q = 0; q < NE; q++)
        mean[q] = speed_mean(e.data(), d.tw, q, d.subw, d.subh);
    for (int a = 0; a < NE; a++)
        for (int b = 0; b <= a; b++)
            k[a * NE + b] = k[b * NE + a] =
                speed_covariance(e.data(), d.tw, a, b, mean[a], mean[b], d.subw, d.subh);
    // §5.5 to §5.7.
    const size_t n = static_cast<size_t>(NE) * p.nb;
    std::vector<float> y(n), qy(n), x(n);
    auto scratch = std::make_unique<SpeedSolveScratch>();
    SpeedSideHead *head = reinterpret_cast<SpeedSideHead *>(side);
    speed_estimate(SpeedSerialTeam{}, *scratch, k, e.data(), d.tw, p.nbh, p.nb, y.data(), qy.data(),
                   x.data(), head, side + sizeof(SpeedSideHead) / sizeof(float));
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

void SpeedChroma::cpu(const FrameView &f, void *accum, ThreadPool &) const
{
    float *side = static_cast<float *>(accum);
    const size_t n = speed_side_floats(plan_.d);
    std::vector<float> plane;
    for (int c = 0; c < 2; c++) {
        float_plane(f.ref[1 + c], g_.bpc, &plane);
        speed_side(plan_, plane, side + 2 * c * n);
        float_plane(f.dis[1 + c], g_.bpc, &plane);
        speed_side(plan_, plane, side + (2 * c + 1) * n);
    }
}

void SpeedTemporal::cpu(const FrameView &f, void *accum, ThreadPool &) const
{
    if (f.index == 0)
        return; // finish() writes 0 (§8 step 2)
    // §8 step 3: previous minus current, in float.
    std::vector<float> rd, dd, cur;
    float_plane(f.prev_ref[0], g_.bpc, &rd);
    float_plane(f.prev_dis[0], g_.bpc, &dd);
    float_plane(f.ref[0], g_.bpc, &cur);
    for (size_t i = 0; i < rd.size(); i++)
        rd[i] = rd[i] - cur[i];
    if (!o_.use_ref_diff)
        float_plane(f.dis[0], g_.bpc, &cur);
    for (size_t i = 0; i < dd.size(); i++)
        dd[i] = dd[i] - cur[i];
    float *side = static_cast<float *>(accum);
    speed_side(plan_, rd, side);
    speed_side(plan_, dd, side + speed_side_floats(plan_.d));
}

} // namespace vmafhip
