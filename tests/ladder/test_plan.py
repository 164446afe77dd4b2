"""Plan checking: good plans load as meant, bad ones give one clear line (never a traceback)."""

import json
import os
import subprocess
import sys
import unittest
from unittest import mock

from common import LAUNCHER, NATURAL1, NATURAL5, TempDirTestCase, write_plan
from vmafhip_ladder import plan, runner
from vmafhip_ladder.encode import encode_task
from vmafhip_ladder.errors import PlanError
from vmafhip_ladder.score import score_title

MEGA = 1 << 20


def good_doc():
    return {"output": "out", "titles": [{"name": "t", "source": dict(NATURAL1), "renditions": [
        {"name": "enc", "size": "288x162", "ffmpeg_args": ["-c:v", "libx264", "-crf", 30]},
        {"name": "file", "path": "dis.yuv", "width": 576, "height": 324},
        {"name": "mkv", "path": "dis.mkv", "size": "640x360"},
    ]}]}


class GoodPlans(TempDirTestCase):
    def test_paths_and_defaults(self):
        p = plan.load(write_plan(self.tmp, good_doc()))
        self.assertEqual(p.output, os.path.join(self.tmp, "out"))
        self.assertEqual(p.model, "vmaf_v0.6.1")
        self.assertEqual(p.scale_flags, "bicubic+accurate_rnd+full_chroma_int")
        enc, raw, mkv = p.titles[0].renditions
        self.assertEqual(enc.video.path, os.path.join(self.tmp, "out", "t", "enc.mkv"))
        self.assertEqual(enc.encode.args, ("-c:v", "libx264", "-crf", "30"))
        self.assertEqual((enc.encode.width, enc.encode.height), (288, 162))
        # A raw rendition takes the source's pixel format and rate unless it says otherwise.
        self.assertEqual(raw.video.input_args(), ["-f", "rawvideo", "-video_size", "576x324",
                                                  "-pixel_format", "yuv420p", "-framerate", "25"])
        self.assertEqual(raw.video.path, os.path.join(self.tmp, "dis.yuv"))
        self.assertEqual(mkv.size, (640, 360))
        self.assertEqual(mkv.video.input_args(), [])

    def test_json_and_output_override(self):
        path = write_plan(self.tmp, good_doc(), "plan.json")
        p = plan.load(path, output=os.path.join(self.tmp, "elsewhere"))
        self.assertEqual(p.output, os.path.join(self.tmp, "elsewhere"))

    def test_source_as_plain_path(self):
        doc = good_doc()
        doc["titles"][0]["source"] = "movie.mkv"
        doc["titles"][0]["renditions"] = doc["titles"][0]["renditions"][:1]
        self.assertEqual(plan.load(write_plan(self.tmp, doc)).titles[0].source.path,
                         os.path.join(self.tmp, "movie.mkv"))


class Metrics(TempDirTestCase):
    """The score set: the plan's `metrics`, which a title's own overrides; 'ctc' needs frames of
    176x176 (MS-SSIM), checked here for raw sources."""

    def load(self, doc):
        return plan.load(write_plan(self.tmp, doc))

    def test_default_plan_wide_and_per_title(self):
        self.assertEqual(self.load(good_doc()).titles[0].metrics, "default")
        doc = good_doc()
        doc["metrics"] = "ctc"
        doc["titles"].append({**doc["titles"][0], "name": "u", "metrics": "default"})
        self.assertEqual([t.metrics for t in self.load(doc).titles], ["ctc", "default"])
        doc = good_doc()
        doc["titles"][0]["metrics"] = "ctc"
        self.assertEqual(self.load(doc).titles[0].metrics, "ctc")

    def assertPlanError(self, doc, *fragments):
        with self.assertRaises(PlanError) as caught:
            self.load(doc)
        for fragment in fragments:
            self.assertIn(fragment, str(caught.exception))

    def test_unknown_sets(self):
        accepted = ("is not accepted: use default (vmaf, psnr_y, float_ssim) or ctc (vmaf, psnr_y, "
                    "psnr_cb, psnr_cr, float_ssim, float_ms_ssim, psnr_hvs, psnr_hvs_y, psnr_hvs_cb, "
                    "psnr_hvs_cr, ciede2000)")
        for bad, shown in (("CTC", "'CTC'"), (["ctc"], "a list"), (None, "nothing"), (1, "1")):
            self.assertPlanError({**good_doc(), "metrics": bad}, f"plan.yaml: metrics: {shown} {accepted}")
            doc = good_doc()
            doc["titles"][0]["metrics"] = bad
            self.assertPlanError(doc, f"titles[0].metrics: {shown} {accepted}")

    def test_ctc_needs_176x176(self):
        doc = good_doc()
        doc["titles"][0]["source"] = dict(NATURAL5)   # 176x144
        doc["titles"][0]["renditions"] = [{"name": "file", "path": "dis.yuv", "width": 176, "height": 144}]
        self.assertEqual(self.load(doc).titles[0].metrics, "default")
        doc["metrics"] = "ctc"
        self.assertPlanError(doc, "titles[0].source: 176x144 frames are too small for metrics 'ctc': "
                                  "float_ms_ssim (MS-SSIM) needs at least 176x176; score this title "
                                  "with metrics 'default'")
        doc["titles"][0]["metrics"] = "default"
        self.assertEqual(self.load(doc).titles[0].metrics, "default")

    def test_ctc_refuses_what_ciede_and_psnr_hvs_cannot_score(self):
        doc = good_doc()
        doc["metrics"] = "ctc"
        source = doc["titles"][0]["source"]   # raw natural1 576x324, 4:2:0 8-bit
        doc["titles"][0]["source"] = {**source, "pix_fmt": "yuv422p"}
        self.assertPlanError(doc, "titles[0].source: yuv422p frames cannot be scored with metrics "
                                  "'ctc': ciede (CIEDE2000) needs 4:2:0 or 4:4:4 colour")
        doc["titles"][0]["source"] = {**source, "pix_fmt": "yuv420p16le"}
        self.assertPlanError(doc, "titles[0].source: 16-bit yuv420p16le frames cannot be scored "
                                  "with metrics 'ctc': psnr_hvs (PSNR-HVS) takes up to 12 bits")


class BadPlans(TempDirTestCase):
    def assertPlanError(self, doc, *fragments, name="plan.yaml"):
        path = write_plan(self.tmp, doc, name)
        with self.assertRaises(PlanError) as caught:
            plan.load(path)
        message = str(caught.exception)
        self.assertTrue(message.startswith(path + ": "), message[:200])
        for fragment in fragments:
            self.assertIn(fragment, message[:1000])
        return message

    def text_error(self, name, text):
        """The PlanError message for a plan file `name` holding `text`."""
        path = os.path.join(self.tmp, name)
        with open(path, "w") as f:
            f.write(text)
        with self.assertRaises(PlanError) as caught:
            plan.load(path)
        return path, str(caught.exception)

    def edit(self, change):
        doc = good_doc()
        change(doc)
        return doc

    def rendition(self, i, **fields):
        def change(doc):
            doc["titles"][0]["renditions"][i].update(fields)
        return self.edit(change)

    def test_top_level(self):
        self.assertPlanError([1, 2], "top level", "expected a mapping", "got a list")
        self.assertPlanError({"output": "o"}, "top level: missing key 'titles'")
        self.assertPlanError({"output": "o", "titles": []}, "titles: expected a non-empty list of titles")
        self.assertPlanError(self.edit(lambda d: d.pop("output")), "no results folder", "--output")
        self.assertPlanError(self.edit(lambda d: d.update(modle="x")),
                             "unknown key modle; accepted: metrics, model, output, scale_flags, titles")
        self.assertPlanError(self.edit(lambda d: d.update(model="vmaf v1")), "model: 'vmaf v1'")

    def test_titles(self):
        self.assertPlanError(self.edit(lambda d: d["titles"].append(d["titles"][0])),
                             "titles[1].name: 't' is used twice")
        self.assertPlanError(self.edit(lambda d: d["titles"][0].update(name="a/b")),
                             "titles[0].name: 'a/b' is not accepted: use letters")
        self.assertPlanError(self.edit(lambda d: d["titles"][0]["source"].pop("pix_fmt")),
                             "titles[0].source: raw video", "needs pix_fmt")
        self.assertPlanError(self.edit(lambda d: d["titles"][0].update(source={"path": "a.y4m",
                                                                               "width": 9})),
                             "titles[0].source: width only apply to raw video")

    def test_renditions(self):
        self.assertPlanError(self.rendition(0, size="640*360"),
                             "titles[0].renditions[0].size: expected WIDTHxHEIGHT like 640x360, "
                             "got '640*360'")
        self.assertPlanError(self.rendition(0, path="x.mkv"), "renditions[0]: give either", "not both")
        self.assertPlanError(self.rendition(2, sise="1x1"), "renditions[2]: unknown key sise")
        self.assertPlanError(self.rendition(1, name="enc"), "renditions[1].name: 'enc' is used twice")
        self.assertPlanError(self.rendition(1, name="summary"), "renditions[1].name: 'summary' is not")
        self.assertPlanError(self.rendition(0, ffmpeg_args=["-vf", "crop=1:1"]),
                             "renditions[0].ffmpeg_args[0]: -vf is not accepted")
        self.assertPlanError(self.rendition(0, ffmpeg_args="-c:v libx264"),
                             "renditions[0].ffmpeg_args: expected a list of ffmpeg arguments")
        self.assertPlanError(self.rendition(0, ffmpeg_args=[["-c:v"]]),
                             "ffmpeg_args[0]: expected a string or number, got a list")
        self.assertPlanError(self.rendition(0, output="../x.mkv"), "renditions[0].output", "plain file")
        self.assertPlanError(self.rendition(0, output="a:b.mkv"), "'a:b.mkv' is not accepted")
        self.assertPlanError(self.rendition(0, output="enc.json"), "tool's own results")
        self.assertPlanError(self.rendition(0, output="enc.yuv"), "raw file has no header")
        self.assertPlanError(self.rendition(1, framerate="fast"), "renditions[1].framerate",
                             "frames per second")
        self.assertPlanError(self.rendition(1, width=0), "renditions[1].width: expected a positive")
        self.assertPlanError(self.rendition(2, output="m.mkv"), "only for encoded renditions")

        def no_size(doc):
            del doc["titles"][0]["renditions"][0]["size"]
        self.assertPlanError(self.edit(no_size), "renditions[0]: missing key 'size'")

    def test_long_values_are_refused_and_cut(self):
        """Names become file names and strings go on ffmpeg's command line: both have limits, and
        a message quotes at most the start of a value."""
        long = "a" * MEGA
        cases = (
            (self.edit(lambda d: d["titles"][0].update(name=long)), "titles[0].name: 'aaaa",
             "(1048576 characters) is not accepted: at most 100 characters"),
            (self.rendition(0, name=long), "renditions[0].name: 'aaaa", "at most 100 characters"),
            (self.rendition(0, output=long + ".mkv"), "renditions[0].output: 'aaaa",
             "at most 100 characters"),
            (self.edit(lambda d: d.update(model=long)), "model: 'aaaa", "at most 100 characters",
             "a built-in model name"),
            (self.edit(lambda d: d.update(scale_flags=long)), "scale_flags: 'aaaa",
             "at most 200 characters"),
            (self.rendition(0, ffmpeg_args=["-metadata", long]), "renditions[0].ffmpeg_args[1]",
             "at most 4096 characters"),
            (self.rendition(1, path=long + ".yuv"), "renditions[1].path", "at most 4096 characters"),
            (self.rendition(1, **{long: 1}), "renditions[1]: unknown key 'aaaa", "accepted: "),
            (self.rendition(1, **{f"k{i:04}": 1 for i in range(1000)}),
             "renditions[1]: unknown keys k0000, k0001, k0002, k0003, k0004 and 995 more; "
             "accepted: "),
            (self.rendition(1, width=long), "renditions[1].width: expected a positive integer, "
             "got 'aaaa"),
        )
        for i, (doc, *fragments) in enumerate(cases):
            # JSON but for the first: PyYAML takes a second per megabyte.
            name = "plan.yaml" if i == 0 else "plan.json"
            message = self.assertPlanError(doc, *fragments, name=name)
            self.assertLess(len(message), 600, message[:200])

    def test_nested_too_deeply(self):
        for name, text in (("deep.yaml", "[" * 100000 + "]" * 100000),
                           ("deep.json", "[" * 100000 + "]" * 100000),
                           ("deep2.yaml", "titles:\n" + "- " * 100000 + "x\n")):
            path, message = self.text_error(name, text)
            self.assertEqual(message, f"{path}: top level: lists or mappings nested too deeply "
                                      "to read; a plan nests lists and mappings six levels deep")

    def test_repeated_keys(self):
        doc = good_doc()
        yaml_text = ("output: out\ntitles:\n- name: t\n  source: s.mkv\n  renditions:\n"
                     "  - name: a\n    path: a.mkv\n    path: b.mkv\n")
        json_text = json.dumps(doc).replace('"output": "out"', '"output": "out", "output": "o2"')
        for name, text, fragment in (
                ("twice.yaml", yaml_text, "titles[0].renditions[0]: key 'path' is given twice"),
                ("twice.json", json_text, "top level: key 'output' is given twice")):
            _, message = self.text_error(name, text)
            self.assertIn(fragment, message)
            self.assertIn("give each key once", message)
        # A key merged in from an anchor may be overridden: that is YAML's way of sharing settings.
        merged = os.path.join(self.tmp, "merged.yaml")
        with open(merged, "w") as f:
            f.write("output: out\ntitles:\n- name: t\n  source: s.mkv\n  renditions:\n"
                    "  - &a {name: a, path: a.mkv, size: 64x64}\n"
                    "  - {<<: *a, name: b, path: b.mkv}\n")
        renditions = plan.load(merged).titles[0].renditions
        self.assertEqual([os.path.basename(r.video.path) for r in renditions], ["a.mkv", "b.mkv"])

    def test_unreadable(self):
        for name, text, fragment in (
                ("bad.yaml", "titles: [a, b\n", "line 2 column 1: not valid YAML"),
                ("bad.json", '{"titles": [}', "line 1 column 13: not valid JSON")):
            self.assertIn(fragment, self.text_error(name, text)[1])
        with self.assertRaises(PlanError) as caught:
            plan.load(os.path.join(self.tmp, "none.yaml"))
        self.assertIn("cannot read the plan: No such file or directory", str(caught.exception))


class CommandLine(TempDirTestCase):
    def run_cli(self, *args):
        return subprocess.run([LAUNCHER, *args], capture_output=True, text=True, timeout=60)

    def assertCleanError(self, proc, fragment):
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        self.assertIn(fragment, proc.stderr)

    def test_bad_plan(self):
        doc = good_doc()
        doc["titles"][0]["renditions"][0]["size"] = "big"
        proc = self.run_cli(write_plan(self.tmp, doc))
        self.assertCleanError(proc, "vmafhip-ladder: error: ")
        self.assertIn("titles[0].renditions[0].size: expected WIDTHxHEIGHT", proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)

    def assertOneLine(self, proc, fragment):
        self.assertCleanError(proc, fragment)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr[-2000:])

    def test_output_is_a_file(self):
        doc = good_doc()
        doc["output"] = path = os.path.join(self.tmp, "file")
        with open(path, "w") as f:
            f.write("not a folder\n")
        plan_path = write_plan(self.tmp, doc)
        self.assertOneLine(self.run_cli(plan_path), f"error: {plan_path}: output: {path} is a "
                           "file, not a folder; the results folder must be a folder this user can "
                           "create and write")
        self.assertOneLine(self.run_cli(plan_path, "--output", os.path.join(path, "sub", "dir")),
                           f"--output: {path} is a file, not a folder")

    def test_bad_arguments(self):
        path = write_plan(self.tmp, good_doc())
        self.assertCleanError(self.run_cli(path, "--workers", "0"), "--workers must be at least 1")
        self.assertCleanError(self.run_cli(path, "--scheduler", "tcp://h:1", "--workers", "2"),
                              "--workers and --cpu are for the local cluster")
        self.assertCleanError(self.run_cli(path, "--ffmpeg", sys.executable),
                              "is not an ffmpeg with the libvmaf_hip filter")


class OutputFolder(TempDirTestCase):
    """The results folder is made and tried before anything runs (root writes anywhere, so a
    folder it may not write is simulated where the ladder writes its trial file)."""

    def load(self, output):
        return plan.load(write_plan(self.tmp, good_doc()), output)

    def test_made_and_written(self):
        loaded = self.load(os.path.join(self.tmp, "a", "b"))
        runner.prepare(loaded)
        self.assertEqual(os.listdir(os.path.join(self.tmp, "a", "b", "t")), [])

    def test_not_writable(self):
        loaded = self.load(os.path.join(self.tmp, "ro"))
        denied = PermissionError(13, "Permission denied")
        with mock.patch("vmafhip_ladder.runner.open", create=True, side_effect=denied):
            with self.assertRaises(PlanError) as caught:
                runner.prepare(loaded)
        self.assertEqual(str(caught.exception),
                         f"{loaded.path}: --output: cannot write in {self.tmp}/ro/t: Permission "
                         "denied; the results folder must be a folder this user can create and write")

    @unittest.skipIf(os.geteuid() == 0, "root may write in any folder")
    def test_not_writable_for_real(self):
        folder = os.path.join(self.tmp, "ro")
        os.makedirs(folder)
        os.chmod(folder, 0o555)
        self.addCleanup(os.chmod, folder, 0o755)
        with self.assertRaises(PlanError) as caught:
            runner.prepare(self.load(os.path.join(folder, "out")))
        self.assertIn("Permission denied", str(caught.exception))


class TaskInputs(TempDirTestCase):
    """Files a task refuses before running ffmpeg."""

    def test_source_is_not_a_regular_file(self):
        doc = good_doc()
        doc["titles"][0]["source"] = "/dev/zero"
        del doc["titles"][0]["renditions"][1]
        loaded = plan.load(write_plan(self.tmp, doc))
        title = loaded.titles[0]
        enc, mkv = title.renditions
        scored = score_title(title, os.path.join(self.tmp, "out", "t"), loaded.model,
                             loaded.scale_flags, "ffmpeg", [{"ok": True, "reused": False}, None])
        self.assertEqual(list(scored), [enc.name, mkv.name])
        for result in (encode_task(title, enc, "ffmpeg"), *scored.values()):
            self.assertEqual(result["error"], "source /dev/zero is a device, not a regular file: "
                                              "give a video file")
        doc["titles"][0]["source"] = self.tmp
        title = plan.load(write_plan(self.tmp, doc)).titles[0]
        self.assertEqual(encode_task(title, enc, "ffmpeg")["error"],
                         f"source {self.tmp} is a folder, not a regular file: give a video file")


if __name__ == "__main__":
    unittest.main()
