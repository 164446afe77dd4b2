// SpEED's eigenvalues, solve and variances (docs/speed.md §5.5 to §5.7) of
// one plane side, shared by the CPU code and the GPU kernel: one driver,
// speed_estimate(), run by a "team" that is either one CPU thread (every
// step in order) or one GPU block (each step's independent entries spread
// over the threads, with a barrier between steps, sequential steps on one
// thread). Each entry is the same function of the same inputs on both, so
// the bytes do not depend on who computes them; nothing is summed across
// threads. All float and double +, -, *, / and sqrt, correctly rounded on
// both (no contraction, IEEE division and square roots, denormals kept):
// the logarithms of §5.8 and §6 stay on the host (docs/speed.md §9.2).
//
// Device-code rules as for speed_ops.h.
#pragma once

#include <math.h>
#include <stdint.h>

#include "kernels/speed/speed_ops.h"

namespace vmafhip {

/// The head of one side's block in the accumulator: §5.5's eigenvalues in
/// libvmaf's order and §5.6's verdict; §5.7's nb variances follow.
struct SpeedSideHead {
    float lambda[SPEED_NE];
    int32_t singular; ///< 1: K is singular, the variances are 0
};

/// Blocks of a plane (§3).
VMAFHIP_HD int speed_blocks(const SpeedDims &d) { return (d.tw / 5) * (d.th / 5); }

/// Floats of one side's block in the accumulator: the head, the variances.
VMAFHIP_HD size_t speed_side_floats(const SpeedDims &d)
{
    return sizeof(SpeedSideHead) / sizeof(float) + static_cast<size_t>(speed_blocks(d));
}

/// Working matrices of speed_estimate() (25x25, row-major): GPU shared
/// memory, or a CPU thread's own.
struct SpeedSolveScratch {
    float a[SPEED_NE * SPEED_NE]; ///< §5.5: K, reduced in place
    float z[SPEED_NE * SPEED_NE]; ///< §5.6: Z, then R = Q K
    float q[SPEED_NE * SPEED_NE]; ///< Q
    float h[SPEED_NE * SPEED_NE]; ///< H of the current column
    float hz[SPEED_NE * SPEED_NE], hq[SPEED_NE * SPEED_NE]; ///< H Z and H Q
    float v[SPEED_NE], x[SPEED_NE];
    float d[SPEED_NE], e[SPEED_NE];  ///< tridiagonal, then d: the eigenvalues
    float tau, alpha;                ///< of the current column (§5.5)
    int32_t singular;
};

VMAFHIP_HD float speed_fsqrt(float x) { return sqrtf(x); }

/// §5.5 tridiagonalisation, column i, step 1 (one thread): the reflector's
/// column of a (in place) and v[i+1 ..]; returns tau.
VMAFHIP_HD float speed_householder(float *a, int i, float *v)
{
    const int r0 = i + 1;
    float tau = 0.0f;
    float xn = 0.0f;
    for (int r = r0 + 1; r < SPEED_NE; r++)
        xn = xn + a[r * SPEED_NE + i] * a[r * SPEED_NE + i];
    xn = speed_fsqrt(xn);
    if (xn != 0.0f) {
        const float al = a[r0 * SPEED_NE + i];
        const float h = speed_fsqrt(al * al + xn * xn);
        const float beta = al >= 0.0f ? -h : h;
        tau = (beta - al) / beta;
        const float s = al - beta;
        if (s != 0.0f) {
            for (int r = r0; r < SPEED_NE; r++)
                a[r * SPEED_NE + i] = a[r * SPEED_NE + i] / s;
            a[r0 * SPEED_NE + i] = beta;
        }
    }
    for (int r = r0; r < SPEED_NE; r++)
        v[r] = a[r * SPEED_NE + i];
    if (tau != 0.0f)
        v[r0] = 1.0f;
    return tau;
}

/// Step 2, row r: x[r] = sum over c of (tau a[r][c]) v[c], c ascending.
VMAFHIP_HD float speed_householder_x(const float *a, const float *v, float tau, int r0, int r)
{
    float acc = 0.0f;
    for (int c = r0; c < SPEED_NE; c++)
        acc = acc + (tau * a[r * SPEED_NE + c]) * v[c];
    return acc;
}

/// Step 3 (one thread): alpha from x.v, in double.
VMAFHIP_HD float speed_householder_alpha(const float *x, const float *v, float tau, int r0)
{
    float xv = 0.0f;
    for (int r = r0; r < SPEED_NE; r++)
        xv = xv + x[r] * v[r];
    return static_cast<float>((-0.5 * static_cast<double>(tau)) * static_cast<double>(xv));
}

/// §5.5 chop.
VMAFHIP_HD void speed_chop(const float *d, float *e, int m)
{
    for (int k = 0; k < m - 1; k++)
        if (static_cast<double>(fabsf(e[k])) <
            1e-6 * static_cast<double>(fabsf(d[k]) + fabsf(d[k + 1])))
            e[k] = 0.0f;
}

/// §5.5 givens.
VMAFHIP_HD void speed_givens(float a, float b, float *c, float *s)
{
    if (b == 0.0f) {
        *c = 1.0f, *s = 0.0f;
    } else if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        *s = static_cast<float>(1.0 / sqrt(static_cast<double>(1.0f + t * t)));
        *c = *s * t;
    } else {
        const float t = -b / a;
        *c = static_cast<float>(1.0 / sqrt(static_cast<double>(1.0f + t * t)));
        *s = *c * t;
    }
}

/// §5.5: one implicit QR step on d[0..m-1], e[0..m-2].
VMAFHIP_HD void speed_qr_step(float *d, float *e, int m)
{
    const float ta = d[m - 2], tb = d[m - 1], tab = e[m - 2];
    const float dt = static_cast<float>(static_cast<double>(ta - tb) / 2.0);
    const float hyp = speed_fsqrt(dt * dt + tab * tab);
    float mu;
    if (dt > 0.0f)
        mu = tb - tab * (tab / (dt + hyp));
    else if (dt == 0.0f)
        mu = tb - fabsf(tab);
    else
        mu = tb + tab * (tab / (-dt + hyp));
    if (1e-6 * static_cast<double>(fabsf(mu)) > static_cast<double>(fabsf(d[0]) + fabsf(e[0])))
        mu = 0.0f;
    float x = d[0] - mu, z = e[0];
    float bk = 0.0f, zk = 0.0f;
    float ap = d[0], bp = e[0], aq = d[1];
    float c, s;
    if (m == 2) {
        speed_givens(x, z, &c, &s);
        d[0] = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        e[0] = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        d[1] = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        return;
    }
    float bq = e[1];
    for (int k = 0; k < m - 1; k++) {
        speed_givens(x, z, &c, &s);
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

/// §5.5 driver (one thread): the eigenvalues of the tridiagonal d, e into
/// d, in libvmaf's (unsorted) order.
VMAFHIP_HD void speed_tridiagonal_eigenvalues(float *d, float *e)
{
    speed_chop(d, e, SPEED_NE);
    int b = SPEED_NE - 1;
    for (int iter = 0; b > 0 && iter < 500;) {
        if (e[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int lo = b - 1;
        while (lo > 0 && e[lo - 1] != 0.0f)
            lo--;
        speed_qr_step(d + lo, e + lo, b - lo + 1);
        speed_chop(d + lo, e + lo, b - lo + 1);
        iter++;
    }
}

/// §5.6: entry (i, j) of A B, A n x m, B m x cols: a float sum over k
/// ascending from 0.
VMAFHIP_HD float speed_product(const float *a, const float *b, int i, int j, int m, int cols)
{
    float acc = 0.0f;
    for (int k = 0; k < m; k++)
        acc = acc + a[i * m + k] * b[static_cast<size_t>(k) * cols + j];
    return acc;
}

/// §5.6, column c (one thread): the normalised reflector v of column c of
/// z, signed by K[c][c] (not Z's: libvmaf's quirk).
VMAFHIP_HD void speed_reflector(const float *z, const float *k, int c, float *v)
{
    for (int i = 0; i < SPEED_NE; i++)
        v[i] = z[i * SPEED_NE + c];
    float s = 0.0f;
    for (int i = 0; i < SPEED_NE; i++)
        s = s + v[i] * v[i];
    const float nu = speed_fsqrt(s);
    v[c] = v[c] + (k[c * SPEED_NE + c] >= 0.0f ? nu : -nu);
    s = 0.0f;
    for (int i = 0; i < SPEED_NE; i++)
        s = s + v[i] * v[i];
    const float nv = speed_fsqrt(s);
    for (int i = 0; i < SPEED_NE; i++)
        v[i] = v[i] / nv;
}

/// §5.6: Y[q][b], sample q of block b of E (stride tw, nbh blocks a row).
VMAFHIP_HD float speed_block_sample(const float *e, int tw, int nbh, int q, int b)
{
    const int bi = b / nbh, bj = b - bi * nbh;
    return e[static_cast<size_t>(bi * 5 + q / 5) * tw + bj * 5 + q % 5];
}

/**
 * §5.5 to §5.7 of one side: the eigenvalues of K and, unless K is singular,
 * X = K^-1 Y by libvmaf's Householder QR, then the variances. k: K (25x25);
 * e: E (tw x th, stride tw); y, qy, x: 25 x nb floats each of scratch;
 * head, var (nb floats): the side's block in the accumulator.
 *
 * Team: leader() (the thread of sequential steps), sync() (a barrier every
 * thread reaches), each(n, f) (f(0) .. f(n-1) spread over the threads).
 * Every thread of a GPU team must call this (it has barriers).
 */
template <typename Team>
VMAFHIP_HD void speed_estimate(const Team &t, SpeedSolveScratch &s, const float *k, const float *e,
                               int tw, int nbh, int nb, float *y, float *qy, float *x,
                               SpeedSideHead *head, float *var)
{
    constexpr int NN = SPEED_NE * SPEED_NE;
    // §5.5, tridiagonalisation of a copy of K.
    t.each(NN, [&](int n) { s.a[n] = k[n]; });
    t.sync();
    for (int i = 0; i < SPEED_NE - 2; i++) {
        const int r0 = i + 1, w = SPEED_NE - r0;
        if (t.leader())
            s.tau = speed_householder(s.a, i, s.v);
        t.sync();
        const float tau = s.tau;
        if (tau != 0.0f) {
            t.each(w, [&](int r) { s.x[r0 + r] = speed_householder_x(s.a, s.v, tau, r0, r0 + r); });
            t.sync();
            if (t.leader())
                s.alpha = speed_householder_alpha(s.x, s.v, tau, r0);
            t.sync();
            const float alpha = s.alpha;
            t.each(w, [&](int r) { s.x[r0 + r] = s.x[r0 + r] + alpha * s.v[r0 + r]; });
            t.sync();
            t.each(w * w, [&](int n) {
                const int r = r0 + n / w, c = r0 + n % w;
                s.a[r * SPEED_NE + c] = s.a[r * SPEED_NE + c] - (s.x[r] * s.v[c] + s.v[r] * s.x[c]);
            });
        }
        t.sync();
    }
    // §5.5, the eigenvalues; §5.6, the test on them.
    if (t.leader()) {
        for (int n = 0; n < SPEED_NE; n++)
            s.d[n] = s.a[n * SPEED_NE + n];
        for (int n = 0; n < SPEED_NE - 1; n++)
            s.e[n] = s.a[(n + 1) * SPEED_NE + n];
        s.e[SPEED_NE - 1] = 0.0f;
        speed_tridiagonal_eigenvalues(s.d, s.e);
        s.singular = 0;
        for (int n = 0; n < SPEED_NE; n++) {
            head->lambda[n] = s.d[n];
            if (static_cast<double>(s.d[n]) < 1e-6)
                s.singular = 1;
        }
    }
    t.each(SPEED_NE * nb, [&](int n) { y[n] = speed_block_sample(e, tw, nbh, n / nb, n % nb); });
    t.sync();
    if (!s.singular) {
        // §5.6 steps 1 and 2.
        t.each(NN, [&](int n) {
            s.z[n] = k[n];
            s.q[n] = n / SPEED_NE == n % SPEED_NE ? 1.0f : 0.0f;
        });
        t.sync();
        for (int c = 0; c < SPEED_NE - 1; c++) {
            t.each(NN, [&](int n) {
                const int i = n / SPEED_NE, j = n % SPEED_NE;
                if (i < c || j < c)
                    s.z[n] = i == j ? 1.0f : 0.0f;
            });
            t.sync();
            if (t.leader())
                speed_reflector(s.z, k, c, s.v);
            t.sync();
            t.each(NN, [&](int n) {
                const int i = n / SPEED_NE, j = n % SPEED_NE;
                const float h = (-2.0f * s.v[i]) * s.v[j];
                s.h[n] = i == j ? h + 1.0f : h;
            });
            t.sync();
            t.each(NN, [&](int n) {
                const int i = n / SPEED_NE, j = n % SPEED_NE;
                s.hz[n] = speed_product(s.h, s.z, i, j, SPEED_NE, SPEED_NE);
                s.hq[n] = speed_product(s.h, s.q, i, j, SPEED_NE, SPEED_NE);
            });
            t.sync();
            t.each(NN, [&](int n) {
                s.z[n] = s.hz[n];
                s.q[n] = s.hq[n];
            });
            t.sync();
        }
        // Steps 3 and 4: R = Q K (into z), Y' = Q Y.
        t.each(NN, [&](int n) {
            s.z[n] = speed_product(s.q, k, n / SPEED_NE, n % SPEED_NE, SPEED_NE, SPEED_NE);
        });
        t.each(SPEED_NE * nb, [&](int n) { qy[n] = speed_product(s.q, y, n / nb, n % nb, SPEED_NE, nb); });
        t.sync();
        // Step 5: back substitution, a row at a time.
        for (int i = SPEED_NE - 1; i >= 0; i--) {
            const float den = s.z[i * SPEED_NE + i];
            if (static_cast<double>(fabsf(den)) < 1e-6) {
                if (t.leader())
                    s.singular = 1;
                break;
            }
            t.each(nb, [&](int b) {
                float acc = qy[static_cast<size_t>(i) * nb + b];
                for (int c = i + 1; c < SPEED_NE; c++)
                    acc = acc - x[static_cast<size_t>(c) * nb + b] * s.z[i * SPEED_NE + c];
                x[static_cast<size_t>(i) * nb + b] = acc / den;
            });
            t.sync();
        }
        t.sync();
    }
    if (s.singular)
        t.each(SPEED_NE * nb, [&](int n) { x[n] = 0.0f; });
    t.sync();
    if (t.leader())
        head->singular = s.singular;
    // §5.7.
    t.each(nb, [&](int b) {
        float acc = 0.0f;
        for (int q = 0; q < SPEED_NE; q++)
            acc = acc + (x[static_cast<size_t>(q) * nb + b] * y[static_cast<size_t>(q) * nb + b]) / 25.0f;
        var[b] = acc;
    });
}

/// The team of one CPU thread: every step in order.
struct SpeedSerialTeam {
    bool leader() const { return true; }
    void sync() const {}
    template <typename F> void each(int n, F f) const
    {
        for (int i = 0; i < n; i++)
            f(i);
    }
};

} // namespace vmafhip
