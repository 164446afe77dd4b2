// SpEED CPU code: conversion (§2.1); the pass of one plane side through
// kernels/speed/speed_ops.h, the arithmetic the GPU kernels run too:
// prescale (§5.1), filters and decimation (§5.2, §5.3), covariance (§5.4);
// and, for both backends, on the host: eigenvalues (§5.5), the solve (§5.6),
// variances and entropies (§5.7, §5.8) and the plane score (§6). Every
// float and double rounding point and summation order is the page's; the
// build has no contraction.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstddef>
#include <vector>

#include "extractors/speed/speed.h"

namespace vmafhip {

namespace {

constexpr int NE = SPEED_NE;
constexpr double LOG2_2PIE = 0x1.06073a671183dp+2; // C of §5.8

using Mat = float[NE][NE];

float fsqrt(float x) { return std::sqrt(x); }

// §5.5, tridiagonalisation.
void tridiagonalise(Mat a, float *d, float *e)
{
    float v[NE], x[NE];
    for (int i = 0; i < NE - 2; i++) {
        const int r0 = i + 1;
        float tau = 0.0f;
        float xn = 0.0f;
        for (int r = r0 + 1; r < NE; r++)
            xn = xn + a[r][i] * a[r][i];
        xn = fsqrt(xn);
        if (xn != 0.0f) {
            const float al = a[r0][i];
            const float h = fsqrt(al * al + xn * xn);
            const float beta = al >= 0.0f ? -h : h;
            tau = (beta - al) / beta;
            const float s = al - beta;
            if (s != 0.0f) {
                for (int r = r0; r < NE; r++)
                    a[r][i] = a[r][i] / s;
                a[r0][i] = beta;
            }
        }
        for (int r = r0; r < NE; r++)
            v[r] = a[r][i];
        if (tau == 0.0f)
            continue;
        v[r0] = 1.0f;
        for (int r = r0; r < NE; r++) {
            float acc = 0.0f;
            for (int c = r0; c < NE; c++)
                acc = acc + (tau * a[r][c]) * v[c];
            x[r] = acc;
        }
        float xv = 0.0f;
        for (int r = r0; r < NE; r++)
            xv = xv + x[r] * v[r];
        const float alpha = static_cast<float>((-0.5 * static_cast<double>(tau)) * static_cast<double>(xv));
        for (int r = r0; r < NE; r++)
            x[r] = x[r] + alpha * v[r];
        for (int r = r0; r < NE; r++)
            for (int c = r0; c < NE; c++)
                a[r][c] = a[r][c] - (x[r] * v[c] + v[r] * x[c]);
    }
    for (int k = 0; k < NE; k++)
        d[k] = a[k][k];
    for (int k = 0; k < NE - 1; k++)
        e[k] = a[k + 1][k];
}

// §5.5, chop.
void chop(const float *d, float *e, int m)
{
    for (int k = 0; k < m - 1; k++)
        if (static_cast<double>(std::fabs(e[k])) <
            1e-6 * static_cast<double>(std::fabs(d[k]) + std::fabs(d[k + 1])))
            e[k] = 0.0f;
}

// §5.5, givens.
void givens(float a, float b, float *c, float *s)
{
    if (b == 0.0f) {
        *c = 1.0f, *s = 0.0f;
    } else if (std::fabs(b) > std::fabs(a)) {
        const float t = -a / b;
        *s = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1.0f + t * t)));
        *c = *s * t;
    } else {
        const float t = -b / a;
        *c = static_cast<float>(1.0 / std::sqrt(static_cast<double>(1.0f + t * t)));
        *s = *c * t;
    }
}

// §5.5, one implicit QR step on d[0..m-1], e[0..m-2].
void qr_step(float *d, float *e, int m)
{
    const float ta = d[m - 2], tb = d[m - 1], tab = e[m - 2];
    const float dt = static_cast<float>(static_cast<double>(ta - tb) / 2.0);
    const float hyp = fsqrt(dt * dt + tab * tab);
    float mu;
    if (dt > 0.0f)
        mu = tb - tab * (tab / (dt + hyp));
    else if (dt == 0.0f)
        mu = tb - std::fabs(tab);
    else
        mu = tb + tab * (tab / (-dt + hyp));
    if (1e-6 * static_cast<double>(std::fabs(mu)) > static_cast<double>(std::fabs(d[0]) + std::fabs(e[0])))
        mu = 0.0f;
    float x = d[0] - mu, z = e[0];
    float bk = 0.0f, zk = 0.0f;
    float ap = d[0], bp = e[0], aq = d[1];
    float c, s;
    if (m == 2) {
        givens(x, z, &c, &s);
        d[0] = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        e[0] = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        d[1] = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        return;
    }
    float bq = e[1];
    for (int k = 0; k < m - 1; k++) {
        givens(x, z, &c, &s);
        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = (-s) * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;
        const float ak = ap1;
        bk = bp1, zk = zp1, ap = aq1, bp = bq1;
        if (k < m - 2)
            aq = d[k + 2];
        if (k < m - 3)
            bq = e[k + 2];
        d[k] = ak;
        if (k > 0)
            e[k - 1] = bk1;
        if (k < m - 2)
            e[k + 1] = bp;
        x = bk, z = zk;
    }
    d[m - 1] = ap;
    e[m - 2] = bk;
}

// §5.5: the eigenvalues of k, in libvmaf's (unsorted) order.
void eigenvalues(const Mat k, float *lambda)
{
    Mat a;
    std::memcpy(a, k, sizeof a);
    float e[NE] = {};
    tridiagonalise(a, lambda, e);
    chop(lambda, e, NE);
    int b = NE - 1;
    for (int iter = 0; b > 0 && iter < 500;) {
        if (e[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int lo = b - 1;
        while (lo > 0 && e[lo - 1] != 0.0f)
            lo--;
        qr_step(lambda + lo, e + lo, b - lo + 1);
        chop(lambda + lo, e + lo, b - lo + 1);
        iter++;
    }
}

// §5.6: C = A * B, A n x m, B m x cols, each entry a float sum over k ascending.
void matmul(const float *a, const float *b, float *c, int n, int m, int cols)
{
    std::memset(c, 0, sizeof(float) * static_cast<size_t>(n) * cols);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++)
            for (int j = 0; j < cols; j++)
                c[i * cols + j] = c[i * cols + j] + a[i * m + k] * b[static_cast<size_t>(k) * cols + j];
}

// §5.6: solve K X = Y (Y: 25 x nb) by libvmaf's explicit Householder QR.
// false: a diagonal entry of R is below 1e-6 (singular).
bool solve(const Mat k, const std::vector<float> &y, int nb, std::vector<float> *x)
{
    Mat z, q, h, t, r;
    std::memcpy(z, k, sizeof z);
    for (int i = 0; i < NE; i++)
        for (int j = 0; j < NE; j++)
            q[i][j] = i == j ? 1.0f : 0.0f;
    float v[NE];
    for (int c = 0; c < NE - 1; c++) {
        for (int i = 0; i < NE; i++)
            for (int j = 0; j < NE; j++)
                if (i < c || j < c)
                    z[i][j] = i == j ? 1.0f : 0.0f;
        for (int i = 0; i < NE; i++)
            v[i] = z[i][c];
        float s = 0.0f;
        for (int i = 0; i < NE; i++)
            s = s + v[i] * v[i];
        const float nu = fsqrt(s);
        v[c] = v[c] + (k[c][c] >= 0.0f ? nu : -nu); // the sign of K, not Z (§5.6)
        s = 0.0f;
        for (int i = 0; i < NE; i++)
            s = s + v[i] * v[i];
        const float nv = fsqrt(s);
        for (int i = 0; i < NE; i++)
            v[i] = v[i] / nv;
        for (int i = 0; i < NE; i++)
            for (int j = 0; j < NE; j++)
                h[i][j] = (-2.0f * v[i]) * v[j];
        for (int i = 0; i < NE; i++)
            h[i][i] = h[i][i] + 1.0f;
        matmul(&h[0][0], &z[0][0], &t[0][0], NE, NE, NE);
        std::memcpy(z, t, sizeof z);
        matmul(&h[0][0], &q[0][0], &t[0][0], NE, NE, NE);
        std::memcpy(q, t, sizeof q);
    }
    matmul(&q[0][0], &k[0][0], &r[0][0], NE, NE, NE);
    std::vector<float> qy(static_cast<size_t>(NE) * nb);
    matmul(&q[0][0], y.data(), qy.data(), NE, NE, nb);
    const size_t n = static_cast<size_t>(nb);
    for (int i = NE - 1; i >= 0; i--) {
        const float den = r[i][i];
        if (static_cast<double>(std::fabs(den)) < 1e-6)
            return false;
        for (size_t b = 0; b < n; b++) {
            float acc = qy[i * n + b];
            for (int c = i + 1; c < NE; c++)
                acc = acc - (*x)[c * n + b] * r[i][c];
            (*x)[i * n + b] = acc / den;
        }
    }
    return true;
}

// §5.5 to §5.8 on one side (K and E, speed_side()): entropies and
// variances per block; true when the plane is singular.
bool estimate(const SpeedPlan &p, const float *side, std::vector<float> *ent,
              std::vector<float> *var)
{
    Mat k;
    std::memcpy(k, side, sizeof k);
    const float *e = side + NE * NE;
    float lambda[NE];
    eigenvalues(k, lambda);
    const size_t nb = static_cast<size_t>(p.nb);
    const int tw = p.d.tw;
    std::vector<float> y(NE * nb), x(NE * nb, 0.0f);
    for (int q = 0; q < NE; q++)
        for (int bi = 0; bi < p.nbv; bi++)
            for (int bj = 0; bj < p.nbh; bj++)
                y[q * nb + static_cast<size_t>(bi) * p.nbh + bj] =
                    e[static_cast<size_t>(bi * 5 + q / 5) * tw + bj * 5 + q % 5];
    bool singular = false;
    for (float l : lambda)
        if (static_cast<double>(l) < 1e-6)
            singular = true;
    if (!singular && !solve(k, y, p.nb, &x))
        singular = true;
    if (singular)
        std::fill(x.begin(), x.end(), 0.0f);
    // §5.7.
    var->assign(nb, 0.0f);
    for (size_t b = 0; b < nb; b++) {
        float s = 0.0f;
        for (int q = 0; q < NE; q++)
            s = s + (x[q * nb + b] * y[q * nb + b]) / 25.0f;
        (*var)[b] = s;
    }
    // §5.8.
    ent->assign(nb, 0.0f);
    for (int q = 0; q < NE; q++) {
        const float l = lambda[q] < 0.0f ? 0.0f : lambda[q];
        for (size_t b = 0; b < nb; b++)
            (*ent)[b] = static_cast<float>(
                static_cast<double>((*ent)[b]) +
                (std::log2(static_cast<double>(l * (*var)[b] + p.snn)) + LOG2_2PIE));
    }
    return singular;
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

void speed_convert(const PlaneView &pv, int bpc, std::vector<float> *out)
{
    out->resize(static_cast<size_t>(pv.w) * pv.h);
    float *o = out->data();
    if (bpc == 8) {
        for (int y = 0; y < pv.h; y++) {
            const uint8_t *r = pv.row<uint8_t>(y);
            for (int x = 0; x < pv.w; x++)
                *o++ = speed_sample(r[x], 8);
        }
        return;
    }
    for (int y = 0; y < pv.h; y++) {
        const uint16_t *r = pv.row<uint16_t>(y);
        for (int x = 0; x < pv.w; x++)
            *o++ = speed_sample(r[x], bpc);
    }
}

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
    float *e = side + NE * NE;
    for (int i = 0; i < d.th; i++)
        for (int j = 0; j < d.tw; j++)
            e[i * d.tw + j] = dv(i, j) - speed_filter_at(dv, p.taps_l.data(), d.wl, d.opw, d.oph, i, j);
    // §5.4.
    float mean[NE];
    for (int q = 0; q < NE; q++)
        mean[q] = speed_mean(e, d.tw, q, d.subw, d.subh);
    for (int a = 0; a < NE; a++)
        for (int b = 0; b <= a; b++)
            side[a * NE + b] = side[b * NE + a] =
                speed_covariance(e, d.tw, a, b, mean[a], mean[b], d.subw, d.subh);
}

float speed_plane_score(const SpeedPlan &p, const float *ref, const float *dis, bool *singular)
{
    std::vector<float> hr, sr, hd, sd;
    const bool fr = estimate(p, ref, &hr, &sr);
    const bool fd = estimate(p, dis, &hd, &sd);
    *singular = fr || fd;
    if (fr != fd)
        return 0.0f;
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
        speed_convert(f.ref[1 + c], g_.bpc, &plane);
        speed_side(plan_, plane, side + 2 * c * n);
        speed_convert(f.dis[1 + c], g_.bpc, &plane);
        speed_side(plan_, plane, side + (2 * c + 1) * n);
    }
}

void SpeedTemporal::cpu(const FrameView &f, void *accum, ThreadPool &) const
{
    if (f.index == 0)
        return; // finish() writes 0 (§8 step 2)
    // §8 step 3: previous minus current, in float.
    std::vector<float> rd, dd, cur;
    speed_convert(f.prev_ref[0], g_.bpc, &rd);
    speed_convert(f.prev_dis[0], g_.bpc, &dd);
    speed_convert(f.ref[0], g_.bpc, &cur);
    for (size_t i = 0; i < rd.size(); i++)
        rd[i] = rd[i] - cur[i];
    if (!o_.use_ref_diff)
        speed_convert(f.dis[0], g_.bpc, &cur);
    for (size_t i = 0; i < dd.size(); i++)
        dd[i] = dd[i] - cur[i];
    float *side = static_cast<float *>(accum);
    speed_side(plan_, rd, side);
    speed_side(plan_, dd, side + speed_side_floats(plan_.d));
}

} // namespace vmafhip
