"""One ffmpeg per title: it decodes the source once and scores every rendition still to score.

ffmpeg and ffprobe run through wrappers that record each command line, so the tests count the
scoring runs, see which files each one reads, and count the probes of a source.
"""

import os
import shutil
import subprocess
import unittest

from common import (FFMPEG, FIXTURES, NATURAL1, NATURAL1_FRAMES, TempDirTestCase, golden,
                    ladder_plan, needs_ffmpeg, read_json, run_plan, start_cluster, write_plan)
from vmafhip_ladder import media

CLUSTER = None
SEPARATOR = "\x1f"
CRF38 = os.path.join(FIXTURES, "natural1_576x324_yuv420p_x264crf38.yuv")


def setUpModule():
    global CLUSTER
    if FFMPEG:
        CLUSTER = start_cluster(2)


def tearDownModule():
    if CLUSTER is not None:
        CLUSTER[1].close()
        CLUSTER[0].close()


def recording_tools(folder, calls, failing=None):
    """ffmpeg and ffprobe wrappers in `folder` that append their arguments to `calls`, one line
    per run (a single write, so runs on two workers do not mix); returns the ffmpeg. With
    `failing`, a file name, ffmpeg fails as on a file it cannot read whenever it is given that
    file (ffprobe still reads it)."""
    real = os.path.dirname(os.path.abspath(FFMPEG))
    os.makedirs(folder)
    for tool in ("ffmpeg", "ffprobe"):
        path = os.path.join(folder, tool)
        fail = ""
        if failing and tool == "ffmpeg":
            fail = (f"case \"$*\" in *'{failing}'*) echo '{failing}: Invalid data found when "
                    "processing input' >&2; exit 1;; esac\n")
        with open(path, "w") as f:
            f.write(f"#!/bin/sh\nline=$(printf '%s{SEPARATOR}' {tool} \"$@\")\n"
                    f"printf '%s\\n' \"$line\" >> '{calls}'\n{fail}exec '{real}/{tool}' \"$@\"\n")
        os.chmod(path, 0o755)
    return os.path.join(folder, "ffmpeg")


def inputs(call):
    return [call[i + 1] for i, arg in enumerate(call) if arg == "-i"]


@needs_ffmpeg
class OneRunPerTitle(TempDirTestCase):
    def setUp(self):
        super().setUp()
        self.calls = os.path.join(self.tmp, "calls")
        self.ffmpeg = recording_tools(os.path.join(self.tmp, "bin"), self.calls)
        self.out = os.path.join(self.tmp, "out")

    def run_ladder(self, doc):
        """Run `doc`; return its report and the command lines it ran, each a list of arguments."""
        if os.path.exists(self.calls):
            os.remove(self.calls)
        _, report = run_plan(CLUSTER[1], write_plan(self.tmp, doc), self.ffmpeg)
        with open(self.calls) as f:
            return report, [line.split(SEPARATOR)[:-1] for line in f.read().splitlines()]

    @staticmethod
    def scoring(calls):
        """The files each scoring ffmpeg run read, the source last."""
        return [inputs(call) for call in calls if call[0] == "ffmpeg" and "-lavfi" in call]

    def test_one_ffmpeg_and_one_probe_of_the_source_per_title(self):
        report, calls = self.run_ladder(ladder_plan(self.out))
        self.assertEqual(report.counts(), {"scored": 4, "reused": 0, "failed": 0})
        runs = sorted(self.scoring(calls), key=len)
        natural1 = os.path.join(self.out, "natural1")
        self.assertEqual(runs, [[os.path.join(self.out, "natural5", "88x72.y4m"),
                                 os.path.join(FIXTURES, "natural5_176x144_yuv444p_ref.yuv")],
                                [NATURAL1["path"], CRF38, os.path.join(natural1, "288p.y4m"),
                                 NATURAL1["path"]]])
        probes = [inputs(call) for call in calls if call[0] == "ffprobe"]
        self.assertEqual(sum(1 for p in probes if p == [NATURAL1["path"]]), 2)  # source, 'same'
        self.assertEqual(len(probes), 6)    # each source and each rendition once
        # Raw video and y4m are counted from their size: no probe reads their packets.
        self.assertEqual([arg for call in calls if call[0] == "ffprobe" for arg in call
                          if "packet=" in arg], [])
        # One run scores each rendition as its own run would: libvmaf's goldens.
        rows = {row["rendition"]: row for row in read_json(os.path.join(natural1, "summary.json"))
                ["renditions"]}
        self.assertEqual(rows["same"]["vmaf_mean"], 99.742822)
        self.assertEqual(rows["crf38"]["vmaf_mean"],
                         golden("natural1_576x324_yuv420p__ref_vs_x264crf38.json")["vmaf"]["mean"])
        for name in ("same", "crf38", "288p"):
            self.assertEqual(len(read_json(os.path.join(natural1, f"{name}.json"))["frames"]),
                             NATURAL1_FRAMES)

    def test_rerun_scores_only_the_renditions_whose_log_is_gone(self):
        doc = ladder_plan(self.out)
        self.run_ladder(doc)
        natural1 = os.path.join(self.out, "natural1")
        summary = read_json(os.path.join(natural1, "summary.json"))
        os.remove(os.path.join(natural1, "crf38.json"))
        report, calls = self.run_ladder(doc)
        self.assertEqual(report.counts(), {"scored": 1, "reused": 3, "failed": 0})
        self.assertFalse(report.results[("natural1", "crf38")]["reused"])
        self.assertEqual(self.scoring(calls), [[CRF38, NATURAL1["path"]]])

        # Two of three: both in one run, the source decoded once for them.
        for name in ("same", "288p"):
            os.remove(os.path.join(natural1, f"{name}.json"))
        report, calls = self.run_ladder(doc)
        self.assertEqual(report.counts(), {"scored": 2, "reused": 2, "failed": 0})
        self.assertEqual(self.scoring(calls), [[NATURAL1["path"], os.path.join(natural1, "288p.y4m"),
                                                NATURAL1["path"]]])
        self.assertEqual(read_json(os.path.join(natural1, "summary.json")), summary)

    def test_a_rendition_ffmpeg_cannot_read_fails_alone(self):
        # broken.yuv passes ffprobe's checks, but ffmpeg fails on it: the joint run fails, and
        # each rendition is scored alone, so that the failing one is named with ffmpeg's error.
        broken = os.path.join(self.tmp, "broken.yuv")
        shutil.copy(CRF38, broken)
        self.ffmpeg = recording_tools(os.path.join(self.tmp, "failing"), self.calls, "broken.yuv")
        raw = {"width": 576, "height": 324}
        doc = {"output": self.out, "titles": [{"name": "natural1", "source": NATURAL1, "renditions": [
            {"name": "same", "path": NATURAL1["path"], **raw},
            {"name": "broken", "path": broken, **raw},
            {"name": "crf38", "path": CRF38, **raw},
        ]}]}
        report, calls = self.run_ladder(doc)
        results = {name: r for (_, name), r in report.results.items()}
        self.assertEqual(report.counts(), {"scored": 2, "reused": 0, "failed": 1})
        self.assertEqual(results["broken"]["error"], "scoring broken failed (exit status 1)")
        self.assertEqual(results["broken"]["detail"],
                         "broken.yuv: Invalid data found when processing input")
        self.assertEqual(results["same"]["scores"]["vmaf_mean"], 99.742822)
        self.assertEqual(results["crf38"]["scores"]["vmaf_mean"],
                         golden("natural1_576x324_yuv420p__ref_vs_x264crf38.json")["vmaf"]["mean"])
        runs = self.scoring(calls)
        self.assertEqual(runs, [[NATURAL1["path"], broken, CRF38, NATURAL1["path"]],
                                [NATURAL1["path"], NATURAL1["path"]], [broken, NATURAL1["path"]],
                                [CRF38, NATURAL1["path"]]])
        folder = os.path.join(self.out, "natural1")
        self.assertEqual(sorted(f for f in os.listdir(folder) if f.endswith(".json")),
                         ["crf38.json", "same.json", "summary.json"])
        self.assertEqual([f for f in os.listdir(folder) if f.startswith(".")], [])


@needs_ffmpeg
class FrameCount(TempDirTestCase):
    def test_raw_and_y4m_frames_from_their_size(self):
        ffprobe = os.path.join(os.path.dirname(os.path.abspath(FFMPEG)), "ffprobe")
        # Nine frames and a torn tenth, of which ffmpeg decodes nothing.
        torn = os.path.join(self.tmp, "torn.yuv")
        with open(CRF38, "rb") as src, open(torn, "wb") as dst:
            dst.write(src.read(576 * 324 * 3 // 2 * 9 + 1000))
        raw = dict(NATURAL1, path=torn)
        del raw["framerate"]
        info = media.probe(ffprobe, media.Video(**raw, framerate="30000/1001"), "rendition")
        self.assertEqual((info.frames, info.rate, info.width), (9, media.Fraction(30000, 1001), 576))
        y4m = os.path.join(self.tmp, "r.y4m")
        subprocess.run([FFMPEG, "-v", "error", "-f", "rawvideo", "-video_size", "576x324",
                        "-framerate", "24000/1001", "-i", CRF38, y4m], check=True, timeout=60)
        info = media.probe(ffprobe, media.Video(y4m), "rendition")
        self.assertEqual((info.frames, info.rate, info.pix_fmt),
                         (NATURAL1_FRAMES, media.Fraction(24000, 1001), "yuv420p"))


if __name__ == "__main__":
    unittest.main()
