"""Rate-quality analysis of a ladder: its convex hull and its Bjøntegaard delta rate (BD-rate).

Convex hull. The hull of a title is the upper-left convex hull of its renditions' (bitrate, vmaf
mean) points, over all resolutions, on a *linear* bitrate axis: the points that no other point and
no mix of two others beats. Bitrate and mean vmaf are both averages over time, so switching
between two renditions part of the time (as adaptive streaming does, segment by segment) gives
any point on the straight chord between them in the linear plane; a rendition below such a chord
is worse than a mix of its neighbours, as is one with a lower vmaf than a cheaper rendition. A
chord on a log-bitrate axis corresponds to no such mix, and being concave there is a stronger
condition, which drops renditions no mix beats. The plots use a log bitrate axis, only for
reading. A point exactly on a chord counts as on the hull.

BD-rate. The Bjøntegaard delta rate of JCTVC-L1100 and the JCT-VC/JVET common-test-condition
spreadsheets: per curve, log10(bitrate) as a function of vmaf is interpolated by the piecewise
cubic Hermite interpolant (PCHIP, Fritsch and Carlson's monotone scheme with the harmonic-mean
slopes of Fritsch and Butland and the three-point end slopes, as in Matlab's pchip and scipy's
PchipInterpolator), integrated exactly over the vmaf range both curves cover; the mean difference
d of the logs gives (10**d - 1) * 100 percent: the test's bitrate change at equal vmaf, negative
when it needs fewer bits. Each curve needs at least two points (PCHIP through two points is a
straight line in log rate); the common test conditions use four, and the number of points used is
reported beside the result. A curve must rise: vmaf strictly increasing with bitrate (a hull
does).
"""

import math
from dataclasses import dataclass

MIN_POINTS = 2


class BDRateError(ValueError):
    """Why no BD-rate can be computed: too few points, a curve that does not rise, no overlap."""


@dataclass(frozen=True)
class BDRate:
    percent: float          # the test's bitrate change against the anchor at equal vmaf
    vmaf_low: float         # the vmaf range integrated over: where both curves are defined
    vmaf_high: float
    anchor_points: int
    test_points: int


def _below(a, b, c):
    """Whether point b lies strictly below the chord from a to c (a, b, c in bitrate order)."""
    return (b[1] - a[1]) * (c[0] - a[0]) < (c[1] - a[1]) * (b[0] - a[0])


def convex_hull(points):
    """The keys of the upper-left convex hull of `points`, (bitrate, vmaf, key) triples, in
    bitrate order. Points without a positive, finite bitrate and a finite vmaf are left out.
    Along the hull both bitrate and vmaf strictly increase."""
    usable = [p for p in points if p[0] > 0 and math.isfinite(p[0]) and math.isfinite(p[1])]
    hull = []
    # By bitrate, the best vmaf first at equal bitrates; the order is stable for equal points.
    for p in sorted(usable, key=lambda p: (p[0], -p[1])):
        # hull[-1] has the highest vmaf so far: a point no better, at no lower bitrate, is beaten.
        if hull and (p[0] == hull[-1][0] or p[1] <= hull[-1][1]):
            continue
        while len(hull) >= 2 and _below(hull[-2], hull[-1], p):
            hull.pop()
        hull.append(p)
    return [p[2] for p in hull]


def _sign(v):
    return (v > 0) - (v < 0)


def _end_slope(h0, h1, m0, m1):
    """The shape-preserving three-point slope at an end of the data."""
    d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
    if _sign(d) != _sign(m0):
        return 0.0
    if _sign(m0) != _sign(m1) and abs(d) > 3 * abs(m0):
        return 3 * m0
    return d


def pchip_slopes(x, y):
    """The PCHIP's slopes at the points (x strictly increasing)."""
    n = len(x)
    h = [x[k + 1] - x[k] for k in range(n - 1)]
    m = [(y[k + 1] - y[k]) / h[k] for k in range(n - 1)]
    if n == 2:
        return [m[0], m[0]]
    d = [0.0] * n
    for k in range(1, n - 1):
        # Zero at a local extremum or beside a flat piece; else a weighted harmonic mean.
        if _sign(m[k - 1]) == _sign(m[k]) != 0:
            w1, w2 = 2 * h[k] + h[k - 1], h[k] + 2 * h[k - 1]
            d[k] = (w1 + w2) / (w1 / m[k - 1] + w2 / m[k])
    d[0] = _end_slope(h[0], h[1], m[0], m[1])
    d[-1] = _end_slope(h[-1], h[-2], m[-1], m[-2])
    return d


def _hermite_antiderivative(t, h, y0, y1, d0, d1):
    """The integral over [0, t*h] of the cubic Hermite piece with ends (y0, d0), (y1, d1)."""
    t2, t3, t4 = t * t, t ** 3, t ** 4
    return h * (y0 * (t - t3 + t4 / 2) + h * d0 * (t4 / 4 - 2 * t3 / 3 + t2 / 2)
                + y1 * (t3 - t4 / 2) + h * d1 * (t4 / 4 - t3 / 3))


def pchip_integral(x, y, lo, hi):
    """The exact integral of the PCHIP through (x, y) from lo to hi, within [x[0], x[-1]]."""
    d = pchip_slopes(x, y)
    total = 0.0
    for k in range(len(x) - 1):
        a, b = max(lo, x[k]), min(hi, x[k + 1])
        if a >= b:
            continue
        h = x[k + 1] - x[k]
        piece = (h, y[k], y[k + 1], d[k], d[k + 1])
        total += (_hermite_antiderivative((b - x[k]) / h, *piece)
                  - _hermite_antiderivative((a - x[k]) / h, *piece))
    return total


def _curve(points, name):
    """(vmaf list, log10 bitrate list) of a rising curve, or BDRateError naming the problem."""
    points = sorted((float(r), float(q)) for r, q in points)
    if len(points) < MIN_POINTS:
        raise BDRateError(f"the {name} has {len(points)} point{'s' if len(points) != 1 else ''}; "
                          f"BD-rate needs at least {MIN_POINTS}")
    for rate, quality in points:
        if not (rate > 0 and math.isfinite(rate) and math.isfinite(quality)):
            raise BDRateError(f"the {name} has a point of bitrate {rate:g} kbit/s and vmaf "
                              f"{quality:g}; bitrates must be positive, both finite")
    for (r0, q0), (r1, q1) in zip(points, points[1:]):
        if r1 == r0 or q1 <= q0:
            raise BDRateError(f"the {name} does not rise: {r0:g} kbit/s has vmaf {q0:g}, "
                              f"{r1:g} kbit/s has {q1:g}; BD-rate needs vmaf strictly increasing "
                              "with bitrate (take the convex hull)")
    return [q for _, q in points], [math.log10(r) for r, _ in points]


def bd_rate(anchor, test, names=("anchor", "ladder")):
    """The BD-rate of `test` against `anchor`, each a sequence of (bitrate, vmaf) pairs.

    Raises BDRateError, whose message names the curve (`names`) and the problem.
    """
    qa, la = _curve(anchor, names[0])
    qt, lt = _curve(test, names[1])
    lo, hi = max(qa[0], qt[0]), min(qa[-1], qt[-1])
    if hi <= lo:
        raise BDRateError(f"no overlap: the {names[0]} spans vmaf {qa[0]:g} to {qa[-1]:g}, the "
                          f"{names[1]} {qt[0]:g} to {qt[-1]:g}; BD-rate compares bitrates over "
                          "the vmaf range both cover")
    mean = (pchip_integral(qt, lt, lo, hi) - pchip_integral(qa, la, lo, hi)) / (hi - lo)
    return BDRate((10 ** mean - 1) * 100, lo, hi, len(qa), len(qt))
