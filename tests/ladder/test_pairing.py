"""Frame n of a rendition is scored against frame n of its source, whatever the containers.

Sources in Matroska, MP4, MOV and MPEG-TS at 23.976 to 59.94 fps (MPEG-4 part 2 with B-frames,
so MP4 and MOV carry edit lists, one of which drops frames, and MPEG-TS starts at 1.4 s) get
renditions in other containers, encoded by the ladder. Every rendition's per-frame scores must
equal those of the vmafhip CLI (bit-exact with libvmaf) on the decoded frames, the rendition
scaled back up as the ladder documents; with $VMAFHIP_TEST_LIBVMAF_CLI (libvmaf's `vmaf` tool)
also libvmaf's own.
Variable frame rates, other frame rates and other frame counts are refused, saying why.
"""

import json
import os
import subprocess
import unittest

from common import FFMPEG, NATURAL1, TempDirTestCase, needs_ffmpeg, run_plan, start_cluster, write_plan
from vmafhip_ladder import media
from vmafhip_ladder.errors import RenditionFailed
from vmafhip_ladder.plan import DEFAULT_SCALE_FLAGS

CLI = os.environ.get("VMAFHIP_TEST_CLI", "")
LIBVMAF_CLI = os.environ.get("VMAFHIP_TEST_LIBVMAF_CLI", "")
SOURCE_SIZE, RENDITION_SIZE = (160, 90), "128x72"
ENCODE = ["-c:v", "mpeg4", "-bf", "2", "-an"]
# title: source container and frame rate, rendition containers, frames. Matroska's times are
# whole milliseconds, MP4's and MOV's exact ticks, MPEG-TS's 90 kHz from 1.4 s on. "mp4cut" is
# cut at 0.2 s without re-encoding: its edit list drops the first 5 frames it still holds.
CASES = {
    "mkv24": ("mkv", "24", ("mp4", "mov", "ts"), 10),
    "mkv29.97": ("mkv", "30000/1001", ("mp4", "mkv"), 10),
    "mkv23.976": ("mkv", "24000/1001", ("mp4",), 10),
    "mov25": ("mov", "25", ("mkv",), 10),
    "ts50": ("ts", "50", ("mp4", "mkv"), 10),
    "mp459.94": ("mp4", "60000/1001", ("mkv", "ts"), 10),
    "mp4cut": ("mp4", "24", ("mkv",), 5),
}
CLUSTER = None


def setUpModule():
    global CLUSTER
    if FFMPEG and CLI:
        CLUSTER = start_cluster(2)


def tearDownModule():
    if CLUSTER is not None:
        CLUSTER[1].close()
        CLUSTER[0].close()


def ffmpeg(*args):
    subprocess.run([FFMPEG, "-nostdin", "-y", "-v", "error", *args], check=True, timeout=60)


def natural1_args(rate):
    """natural1's 10 frames as an input at `rate` fps."""
    return ["-f", "rawvideo", "-video_size", f"{NATURAL1['width']}x{NATURAL1['height']}",
            "-pixel_format", "yuv420p", "-framerate", rate, "-i", NATURAL1["path"]]


def make_source(path, rate):
    ffmpeg(*natural1_args(rate), "-vf", "scale=%d:%d" % SOURCE_SIZE, "-c:v", "mpeg4", "-q:v", "2",
           "-bf", "2", path)


def decode(path, y4m, scale=None):
    """Every frame of `path` in presentation order, as ffmpeg decodes it, into `y4m`."""
    vf = []
    if scale:
        vf = ["-vf", f"scale={scale[0]}:{scale[1]}:flags={DEFAULT_SCALE_FLAGS},format=yuv420p"]
    ffmpeg("-i", path, *vf, "-fps_mode", "passthrough", "-f", "yuv4mpegpipe", y4m)


def cli_vmaf(tool, ref, dis, log, extra=()):
    """Per-frame vmaf of the libvmaf-compatible CLI `tool` on two y4m files."""
    subprocess.run([tool, "-r", ref, "-d", dis, "-m", "version=vmaf_v0.6.1", "--json", "-o", log,
                    "-q", *extra], check=True, timeout=60, capture_output=True)
    with open(log) as f:
        return [frame["metrics"]["vmaf"] for frame in json.load(f)["frames"]]


@needs_ffmpeg
@unittest.skipUnless(CLI, "set VMAFHIP_TEST_CLI (or tests/ladder/run --vmafhip) to the vmafhip CLI")
class Pairing(TempDirTestCase):
    def test_every_frame_with_its_source_frame(self):
        out = os.path.join(self.tmp, "out")
        titles = []
        for name, (container, rate, renditions, _) in CASES.items():
            source = os.path.join(self.tmp, f"{name}.{container}")
            if name == "mp4cut":
                whole = os.path.join(self.tmp, "whole.mp4")
                make_source(whole, rate)
                ffmpeg("-ss", "0.2", "-i", whole, "-c", "copy", source)
            else:
                make_source(source, rate)
            titles.append({"name": name, "source": source, "renditions": [
                {"name": ext, "size": RENDITION_SIZE, "output": f"r.{ext}",
                 "ffmpeg_args": [*ENCODE, "-q:v", "12"]} for ext in renditions]})
        _, report = run_plan(CLUSTER[1], write_plan(self.tmp, {"output": out, "titles": titles}))

        for name, (container, rate, renditions, frames) in CASES.items():
            ref = os.path.join(self.tmp, f"{name}.y4m")
            decode(os.path.join(self.tmp, f"{name}.{container}"), ref)
            for ext in renditions:
                with self.subTest(title=name, rendition=ext):
                    result = report.results[(name, ext)]
                    self.assertTrue(result["ok"], result.get("error"))
                    folder = os.path.join(out, name)
                    dis = os.path.join(self.tmp, f"{name}-{ext}.y4m")
                    decode(os.path.join(folder, f"r.{ext}"), dis, SOURCE_SIZE)
                    with open(os.path.join(folder, f"{ext}.json")) as f:
                        ladder = [frame["metrics"]["vmaf"] for frame in json.load(f)["frames"]]
                    self.assertEqual(len(ladder), frames)
                    expected = cli_vmaf(CLI, ref, dis, os.path.join(self.tmp, "cli.json"))
                    self.assertEqual(ladder, expected)
                    if LIBVMAF_CLI:
                        libvmaf = cli_vmaf(LIBVMAF_CLI, ref, dis, os.path.join(self.tmp, "lv.json"),
                                           ("--cpumask", "63"))
                        self.assertEqual(ladder, libvmaf)


class FrameRate(unittest.TestCase):
    """The frame rate read from ffprobe's stream and packets (no ffmpeg needed)."""

    @staticmethod
    def rate(times, r_frame_rate, avg_frame_rate, time_base):
        stream = {"r_frame_rate": r_frame_rate, "avg_frame_rate": avg_frame_rate,
                  "time_base": time_base}
        packets = [{"pts": t, "flags": "___"} for t in times]
        return media._constant_rate(stream, packets, "source s.mkv")

    def test_rounded_times(self):
        # Matroska's milliseconds: 59.94 fps frames last 16 or 17 ticks, FFmpeg says 19001/317.
        times = [round(n * 1001 / 60) for n in range(30)]
        self.assertEqual(self.rate(times[::-1], "19001/317", "19001/317", "1/1000"),
                         media.Fraction(19001, 317))
        self.assertTrue(media.same_rate(media.Fraction(19001, 317), media.Fraction(60000, 1001)))
        self.assertFalse(media.same_rate(media.Fraction(24000, 1001), media.Fraction(24)))

    def test_field_rate(self):
        # Interlaced video may say its field rate as r_frame_rate; the frames say 25.
        times = [126000 + n * 3600 for n in range(10)]     # MPEG-TS: 90 kHz from 1.4 s
        self.assertEqual(self.rate(times, "50/1", "25/1", "1/90000"), 25)

    def test_variable(self):
        times = [n * 40 for n in range(5)] + [n * 40 + 20 for n in range(5, 10)]
        with self.assertRaises(RenditionFailed) as caught:
            self.rate(times, "25/1", "25/1", "1/1000")
        self.assertIn("source s.mkv has a variable frame rate: frame 4 lasts 60.000 ms, at 25 fps "
                      "a frame lasts 40.000 ms", caught.exception.message)


@needs_ffmpeg
@unittest.skipUnless(CLI, "set VMAFHIP_TEST_CLI (or tests/ladder/run --vmafhip) to the vmafhip CLI")
class Refused(TempDirTestCase):
    def test_variable_rate_other_rate_other_count(self):
        source = os.path.join(self.tmp, "src.mkv")
        make_source(source, "24")
        # Frame 4 lasts two frames: one frame dropped, as a variable-rate capture would.
        vfr = os.path.join(self.tmp, "vfr.mkv")
        ffmpeg("-i", source, "-vf", "setpts=(N+gte(N\\,5))/(24*TB)", "-fps_mode", "passthrough",
               "-c:v", "mpeg4", vfr)
        out = os.path.join(self.tmp, "out")
        doc = {"output": out, "titles": [
            {"name": "cfr", "source": source, "renditions": [
                {"name": "vfr", "path": vfr},
                {"name": "12fps", "size": RENDITION_SIZE, "output": "r12.mp4",
                 "ffmpeg_args": [*ENCODE, "-r", "12"]},
                {"name": "short", "size": RENDITION_SIZE, "output": "short.mp4",
                 "ffmpeg_args": [*ENCODE, "-frames:v", "8"]},
            ]},
            {"name": "vfr", "source": vfr, "renditions": [{"name": "same", "path": vfr}]},
        ]}
        _, report = run_plan(CLUSTER[1], write_plan(self.tmp, doc))
        errors = {key: r.get("error") for key, r in report.results.items()}
        self.assertEqual(errors[("cfr", "vfr")],
                         f"rendition {vfr} has a variable frame rate: frame 4 lasts 83.000 ms, at "
                         "24 fps a frame lasts 41.667 ms; frames are scored by position, so convert "
                         "it to a constant frame rate first (ffmpeg -i IN -fps_mode cfr -r 24 OUT)")
        self.assertTrue(errors[("vfr", "same")].startswith(f"source {vfr} has a variable frame rate"))
        self.assertEqual(errors[("cfr", "12fps")],
                         "frame rate mismatch: the rendition is 12 fps, the source 24 fps; frames are "
                         "scored by position, so a rendition keeps its source's frame rate (encode "
                         "without -r or fps=, or score against a source at the rendition's rate)")
        self.assertEqual(errors[("cfr", "short")],
                         "frame count mismatch: the rendition has 8 frames, the source 10; frames are "
                         "scored by position, so a rendition has every frame of its source (none cut, "
                         "dropped or added)")


if __name__ == "__main__":
    unittest.main()
