"""The score sets (a plan's `metrics`): reading a log of the ctc set, whose psnr_hvs and ciede2000
are null (+infinity) on identical frames, and the summary's columns and values for each set. Pure
Python, no ffmpeg."""

import csv
import json
import math
import os

from common import FIXTURES, TempDirTestCase
from vmafhip_ladder import summary, vmaflog

GOLDEN = os.path.join(FIXTURES, "golden")
CTC_MEANS = ("psnr_y_mean", "psnr_cb_mean", "psnr_cr_mean", "float_ssim_mean", "float_ms_ssim_mean",
             "psnr_hvs_mean", "psnr_hvs_y_mean", "psnr_hvs_cb_mean", "psnr_hvs_cr_mean",
             "ciede2000_mean")
INFINITE = ("psnr_hvs_mean", "psnr_hvs_y_mean", "psnr_hvs_cb_mean", "psnr_hvs_cr_mean",
            "ciede2000_mean")


def ctc_log(folder, pair):
    """A log of the ctc set for the natural1 pair `pair` ('ref' or 'x264crf38'): libvmaf's golden
    of the CTC extractors with the default set's scores (vmaf, psnr, float_ssim) added to it."""
    with open(os.path.join(GOLDEN, f"natural1_576x324_yuv420p__ref_vs_{pair}.ctc.json")) as f:
        log = json.load(f)
    with open(os.path.join(GOLDEN, f"natural1_576x324_yuv420p__ref_vs_{pair}.json")) as f:
        default = json.load(f)
    for entry, other in zip(log["frames"], default["frames"]):
        entry["metrics"].update(other["metrics"])
    log["pooled_metrics"].update(default["pooled_metrics"])
    path = os.path.join(folder, f"{pair}.json")
    with open(path, "w") as f:
        json.dump(log, f)
    return path, log


class ReadingLogs(TempDirTestCase):
    def test_null_is_infinity_for_psnr_hvs_and_ciede2000(self):
        path, log = ctc_log(self.tmp, "ref")
        self.assertIsNone(log["pooled_metrics"]["ciede2000"]["mean"])
        self.assertIsNone(log["frames"][0]["metrics"]["psnr_hvs_y"])
        per_frame, pooled = vmaflog.read(path, 10, "ctc")
        scores = vmaflog.scores(per_frame, pooled, "ctc")
        for name in INFINITE:
            self.assertEqual(scores[name], math.inf, name)
        self.assertEqual(scores["float_ms_ssim_mean"], 1.0)
        self.assertEqual(scores["psnr_cb_mean"], 60.0)

    def test_finite_values(self):
        path, log = ctc_log(self.tmp, "x264crf38")
        scores = vmaflog.scores(*vmaflog.read(path, 10, "ctc"), "ctc")
        pooled = log["pooled_metrics"]
        for column in CTC_MEANS:
            self.assertEqual(scores[column], pooled[column[:-len("_mean")]]["mean"], column)
        self.assertEqual(scores["ciede2000_mean"], 34.146554)

    def test_null_elsewhere_and_missing_scores_are_errors(self):
        path, log = ctc_log(self.tmp, "x264crf38")
        log["frames"][3]["metrics"]["float_ms_ssim"] = None
        with open(path, "w") as f:
            json.dump(log, f)
        with self.assertRaisesRegex(vmaflog.LogError, "lacks an expected score"):
            vmaflog.read(path, 10, "ctc")
        # A log of the default set lacks the ctc scores: it does not do for a ctc summary.
        default = os.path.join(GOLDEN, "natural1_576x324_yuv420p__ref_vs_x264crf38.json")
        vmaflog.read(default, 10, "default")
        with self.assertRaisesRegex(vmaflog.LogError, "lacks an expected score .*float_ms_ssim"):
            vmaflog.read(default, 10, "ctc")

    def test_frames_too_small_for_ms_ssim(self):
        self.assertIsNone(vmaflog.frame_problem("ctc", 176, 176, "yuv420p"))
        self.assertIsNone(vmaflog.frame_problem("default", 64, 64, "yuv420p"))
        self.assertIn("175x176 frames are too small for metrics 'ctc': float_ms_ssim (MS-SSIM) needs "
                      "at least 176x176", vmaflog.frame_problem("ctc", 175, 176, "yuv444p"))
        self.assertIsNotNone(vmaflog.frame_problem("ctc", 1920, 100, "yuv420p"))

    def test_formats_ciede_and_psnr_hvs_refuse(self):
        # libvmaf's ciede: 4:2:0 with even sizes or 4:4:4; psnr_hvs: up to 12 bits.
        for fmt in ("yuv420p", "yuv420p10le", "yuv444p12le", "nv12", "p010le", "yuvj420p"):
            self.assertIsNone(vmaflog.frame_problem("ctc", 1920, 1080, fmt), fmt)
        for fmt in ("yuv422p", "yuv422p10le", "gray", "gray10le", "p210le"):
            self.assertIn("ciede (CIEDE2000) needs 4:2:0 or 4:4:4 colour",
                          vmaflog.frame_problem("ctc", 1920, 1080, fmt), fmt)
        self.assertIn("1921x1080 4:2:0 frames cannot be scored with metrics 'ctc': ciede (CIEDE2000) "
                      "needs an even width and height", vmaflog.frame_problem("ctc", 1921, 1080, "yuv420p"))
        self.assertIsNone(vmaflog.frame_problem("ctc", 1921, 1081, "yuv444p"))
        for fmt in ("yuv420p16le", "yuv444p16le", "p016le"):
            self.assertIn("psnr_hvs (PSNR-HVS) takes up to 12 bits", vmaflog.frame_problem("ctc", 1920, 1080, fmt), fmt)
        # The default set has none of these limits; a format this module does not know is left to
        # the filter.
        for fmt in ("yuv422p", "gray16le", "yuv420p16le"):
            self.assertIsNone(vmaflog.frame_problem("default", 1921, 1081, fmt), fmt)
        self.assertIsNone(vmaflog.frame_problem("ctc", 1920, 1080, "rgb24"))


class SummaryColumns(TempDirTestCase):
    def rows(self, metrics):
        result = {"ok": True, "width": 576, "height": 324, "frames": 10, "bitrate_kbps": 100.0,
                  "decode": "cpu"}
        rows = []
        for pair in ("ref", "x264crf38"):
            per_frame, pooled = vmaflog.read(ctc_log(self.tmp, pair)[0], 10, metrics)
            rows.append(summary.row(pair, {**result, "scores": vmaflog.scores(per_frame, pooled, metrics)},
                                    metrics))
        rows.append(summary.row("lost", {"ok": False, "error": "rendition not found"}, metrics))
        return rows

    def test_columns_follow_the_set(self):
        self.assertEqual(summary.columns("default")[9:13],
                         ("vmaf_min", "psnr_y_mean", "float_ssim_mean", "on_hull"))
        ctc = summary.columns("ctc")
        self.assertEqual(ctc[:10], summary.columns("default")[:10])
        self.assertEqual(ctc[10:-5], CTC_MEANS)
        self.assertEqual(ctc[-5:], ("on_hull", "bd_rate_pct", "decode", "status", "error"))

    def test_default_summary_has_no_ctc_columns(self):
        rows = self.rows("default")
        summary.write(self.tmp, "t", rows, "default", summary.rate_quality(rows))
        with open(os.path.join(self.tmp, "summary.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["metrics"], "default")
        self.assertNotIn("ciede2000_mean", doc["columns"])
        self.assertEqual(list(doc["renditions"][0]), doc["columns"])

    def test_infinity_is_null_in_json_and_inf_in_csv(self):
        rows = self.rows("ctc")
        summary.write(self.tmp, "t", rows, "ctc", summary.rate_quality(rows))
        with open(os.path.join(self.tmp, "summary.json")) as f:
            doc = json.load(f)
        self.assertEqual(doc["metrics"], "ctc")
        self.assertEqual(doc["columns"], list(summary.columns("ctc")))
        same, crf, lost = doc["renditions"]
        for row in doc["renditions"]:
            self.assertEqual(list(row), doc["columns"])
        self.assertEqual(same["status"], "ok")
        for column in INFINITE:
            self.assertIsNone(same[column], column)
            self.assertIsNone(lost[column], column)
        self.assertEqual((same["float_ms_ssim_mean"], same["psnr_cr_mean"]), (1.0, 60.0))
        self.assertEqual(crf["psnr_hvs_mean"], 29.654562)
        with open(os.path.join(self.tmp, "summary.csv")) as f:
            table = list(csv.DictReader(f))
        self.assertEqual(list(table[0]), doc["columns"])
        for column in INFINITE:
            self.assertEqual((table[0][column], table[2][column]), ("inf", ""), column)
            self.assertEqual(float(table[1][column]), crf[column], column)
        self.assertEqual(float(table[0]["psnr_hvs_mean"]), math.inf)
