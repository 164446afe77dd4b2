"""Scoring ladders on a local 2-worker CPU cluster: numbers, summaries, plots, re-runs, failures."""

import csv
import math
import os
import shutil
import subprocess
import unittest
from unittest import mock

import dask.config
from common import (EXAMPLE_PLAN, FFMPEG, LAUNCHER, NATURAL1, NATURAL1_FRAMES, NATURAL5,
                    TempDirTestCase, closing_cluster, golden, ladder_plan, needs_ffmpeg, read_json,
                    run_plan, start_cluster, write_plan)
from vmafhip_ladder import placement, ratequality, vmaflog

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CLUSTER = None


def setUpModule():
    global CLUSTER
    if os.environ.get("VMAFHIP_TEST_FFMPEG"):
        CLUSTER = start_cluster(2)


def tearDownModule():
    if CLUSTER is not None:
        CLUSTER[1].close()
        CLUSTER[0].close()


def client():
    return CLUSTER[1]


def by_name(summary):
    return {row["rendition"]: row for row in summary["renditions"]}


def assert_plots(test, folder):
    """Both plots of the title in `folder` are PNG files."""
    for png in ("rate_quality.png", "vmaf_frames.png"):
        with open(os.path.join(folder, png), "rb") as f:
            test.assertEqual(f.read(8), PNG_MAGIC, png)


@needs_ffmpeg
class Ladder(TempDirTestCase):
    def run_ladder(self, doc=None, ffmpeg=None):
        out = os.path.join(self.tmp, "out")
        return out, run_plan(client(), write_plan(self.tmp, doc or ladder_plan(out)), ffmpeg)

    def test_workers_are_cpu_pinned(self):
        self.assertEqual(set(client().run(placement.from_environ).values()), {("cpu", 0)})

    def test_scheduler_and_workers_leave_nvml_alone(self):
        key = "distributed.diagnostics.nvml"
        self.assertFalse(client().run_on_scheduler(dask.config.get, key))
        self.assertEqual(set(client().run(dask.config.get, key).values()), {False})

    def test_scores_summary_and_plots(self):
        out = os.path.join(self.tmp, "out")
        doc = ladder_plan(out)
        anchor = [(2000.0, 70.0), (80000.0, 100.0)]
        doc["titles"][0]["anchor"] = {"label": "raw", "points": [
            {"bitrate_kbps": rate, "vmaf": vmaf} for rate, vmaf in anchor]}
        doc["titles"][1]["anchor"] = {"title": "natural1"}
        out, (_, report) = self.run_ladder(doc)
        self.assertEqual(report.counts(), {"scored": 4, "reused": 0, "failed": 0})
        folder = os.path.join(out, "natural1")
        summary = read_json(os.path.join(folder, "summary.json"))
        rows = by_name(summary)
        self.assertEqual(list(rows), ["same", "crf38", "288p"])

        # A rendition identical to its source: libvmaf's values for identical frames.
        same = golden("natural1_576x324_yuv420p__ref_vs_ref.json")
        self.assertEqual(rows["same"]["vmaf_mean"], same["vmaf"]["mean"])
        self.assertEqual(rows["same"]["vmaf_mean"], 99.742822)
        self.assertEqual(rows["same"]["psnr_y_mean"], 60.0)
        self.assertEqual(rows["same"]["float_ssim_mean"], 1.0)
        # An existing distorted rendition at the source's size: libvmaf's golden scores.
        crf = golden("natural1_576x324_yuv420p__ref_vs_x264crf38.json")
        self.assertEqual(rows["crf38"]["vmaf_mean"], crf["vmaf"]["mean"])
        self.assertEqual(rows["crf38"]["vmaf_harmonic_mean"], crf["vmaf"]["harmonic_mean"])
        self.assertEqual(rows["crf38"]["psnr_y_mean"], crf["psnr_y"]["mean"])
        self.assertEqual(rows["crf38"]["float_ssim_mean"], crf["float_ssim"]["mean"])

        for name, row in rows.items():
            log = read_json(os.path.join(folder, f"{name}.json"))
            vmaf = [frame["metrics"]["vmaf"] for frame in log["frames"]]
            self.assertEqual(len(vmaf), NATURAL1_FRAMES)
            self.assertEqual(row["frames"], NATURAL1_FRAMES)
            # The log prints 6 decimals; its pooled mean is of the unrounded values.
            self.assertAlmostEqual(row["vmaf_mean"], sum(vmaf) / len(vmaf), delta=1e-6)
            self.assertAlmostEqual(row["vmaf_harmonic_mean"],
                                   len(vmaf) / sum(1 / (v + 1) for v in vmaf) - 1, delta=1e-6)
            self.assertEqual(row["vmaf_1pct_low"], min(vmaf))  # 1% of 10 frames: the worst one
            self.assertEqual(row["vmaf_min"], min(vmaf))
            worst = sorted(vmaf)[:2]  # the 1st and 5th percentiles are 0.09 and 0.45 of the way
            self.assertAlmostEqual(row["vmaf_p1"], worst[0] + 0.09 * (worst[1] - worst[0]), delta=1e-6)
            self.assertAlmostEqual(row["vmaf_p5"], worst[0] + 0.45 * (worst[1] - worst[0]), delta=1e-6)
            self.assertEqual(row["vmaf_p5"], round(vmaflog.percentile(vmaf, 5), 6))
            self.assertEqual(row["status"], "ok")
        raw_kbps = 576 * 324 * 1.5 * 8 * 25 / 1000
        self.assertEqual(rows["same"]["bitrate_kbps"], raw_kbps)
        self.assertEqual(rows["288p"]["size"], "288x162")
        y4m = os.path.getsize(os.path.join(folder, "288p.y4m"))
        self.assertEqual(rows["288p"]["bitrate_kbps"], round(y4m * 8 / 0.4 / 1000, 3))
        self.assertTrue(80 < rows["288p"]["vmaf_mean"] < rows["same"]["vmaf_mean"])

        # The hull: 288p, then 'same' (crf38 is as large a raw file and scores lower).
        self.assertEqual(summary["hull"], ["288p", "same"])
        self.assertEqual([rows[n]["on_hull"] for n in ("same", "crf38", "288p")], [True, False, True])
        hull = [(rows[n]["bitrate_kbps"], rows[n]["vmaf_mean"]) for n in ("288p", "same")]
        bd = ratequality.bd_rate(anchor, hull)
        self.assertEqual(summary["bd_rate"], {
            "anchor": "raw", "percent": round(bd.percent, 4), "vmaf_low": rows["288p"]["vmaf_mean"],
            "vmaf_high": 99.742822, "anchor_points": 2, "ladder_points": 2, "error": None})
        self.assertEqual(report.titles["natural1"], {"hull": summary["hull"], "bd_rate": summary["bd_rate"]})
        # natural5's anchor is natural1's hull; its own hull has one rendition only.
        bd5 = read_json(os.path.join(out, "natural5", "summary.json"))["bd_rate"]
        self.assertEqual((bd5["anchor"], bd5["percent"], bd5["anchor_points"], bd5["ladder_points"]),
                         ("natural1", None, 2, 1))
        self.assertIn("the ladder's convex hull has 1 point; BD-rate needs at least 2", bd5["error"])

        with open(os.path.join(folder, "summary.csv")) as f:
            table = list(csv.DictReader(f))
        self.assertEqual([r["rendition"] for r in table], ["same", "crf38", "288p"])
        self.assertEqual(float(table[1]["vmaf_mean"]), crf["vmaf"]["mean"])
        self.assertEqual([r["on_hull"] for r in table], ["true", "false", "true"])
        self.assertEqual({float(r["bd_rate_pct"]) for r in table}, {summary["bd_rate"]["percent"]})
        self.assertEqual([float(r["vmaf_p1"]) for r in table], [rows[n]["vmaf_p1"] for n in rows])
        for title in ("natural1", "natural5"):
            assert_plots(self, os.path.join(out, title))
        self.assertEqual(by_name(read_json(os.path.join(out, "natural5", "summary.json")))
                         ["88x72"]["size"], "88x72")
        # Nothing half-written is left behind.
        self.assertEqual([f for f in os.listdir(folder) if f.startswith(".")], [])

    def test_ctc_metrics(self):
        """metrics: ctc adds the common-test-conditions scores: each column is the pooled mean of
        the filter's log, libvmaf's own on the fixture pairs; identical frames give psnr_hvs and
        ciede2000 +infinity (null in the log and summary.json, inf in summary.csv)."""
        out = os.path.join(self.tmp, "out")
        doc = ladder_plan(out)
        doc["metrics"] = "ctc"
        doc["titles"][1]["metrics"] = "default"   # natural5 is 176x144: too small for MS-SSIM
        out, (_, report) = self.run_ladder(doc)
        self.assertEqual(report.counts(), {"scored": 4, "reused": 0, "failed": 0})
        folder = os.path.join(out, "natural1")
        summary = read_json(os.path.join(folder, "summary.json"))
        self.assertEqual(summary["metrics"], "ctc")
        means = [c for c in summary["columns"] if c.endswith("_mean") and not c.startswith("vmaf")]
        self.assertEqual(means, ["psnr_y_mean", "psnr_cb_mean", "psnr_cr_mean", "float_ssim_mean",
                                 "float_ms_ssim_mean", "psnr_hvs_mean", "psnr_hvs_y_mean",
                                 "psnr_hvs_cb_mean", "psnr_hvs_cr_mean", "ciede2000_mean"])
        rows = by_name(summary)
        for name, row in rows.items():
            pooled = read_json(os.path.join(folder, f"{name}.json"))["pooled_metrics"]
            for column in means:
                self.assertEqual(row[column], pooled[column[:-len("_mean")]]["mean"], (name, column))
        crf = golden("natural1_576x324_yuv420p__ref_vs_x264crf38.json")
        crf.update(golden("natural1_576x324_yuv420p__ref_vs_x264crf38.ctc.json"))
        for column in means + ["vmaf_mean"]:
            self.assertEqual(rows["crf38"][column], crf[column[:-len("_mean")]]["mean"], column)
        infinite = ["psnr_hvs_mean", "psnr_hvs_y_mean", "psnr_hvs_cb_mean", "psnr_hvs_cr_mean",
                    "ciede2000_mean"]
        for column in infinite:
            self.assertIsNone(rows["same"][column], column)
        self.assertEqual((rows["same"]["float_ms_ssim_mean"], rows["same"]["psnr_cb_mean"]), (1.0, 60.0))
        self.assertTrue(all(math.isfinite(rows["288p"][c]) for c in infinite))
        self.assertEqual(rows["same"]["vmaf_mean"], 99.742822)
        with open(os.path.join(folder, "summary.csv")) as f:
            table = {r["rendition"]: r for r in csv.DictReader(f)}
        self.assertEqual([table["same"][c] for c in infinite], ["inf"] * len(infinite))
        self.assertEqual(float(table["crf38"]["ciede2000_mean"]), crf["ciede2000"]["mean"])
        assert_plots(self, folder)
        # natural5 keeps the default set's columns.
        natural5 = read_json(os.path.join(out, "natural5", "summary.json"))
        self.assertNotIn("ciede2000_mean", natural5["columns"])

        # A re-run with the set changed scores again: the filter is asked for other extractors.
        doc["metrics"] = "default"
        _, (_, again) = self.run_ladder(doc)
        self.assertEqual(again.counts(), {"scored": 3, "reused": 1, "failed": 0})
        self.assertNotIn("ciede2000_mean", read_json(os.path.join(folder, "summary.json"))["columns"])

    def test_ctc_source_too_small(self):
        """A source under 176x176 with metrics: ctc fails its title's renditions before scoring,
        saying why (a raw source is refused with the plan already)."""
        out = os.path.join(self.tmp, "out")
        small = os.path.join(self.tmp, "natural5.y4m")
        subprocess.run([FFMPEG, "-nostdin", "-v", "error", "-f", "rawvideo", "-video_size", "176x144",
                        "-pixel_format", "yuv444p", "-framerate", "25", "-i", NATURAL5["path"], small],
                       check=True)
        doc = {"output": out, "metrics": "ctc", "titles": [
            {"name": "natural5", "source": small, "renditions": [{"name": "same", "path": small}]}]}
        _, report = run_plan(client(), write_plan(self.tmp, doc))
        result = report.results[("natural5", "same")]
        self.assertFalse(result["ok"])
        self.assertEqual(result["error"], f"source {small}: 176x144 frames are too small for metrics "
                                          "'ctc': float_ms_ssim (MS-SSIM) needs at least 176x176; "
                                          "score this title with metrics 'default'")
        self.assertFalse(os.path.exists(os.path.join(out, "natural5", "same.json")))

    def test_vmaf_v1_model(self):
        """The plan's model is any built-in, the VMAF v1 ones included: libvmaf's scores."""
        out = os.path.join(self.tmp, "out")
        doc = ladder_plan(out)
        doc["model"] = "vmaf_v1.0.16_3d0h"
        doc["titles"] = doc["titles"][:1]
        doc["titles"][0]["renditions"] = doc["titles"][0]["renditions"][:2]
        out, (_, report) = self.run_ladder(doc)
        self.assertEqual(report.counts(), {"scored": 2, "reused": 0, "failed": 0})
        rows = by_name(read_json(os.path.join(out, "natural1", "summary.json")))
        for name, pair in (("same", "ref"), ("crf38", "x264crf38")):
            want = golden(f"natural1_576x324_yuv420p__ref_vs_{pair}.vmaf_v1.0.16_3d0h.fullprec.json")
            self.assertEqual(rows[name]["vmaf_mean"], float("%.6f" % want["vmaf"]["mean"]), name)
            # the ladder pools the log's 6-decimal values itself
            self.assertAlmostEqual(rows[name]["vmaf_harmonic_mean"], want["vmaf"]["harmonic_mean"],
                                   delta=1e-6, msg=name)

    def test_one_worker_and_two_agree(self):
        out2, _ = self.run_ladder()
        out1 = os.path.join(self.tmp, "out1")
        with closing_cluster(1) as one:
            run_plan(one, write_plan(self.tmp, ladder_plan(out1), "plan1.yaml"))
        for title, names in (("natural1", ("same", "crf38", "288p")), ("natural5", ("88x72",))):
            self.assertEqual(read_json(os.path.join(out1, title, "summary.json")),
                             read_json(os.path.join(out2, title, "summary.json")))
            for name in names:
                logs = [read_json(os.path.join(out, title, f"{name}.json")) for out in (out1, out2)]
                self.assertEqual(logs[0]["frames"], logs[1]["frames"])
                self.assertEqual(logs[0]["pooled_metrics"], logs[1]["pooled_metrics"])

    def test_rerun_skips_done_and_redoes_damaged(self):
        out, (_, first) = self.run_ladder()
        folder = os.path.join(out, "natural1")
        summary = read_json(os.path.join(folder, "summary.json"))
        _, (_, again) = self.run_ladder()
        self.assertEqual(again.counts(), {"scored": 0, "reused": 4, "failed": 0})
        self.assertEqual(read_json(os.path.join(folder, "summary.json")), summary)

        # A truncated log (its manifest still there) and a changed encode are redone; not the rest.
        log = os.path.join(folder, "crf38.json")
        with open(log, "r+b") as f:
            f.truncate(os.path.getsize(log) // 2)
        encoded = os.path.join(folder, "288p.y4m")
        os.remove(encoded)
        _, (_, third) = self.run_ladder()
        self.assertEqual(third.counts(), {"scored": 2, "reused": 2, "failed": 0})
        self.assertFalse(third.results[("natural1", "crf38")]["reused"])
        self.assertFalse(third.results[("natural1", "288p")]["reused"])
        self.assertEqual(read_json(os.path.join(folder, "summary.json")), summary)
        self.assertEqual(len(read_json(log)["frames"]), NATURAL1_FRAMES)

        # A log whose manifest is gone is not trusted either.
        os.remove(os.path.join(folder, "same.json.done"))
        _, (_, fourth) = self.run_ladder()
        self.assertEqual(fourth.counts(), {"scored": 1, "reused": 3, "failed": 0})

        # A size the plan now expects is checked again, not taken from the earlier run.
        doc = ladder_plan(out)
        doc["titles"][0]["renditions"][0]["size"] = "640x360"
        _, (_, fifth) = self.run_ladder(doc)
        self.assertEqual(fifth.counts(), {"scored": 0, "reused": 3, "failed": 1})
        self.assertIn("size mismatch", fifth.results[("natural1", "same")]["error"])

    def test_summary_not_written(self):
        """A summary that cannot be written at the end is reported, not raised."""
        out = os.path.join(self.tmp, "out")
        doc = {"output": out, "titles": [{"name": "natural1", "source": NATURAL1, "renditions": [
            {"name": "same", "path": NATURAL1["path"], "width": 576, "height": 324}]}]}
        full = OSError(28, "No space left on device", os.path.join(out, "natural1", "summary.json"))
        with mock.patch("vmafhip_ladder.summary.write", side_effect=full):
            _, report = run_plan(client(), write_plan(self.tmp, doc))
        self.assertEqual(report.counts(), {"scored": 1, "reused": 0, "failed": 0})
        self.assertEqual(report.unwritten, [f"natural1: No space left on device ({out}/natural1/"
                                            "summary.json)"])

    def test_failures_are_reported_and_the_rest_finishes(self):
        out = os.path.join(self.tmp, "out")
        garbage = os.path.join(self.tmp, "garbage.y4m")
        with open(garbage, "wb") as f:
            f.write(b"not a video\n" * 100)
        short = os.path.join(self.tmp, "short.yuv")
        with open(NATURAL1["path"], "rb") as src, open(short, "wb") as dst:
            dst.write(src.read(576 * 324 * 3 // 2 * 4))
        doc = {"output": out, "titles": [{"name": "natural1", "source": NATURAL1, "renditions": [
            {"name": "garbage", "path": garbage},
            {"name": "missing", "path": os.path.join(self.tmp, "none.mkv")},
            {"name": "wrong-size", "path": NATURAL1["path"], "width": 576, "height": 324,
             "size": "640x360"},
            {"name": "short", "path": short, "width": 576, "height": 324},
            {"name": "bad-codec", "size": "288x162", "output": "bad.y4m",
             "ffmpeg_args": ["-c:v", "nosuchcodec"]},
            {"name": "good", "path": NATURAL1["path"], "width": 576, "height": 324},
        ]}]}
        _, report = run_plan(client(), write_plan(self.tmp, doc))
        results = {name: r for (_, name), r in report.results.items()}
        self.assertTrue(results["good"]["ok"])
        self.assertEqual(report.counts()["failed"], 5)
        self.assertIn("reading rendition", results["garbage"]["error"])
        self.assertIn("Invalid magic number", results["garbage"]["detail"])  # ffprobe's stderr
        self.assertIn("rendition not found", results["missing"]["error"])
        self.assertIn("size mismatch", results["wrong-size"]["error"])
        self.assertIn("the plan says 640x360", results["wrong-size"]["error"])
        self.assertIn("frame count mismatch: the rendition has 4 frames, the source 10",
                      results["short"]["error"])
        self.assertIn("encoding bad-codec failed", results["bad-codec"]["error"])
        self.assertIn("nosuchcodec", results["bad-codec"]["detail"])
        rows = by_name(read_json(os.path.join(out, "natural1", "summary.json")))
        self.assertEqual(rows["good"]["status"], "ok")
        self.assertEqual(rows["garbage"]["status"], "failed")
        self.assertIsNone(rows["garbage"]["vmaf_mean"])
        self.assertFalse(os.path.exists(os.path.join(out, "natural1", "bad.y4m")))


@needs_ffmpeg
class ShippedPlan(TempDirTestCase):
    """The example plan in ladder/examples gives the same results on 1 worker and on 2."""

    def run_example(self, cluster_client, name):
        loaded, report = run_plan(cluster_client, EXAMPLE_PLAN, output=os.path.join(self.tmp, name))
        self.assertEqual(report.counts(), {"scored": 3, "reused": 0, "failed": 0})
        return loaded.output

    def test_one_worker_and_two_agree(self):
        two = self.run_example(client(), "two")
        with closing_cluster(1) as one_client:
            one = self.run_example(one_client, "one")
        folder1, folder2 = os.path.join(one, "natural1"), os.path.join(two, "natural1")
        summary = read_json(os.path.join(folder1, "summary.json"))
        self.assertEqual([r["rendition"] for r in summary["renditions"]],
                         ["432x243", "288x162", "x264crf38"])
        self.assertEqual(by_name(summary)["x264crf38"]["vmaf_mean"],
                         golden("natural1_576x324_yuv420p__ref_vs_x264crf38.json")["vmaf"]["mean"])
        self.assertEqual(summary, read_json(os.path.join(folder2, "summary.json")))
        with open(os.path.join(folder1, "summary.csv"), "rb") as a, \
                open(os.path.join(folder2, "summary.csv"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        for folder in (folder1, folder2):
            assert_plots(self, folder)


@needs_ffmpeg
class KilledWorker(TempDirTestCase):
    """A worker dies mid-task (its ffmpeg kills it, once): the task is run again elsewhere."""

    def killing_ffmpeg(self):
        real = os.path.abspath(os.environ["VMAFHIP_TEST_FFMPEG"])
        folder = os.path.join(self.tmp, "bin")
        os.makedirs(folder)
        shutil.copy(os.path.join(os.path.dirname(real), "ffprobe"), folder)
        self.marker = os.path.join(self.tmp, "killed")
        wrapper = os.path.join(folder, "ffmpeg")
        with open(wrapper, "w") as f:
            # mkdir is atomic: exactly one call, the first, kills the worker that started it.
            f.write(f"#!/bin/sh\nif mkdir '{self.marker}' 2>/dev/null; then kill -9 $PPID; sleep 2; "
                    f"exit 1; fi\nexec '{real}' \"$@\"\n")
        os.chmod(wrapper, 0o755)
        return wrapper

    def test_task_is_retried(self):
        out = os.path.join(self.tmp, "out")
        ffmpeg = self.killing_ffmpeg()
        with closing_cluster(2) as two:
            _, report = run_plan(two, write_plan(self.tmp, ladder_plan(out)), ffmpeg)
        self.assertTrue(os.path.isdir(self.marker), "no worker was killed")
        self.assertEqual(report.counts(), {"scored": 4, "reused": 0, "failed": 0})
        rows = by_name(read_json(os.path.join(out, "natural1", "summary.json")))
        self.assertEqual(rows["same"]["vmaf_mean"], 99.742822)
        self.assertTrue(math.isfinite(rows["288p"]["vmaf_mean"]))
        self.assertEqual(len(read_json(os.path.join(out, "natural1", "288p.json"))["frames"]),
                         NATURAL1_FRAMES)


@needs_ffmpeg
class CommandLineRun(TempDirTestCase):
    def test_exit_status_and_report(self):
        out = os.path.join(self.tmp, "out")
        doc = {"output": out, "titles": [{"name": "natural1", "source": NATURAL1, "renditions": [
            {"name": "missing", "path": os.path.join(self.tmp, "none.mkv")},
            {"name": "288p", "size": "288x162", "ffmpeg_args": ["-pix_fmt", "yuv420p"],
             "output": "288p.y4m"}]}]}
        proc = subprocess.run([LAUNCHER, "--ffmpeg", FFMPEG, "--workers", "2", write_plan(self.tmp, doc)],
                              capture_output=True, text=True, timeout=120)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertIn("local cluster: 2 workers, CPU backend", proc.stderr)
        self.assertIn("[##############################] 3/3 tasks, 1 rendition failed", proc.stderr)
        self.assertIn(f"FAILED natural1/missing: rendition not found: {self.tmp}/none.mkv", proc.stderr)
        self.assertIn("2 renditions: 1 scored, 0 already done, 1 failed", proc.stderr)
        self.assertEqual(proc.stdout, "natural1: convex hull 288p\n")
        rows = by_name(read_json(os.path.join(out, "natural1", "summary.json")))
        self.assertEqual((rows["missing"]["status"], rows["288p"]["status"]), ("failed", "ok"))


if __name__ == "__main__":
    unittest.main()
