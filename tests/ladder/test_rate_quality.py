"""The rate-quality analysis: convex hull, PCHIP BD-rate, vmaf percentiles, the summary's new
columns, the plan's anchor. Pure Python, no ffmpeg."""

import csv
import json
import math
import os
import random
import unittest

from common import EXAMPLE_PLAN, NATURAL1, TempDirTestCase, write_plan
from vmafhip_ladder import plan, plots, summary, vmaflog
from vmafhip_ladder.errors import PlanError
from vmafhip_ladder.ratequality import (BDRateError, bd_rate, convex_hull, pchip_integral,
                                        pchip_slopes)

# JCTVC-E137's test data, (kbit/s, PSNR-Y): anchor and test of two sequences, and their BD-rates
# (fractions) as Netflix vmaf's BD-rate test gives them from the JCT-VC spreadsheet's method.
E137 = (
    ([(108048.8736, 43.6471), (61279.976, 40.3953), (33905.6656, 37.247), (18883.6928, 34.2911)],
     [(108061.2784, 43.6768), (61299.9936, 40.4232), (33928.7472, 37.2761), (18910.912, 34.3147)],
     -0.00465215420752807),
    ([(40433.8848, 37.5761), (7622.7456, 35.3756), (2394.488, 33.8977), (1017.6184, 32.0603)],
     [(40370.12, 37.5982), (7587.0024, 35.4025), (2390.0944, 33.9194), (1017.0984, 32.0822)],
     -0.018779823450567612),
)


def hull(points):
    return convex_hull((r, q, (r, q)) for r, q in points)


class ConvexHull(unittest.TestCase):
    def test_below_a_chord_is_off(self):
        self.assertEqual(hull([(1000, 50), (2000, 60), (3000, 80)]), [(1000, 50), (3000, 80)])

    def test_linear_bitrate_axis(self):
        # On the chord's linear mix 60 < 62: on the hull; a log-rate hull would drop it (65 > 62).
        self.assertEqual(hull([(1000, 50), (2000, 62), (4000, 80)]),
                         [(1000, 50), (2000, 62), (4000, 80)])

    def test_on_a_chord_is_on(self):
        self.assertEqual(hull([(1000, 50), (2000, 60), (3000, 70)]),
                         [(1000, 50), (2000, 60), (3000, 70)])

    def test_dominated_points_are_off(self):
        self.assertEqual(hull([(1000, 80), (2000, 70), (3000, 80)]), [(1000, 80)])
        self.assertEqual(hull([(1000, 70), (1000, 75), (500, 40)]), [(500, 40), (1000, 75)])

    def test_unusable_points_are_left_out(self):
        self.assertEqual(hull([(0, 50), (-1, 60), (math.nan, 70), (100, math.inf), (100, 40)]),
                         [(100, 40)])
        self.assertEqual(hull([]), [])

    def test_order_does_not_matter(self):
        points = [(400, 55), (900, 68), (1500, 80), (1600, 74), (3000, 86), (3000, 90),
                  (4500, 91), (6000, 95), (8000, 94.5), (2200, 82)]
        expected = [(400, 55), (900, 68), (1500, 80), (3000, 90), (6000, 95)]
        rng = random.Random(1)
        for _ in range(20):
            rng.shuffle(points)
            self.assertEqual(hull(points), expected)


def hermite(x, y, d, t):
    """The PCHIP at t, from the Hermite basis (independent of the integral's antiderivative)."""
    k = max(i for i in range(len(x) - 1) if x[i] <= t)
    h = x[k + 1] - x[k]
    s = (t - x[k]) / h
    return ((2 * s**3 - 3 * s**2 + 1) * y[k] + (s**3 - 2 * s**2 + s) * h * d[k]
            + (-2 * s**3 + 3 * s**2) * y[k + 1] + (s**3 - s**2) * h * d[k + 1])


class Pchip(unittest.TestCase):
    X, Y = [0.0, 1.0, 3.0], [0.0, 1.0, 1.5]

    def test_slopes_by_hand(self):
        # Interior: weights 2*2+1 = 5 and 2+2*1 = 4 on the secants 1 and 0.25: 9 / (5/1 + 4/0.25).
        # Left end: ((2+2)*1 - 0.25) / 3 = 1.25. Right end: ((4+1)*0.25 - 2*1) / 3 < 0, so 0.
        for got, want in zip(pchip_slopes(self.X, self.Y), [1.25, 3 / 7, 0.0]):
            self.assertAlmostEqual(got, want, places=15)
        # An end slope over three times its secant, beside an extremum, is cut to three times it.
        self.assertEqual([round(v, 12) for v in pchip_slopes([0, 1, 1.1], [0, 1, 0])], [3, 0, -11])
        self.assertEqual(pchip_slopes([1, 3], [2, 3]), [0.5, 0.5])  # two points: a line

    def test_integral_by_hand(self):
        # Per piece h*(y0+y1)/2 + h^2*(d0-d1)/12: 1/2 + (1.25-3/7)/12, then 2.5 + 4*(3/7)/12.
        self.assertAlmostEqual(pchip_integral(self.X, self.Y, 0, 3), 3 + 71 / 336, places=14)

    def test_partial_integral_against_simpson(self):
        # Simpson's rule is exact for cubics: per piece it checks the exact integral.
        d = pchip_slopes(self.X, self.Y)
        for lo, hi in ((0.25, 2.5), (1.5, 3.0), (0.1, 0.7)):
            cuts = sorted({lo, hi} | {x for x in self.X if lo < x < hi})
            simpson = sum((b - a) / 6 * (hermite(self.X, self.Y, d, a)
                                         + 4 * hermite(self.X, self.Y, d, (a + b) / 2)
                                         + hermite(self.X, self.Y, d, b))
                          for a, b in zip(cuts, cuts[1:]))
            self.assertAlmostEqual(pchip_integral(self.X, self.Y, lo, hi), simpson, places=12)


class BDRate(unittest.TestCase):
    ANCHOR = [(9487.76, 40.037), (4593.60, 38.615), (2486.44, 36.845), (1358.24, 34.851)]

    def test_identical_curves(self):
        found = bd_rate(self.ANCHOR, list(reversed(self.ANCHOR)))
        self.assertEqual(found.percent, 0.0)
        self.assertEqual((found.vmaf_low, found.vmaf_high), (34.851, 40.037))
        self.assertEqual((found.anchor_points, found.test_points), (4, 4))

    def test_constant_rate_factor(self):
        for factor, percent in ((0.8, -20.0), (1.25, 25.0), (0.5, -50.0)):
            test = [(r * factor, q) for r, q in self.ANCHOR]
            self.assertAlmostEqual(bd_rate(self.ANCHOR, test).percent, percent, places=9)

    def test_log_rate_linear_in_quality(self):
        # log10 rate = 2 + 0.02 q (anchor) and 1.9 + 0.022 q (test): PCHIP keeps lines, so the
        # mean difference over q in [35, 60] is -0.1 + 0.002 * 47.5 = -0.005 exactly.
        anchor = [(10 ** (2 + 0.02 * q), q) for q in (30, 40, 50, 60)]
        test = [(10 ** (1.9 + 0.022 * q), q) for q in (35, 45, 55, 65)]
        found = bd_rate(anchor, test)
        self.assertAlmostEqual(found.percent, (10 ** -0.005 - 1) * 100, places=10)
        self.assertEqual((found.vmaf_low, found.vmaf_high), (35, 60))

    def test_jctvc_e137(self):
        for anchor, test, fraction in E137:
            self.assertAlmostEqual(bd_rate(anchor, test).percent, fraction * 100, places=10)

    def test_two_points(self):
        found = bd_rate([(1000, 50), (4000, 80)], [(800, 50), (3200, 80)])
        self.assertAlmostEqual(found.percent, -20.0, places=10)

    def test_what_cannot_be_computed(self):
        two = [(1000, 50), (4000, 80)]
        cases = (
            ([(1000, 50)], two, "the anchor has 1 point; BD-rate needs at least 2"),
            (two, [], "the ladder has 0 points"),
            ([(1000, 50), (2000, 45)], two,
             "the anchor does not rise: 1000 kbit/s has vmaf 50, 2000 kbit/s has 45"),
            (two, [(1000, 50), (1000, 60)], "the ladder does not rise"),
            ([(0, 50), (2000, 60)], two, "bitrates must be positive"),
            (two, [(5000, 85), (9000, 95)],
             "no overlap: the anchor spans vmaf 50 to 80, the ladder 85 to 95"),
            (two, [(5000, 80), (9000, 95)], "no overlap"),
        )
        for anchor, test, message in cases:
            with self.assertRaises(BDRateError) as caught:
                bd_rate(anchor, test)
            self.assertIn(message, str(caught.exception))


class Percentiles(unittest.TestCase):
    def test_linear_interpolation(self):
        values = [7.0, 3.0, 10.0, 1.0, 5.0, 2.0, 9.0, 4.0, 8.0, 6.0]
        for p, want in ((0, 1.0), (1, 1.09), (5, 1.45), (50, 5.5), (100, 10.0), (99, 9.91)):
            self.assertAlmostEqual(vmaflog.percentile(values, p), want, places=12)
        self.assertEqual(vmaflog.percentile([42.5], 5), 42.5)

    def test_scores(self):
        pooled = {"vmaf": {"mean": 80.0, "harmonic_mean": 79.0}, "psnr_y": {"mean": 40.0},
                  "float_ssim": {"mean": 0.99}}
        per_frame = [90.0, 70.0, 80.0, 100.0, 60.0]
        got = vmaflog.scores(per_frame, pooled, "default")
        # Sorted 60, 70, 80, 90, 100 at ranks 0..4: the 1st percentile is at 0.04, the 5th at 0.2.
        self.assertEqual((got["vmaf_p1"], got["vmaf_p5"], got["vmaf_min"]), (60.4, 62.0, 60.0))


def scored(name, size, kbps, vmaf):
    width, height = map(int, size.split("x"))
    scores = {"vmaf_mean": vmaf, "vmaf_harmonic_mean": vmaf, "vmaf_1pct_low": vmaf,
              "vmaf_p1": vmaf, "vmaf_p5": vmaf, "vmaf_min": vmaf, "psnr_y_mean": 40.0,
              "float_ssim_mean": 0.99}
    return summary.row(name, {"ok": True, "width": width, "height": height, "frames": 10,
                              "bitrate_kbps": kbps, "scores": scores}, "default")


def ladder_rows():
    return [scored("1080a", "1920x1080", 3000, 90.0), scored("1080b", "1920x1080", 6000, 95.0),
            scored("720a", "1280x720", 1500, 80.0), scored("720b", "1280x720", 3000, 86.0),
            scored("360", "640x360", 500, 60.0),
            summary.row("lost", {"ok": False, "error": "rendition not found"}, "default")]


class Summary(TempDirTestCase):
    ANCHOR = ("x264", [(400, 55.0), (1000, 70.0), (3000, 85.0), (7000, 94.0)])

    def test_hull_and_bd_rate(self):
        rows = ladder_rows()
        analysis = summary.rate_quality(rows, self.ANCHOR)
        self.assertEqual(analysis["hull"], ["360", "720a", "1080a", "1080b"])
        self.assertEqual([r["on_hull"] for r in rows], [True, True, True, False, True, None])
        want = bd_rate(self.ANCHOR[1], [(500, 60.0), (1500, 80.0), (3000, 90.0), (6000, 95.0)])
        self.assertEqual(analysis["bd_rate"], {
            "anchor": "x264", "percent": round(want.percent, 4), "vmaf_low": 60.0,
            "vmaf_high": 94.0, "anchor_points": 4, "ladder_points": 4, "error": None})
        self.assertEqual(analysis["bd_rate"]["percent"], -23.498)
        self.assertEqual({r["bd_rate_pct"] for r in rows}, {-23.498})
        self.assertEqual(summary.describe("movie", analysis),
                         "movie: convex hull 360, 720a, 1080a, 1080b; BD-rate -23.50 % against "
                         "x264 (vmaf 60.00 to 94.00, 4 and 4 points)")

        summary.write(self.tmp, "movie", rows, "default", analysis)
        with open(os.path.join(self.tmp, "summary.csv")) as f:
            table = list(csv.DictReader(f))
        for column in ("vmaf_p1", "vmaf_p5", "vmaf_min", "on_hull", "bd_rate_pct"):
            self.assertIn(column, table[0])
        self.assertEqual([r["on_hull"] for r in table], ["true", "true", "true", "false", "true", ""])
        self.assertEqual(table[0]["bd_rate_pct"], "-23.498")
        with open(os.path.join(self.tmp, "summary.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["hull"], analysis["hull"])
        self.assertEqual(doc["bd_rate"], analysis["bd_rate"])
        self.assertEqual(doc["columns"], list(summary.columns("default")))

    def test_without_anchor_or_overlap(self):
        rows = ladder_rows()
        analysis = summary.rate_quality(rows)
        self.assertIsNone(analysis["bd_rate"])
        self.assertEqual(summary.describe("movie", analysis), "movie: convex hull 360, 720a, 1080a, 1080b")
        analysis = summary.rate_quality(rows, ("hevc", [(100, 10.0), (200, 20.0)]))
        self.assertIsNone(analysis["bd_rate"]["percent"])
        self.assertIn("no overlap: the anchor hevc spans vmaf 10 to 20, the ladder's convex hull "
                      "60 to 95", analysis["bd_rate"]["error"])
        self.assertEqual({r["bd_rate_pct"] for r in rows}, {None})
        self.assertIn("; no BD-rate against hevc: no overlap", summary.describe("movie", analysis))
        failed = [summary.row("lost", {"ok": False, "error": "x"}, "default")]
        analysis = summary.rate_quality(failed, ("hevc", [(100, 10.0), (200, 20.0)]))
        self.assertEqual(analysis["hull"], [])
        self.assertIn("the ladder's convex hull has 0 points", analysis["bd_rate"]["error"])
        self.assertTrue(summary.describe("t", analysis).startswith("t: convex hull empty"))

    def test_plot(self):
        rows = [r for r in ladder_rows() if r["status"] == "ok"]
        summary.rate_quality(rows, self.ANCHOR)
        path = os.path.join(self.tmp, "rate_quality.png")
        plots.rate_quality(path, "movie", rows, self.ANCHOR)
        with open(path, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")


def anchored(anchor, second=False):
    titles = [{"name": "t", "source": dict(NATURAL1), "anchor": anchor,
               "renditions": [{"name": "file", "path": "dis.yuv", "width": 576, "height": 324}]}]
    if second:
        titles.append({"name": "u", "source": dict(NATURAL1),
                       "renditions": [{"name": "f", "path": "d.yuv", "width": 576, "height": 324}]})
    return {"output": "out", "titles": titles}


class PlanAnchor(TempDirTestCase):
    def load(self, doc):
        return plan.load(write_plan(self.tmp, doc))

    def test_points_and_title(self):
        points = [{"bitrate_kbps": 3000, "vmaf": 90}, {"bitrate_kbps": 800.5, "vmaf": 70.25}]
        a = self.load(anchored({"points": points, "label": "x264 2023"})).titles[0].anchor
        self.assertEqual((a.label, a.points, a.title), ("x264 2023", ((800.5, 70.25), (3000.0, 90.0)), None))
        self.assertEqual(self.load(anchored({"points": points})).titles[0].anchor.label, "anchor")
        a = self.load(anchored({"title": "u"}, second=True)).titles[0].anchor
        self.assertEqual((a.label, a.points, a.title), ("u", None, "u"))
        self.assertIsNone(self.load(anchored({"title": "u"}, second=True)).titles[1].anchor)

    def test_example_plan(self):
        example = os.path.join(os.path.dirname(EXAMPLE_PLAN), "x264.yaml")
        anchor = plan.load(example, self.tmp).titles[0].anchor
        self.assertEqual((anchor.label, anchor.points),
                         ("last year's ladder", ((900.0, 63.5), (2800.0, 84.0), (5000.0, 92.5))))

    def assertPlanError(self, doc, *fragments):
        with self.assertRaises(PlanError) as caught:
            self.load(doc)
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))

    def test_bad_anchors(self):
        p = [{"bitrate_kbps": 1000, "vmaf": 60}, {"bitrate_kbps": 2000, "vmaf": 70}]
        where = "titles[0].anchor"
        self.assertPlanError(anchored([1, 2]), f"{where}: expected a mapping with keys label, points, title")
        self.assertPlanError(anchored({"points": p, "lable": "x"}),
                             f"{where}: unknown key lable; accepted: label, points, title")
        self.assertPlanError(anchored({"label": "x"}), f"{where}: give either 'points'", "not neither")
        self.assertPlanError(anchored({"points": p, "title": "u"}, True), "not both")
        self.assertPlanError(anchored({"points": p[:1]}),
                             f"{where}.points: expected at least 2 points, got 1")
        self.assertPlanError(anchored({"points": "1000:60"}), f"{where}.points: expected a non-empty list")
        self.assertPlanError(anchored({"points": [p[0], {"bitrate_kbps": 3000}]}),
                             f"{where}.points[1]: missing key 'vmaf'")
        self.assertPlanError(anchored({"points": [p[0], {"bitrate_kbps": 3000, "vmaf": 80, "psnr": 1}]}),
                             f"{where}.points[1]: unknown key psnr; accepted: bitrate_kbps, vmaf")
        for bad, place, what in (({"bitrate_kbps": 0, "vmaf": 80}, "bitrate_kbps", "above 0, got 0"),
                                 ({"bitrate_kbps": "3M", "vmaf": 80}, "bitrate_kbps", "got '3M'"),
                                 ({"bitrate_kbps": True, "vmaf": 80}, "bitrate_kbps", "got True"),
                                 ({"bitrate_kbps": 3000, "vmaf": 100.5}, "vmaf", "from 0 to 100, got 100.5"),
                                 ({"bitrate_kbps": 3000, "vmaf": None}, "vmaf", "got nothing")):
            self.assertPlanError(anchored({"points": [p[0], bad]}), f"{where}.points[1].{place}: expected", what)
        self.assertPlanError(anchored({"points": [p[1], {"bitrate_kbps": 3000, "vmaf": 65}, p[0]]}),
                             f"{where}.points[1].vmaf: 65 at 3000 kbit/s is not above points[0]'s 70 "
                             "at 2000 kbit/s: vmaf must rise with bitrate")
        self.assertPlanError(anchored({"points": [p[0], p[1], {"bitrate_kbps": 1000, "vmaf": 65}]}),
                             f"{where}.points[2].bitrate_kbps: 1000 kbit/s is points[0]'s too")
        self.assertPlanError(anchored({"title": "t"}), f"{where}.title: 't' is this title itself")
        self.assertPlanError(anchored({"title": "v"}, True),
                             f"{where}.title: 'v' is not a title of this plan (titles: t, u)")
        self.assertPlanError(anchored({"title": "a/b"}), f"{where}.title: 'a/b' is not accepted")
        self.assertPlanError(anchored({"points": p, "label": ""}), f"{where}.label: expected a non-empty string")


if __name__ == "__main__":
    unittest.main()
