"""Where the inputs are decoded: NVDEC on a GPU worker for the codecs and formats it takes, the
CPU otherwise, and the CPU again when a run with NVDEC fails.

This machine has no NVIDIA GPU, so NVDEC is played by wrappers around ffmpeg: one lists the cuda
hwaccel and fails every run that asks for it (a missing driver), the other lists it and decodes
in software (an NVDEC that works: its frames are the software decoder's). The scores must not
depend on any of it.
"""

import os
import subprocess
import unittest
from fractions import Fraction
from unittest import mock

from common import FFMPEG, NATURAL1, TempDirTestCase, needs_ffmpeg
from vmafhip_ladder import decode, score
from vmafhip_ladder.errors import RenditionFailed
from vmafhip_ladder.media import Probe, Video
from vmafhip_ladder.plan import Rendition, Title


def probe(codec, pix_fmt):
    return Probe(576, 324, pix_fmt, 10, 0.4, 1000, Fraction(25), codec)


def fake_ffmpeg(folder, name, on_hwaccel):
    """An ffmpeg (and its ffprobe) in folder/name/ that lists the cuda hwaccel and, on a run
    with -hwaccel, does `on_hwaccel`: 'fail' as without a driver, 'decode' in software."""
    real = os.path.dirname(os.path.abspath(FFMPEG)) if FFMPEG else "/nonexistent"
    bindir = os.path.join(folder, name)
    os.makedirs(bindir)
    hw = ("echo 'Device creation failed: -542398533.' >&2; exit 1" if on_hwaccel == "fail" else
          # drop '-hwaccel cuda -hwaccel_device N', decode on the CPU and hand the frames to the
          # graph as nv12, as NVDEC does (every input here is one NVDEC takes)
          'n=$#; i=0; while [ $i -lt $n ]; do a=$1; shift; i=$((i+1)); '
          'if [ "$a" = -hwaccel ] || [ "$a" = -hwaccel_device ]; then shift; i=$((i+1)); '
          'elif [ "$a" = -lavfi ]; then set -- "$@" -lavfi "$(printf %s "$1" | '
          "sed 's/\\[\\([0-9]*\\):v\\]/[\\1:v]format=nv12,/g')\"; shift; i=$((i+1)); "
          'else set -- "$@" "$a"; fi; done; exec "' + real + '/ffmpeg" "$@"')
    with open(os.path.join(bindir, "ffmpeg"), "w") as f:
        f.write("#!/bin/sh\n"
                'case " $* " in *" -hwaccels "*) printf "Hardware acceleration methods:\\ncuda\\n\\n"; '
                "exit 0;; esac\n"
                f'case " $* " in *" -hwaccel "*) {hw};; esac\n'
                f'exec "{real}/ffmpeg" "$@"\n')
    os.chmod(os.path.join(bindir, "ffmpeg"), 0o755)
    os.symlink(os.path.join(real, "ffprobe"), os.path.join(bindir, "ffprobe"))
    return os.path.join(bindir, "ffmpeg")


class Choice(unittest.TestCase):
    def test_codecs_and_formats_nvdec_takes(self):
        exact = "bicubic+accurate_rnd+full_chroma_int"
        self.assertEqual(decode.choose(1, probe("h264", "yuv420p"), exact), decode.Decoder(1))
        self.assertEqual(decode.choose(0, probe("hevc", "yuv420p10le"), exact).output_format("yuv420p10le"),
                         "p010le")
        self.assertEqual(decode.choose(0, probe("h264", "yuv420p"), exact).output_format("yuv420p"), "nv12")
        for codec, pix_fmt in (("h264", "yuv422p"), ("hevc", "yuv444p"), ("rawvideo", "yuv420p"),
                               ("ffv1", "yuv420p"), ("prores", "yuv422p10le")):
            self.assertEqual(decode.choose(0, probe(codec, pix_fmt), exact), decode.CPU, (codec, pix_fmt))
        self.assertEqual(decode.choose(None, probe("h264", "yuv420p"), exact), decode.CPU)

    def test_only_with_scaling_that_treats_nv12_as_planar(self):
        # plain bicubic scales nv12 otherwise than yuv420p: the scores would depend on the decoder
        for flags in ("bicubic", "bicubic+accurate_rnd", "lanczos+full_chroma_int"):
            self.assertEqual(decode.choose(0, probe("h264", "yuv420p"), flags), decode.CPU, flags)
        self.assertEqual(decode.choose(0, probe("h264", "yuv420p"), "lanczos+accurate_rnd+full_chroma_int"),
                         decode.Decoder(0))

    def test_nvdec_options_go_before_the_input(self):
        cmd = score.command("ffmpeg", Video("d.mp4"), Video("r.mkv"), "GRAPH",
                            (decode.Decoder(3), decode.CPU))
        self.assertEqual(cmd[cmd.index("-hwaccel"):cmd.index("d.mp4") + 1],
                         ["-hwaccel", "cuda", "-hwaccel_device", "3", "-i", "d.mp4"])
        self.assertEqual(cmd.count("-hwaccel"), 1)
        self.assertLess(cmd.index("d.mp4"), cmd.index("r.mkv"))


class Worker(TempDirTestCase):
    def setUp(self):
        super().setUp()
        driver = os.path.join(self.tmp, "nvidiactl")
        open(driver, "w").close()
        patcher = mock.patch.object(decode, "NVIDIA_DRIVER", driver)
        patcher.start()
        self.addCleanup(patcher.stop)
        self.ffmpeg = fake_ffmpeg(self.tmp, "hw", "decode")
        self.plain = os.path.join(self.tmp, "plain")
        with open(self.plain, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(self.plain, 0o755)

    def test_a_gpu_worker_with_nvdec(self):
        self.assertEqual(decode.worker_gpu(self.ffmpeg, {"VMAFHIP_DEVICE": "2"}), 2)

    def test_cpu_workers_and_ffmpeg_without_cuda_decode_on_the_cpu(self):
        self.assertIsNone(decode.worker_gpu(self.ffmpeg, {}))                      # not pinned
        self.assertIsNone(decode.worker_gpu(self.ffmpeg, {"VMAFHIP_DEVICE": "1", "VMAFHIP_DECODE": "cpu"}))
        self.assertIsNone(decode.worker_gpu(self.plain, {"VMAFHIP_DEVICE": "1"}))
        with mock.patch.object(decode, "NVIDIA_DRIVER", os.path.join(self.tmp, "none")):
            self.assertIsNone(decode.worker_gpu(self.ffmpeg, {"VMAFHIP_DEVICE": "1"}))

    def test_nvdec_asked_for(self):
        self.assertEqual(decode.worker_gpu(self.ffmpeg, {"VMAFHIP_DECODE": "nvdec"}), 0)
        with self.assertRaises(RenditionFailed) as e:
            decode.worker_gpu(self.plain, {"VMAFHIP_DECODE": "nvdec"})
        self.assertIn("has no cuda hwaccel", e.exception.message)
        with self.assertRaises(RenditionFailed) as e:
            decode.worker_gpu(self.ffmpeg, {"VMAFHIP_DECODE": "gpu"})
        self.assertEqual(e.exception.message,
                         "worker misconfigured: VMAFHIP_DECODE='gpu'; accepted: auto, cpu, nvdec")


@needs_ffmpeg
class Scoring(TempDirTestCase):
    """A title whose source and renditions are MPEG-4 part 2 (a codec NVDEC decodes), one of them
    scaled back up to the source's size, scored on a worker asking for NVDEC: with a working
    NVDEC, a failing one, and none."""

    def setUp(self):
        super().setUp()
        raw = ["-f", "rawvideo", "-video_size", "576x324", "-pixel_format", "yuv420p", "-framerate", "25"]
        self.source = os.path.join(self.tmp, "source.mp4")
        self.renditions = []
        # the source, two renditions at its size and one at half of it (scaled back up)
        for path, q, size in ((self.source, 2, "576x324"), (os.path.join(self.tmp, "q12.mp4"), 12, "576x324"),
                              (os.path.join(self.tmp, "q24.mp4"), 24, "576x324"),
                              (os.path.join(self.tmp, "half.mp4"), 6, "288x162")):
            subprocess.run([FFMPEG, "-nostdin", "-v", "error", *raw, "-i", NATURAL1["path"], "-s", size,
                            "-c:v", "mpeg4", "-q:v", str(q), "-bf", "2", path], check=True)
            if path != self.source:
                self.renditions.append(path)

    def score(self, ffmpeg, name, environ):
        title = Title("t", Video(self.source),
                      tuple(Rendition(os.path.basename(p), Video(p), None, None) for p in self.renditions))
        with mock.patch.dict(os.environ, {"VMAFHIP_BACKEND": "cpu", **environ}):
            return score.score_title(title, os.path.join(self.tmp, name), "vmaf_v0.6.1",
                                     "bicubic+accurate_rnd+full_chroma_int", ffmpeg)

    def test_scores_do_not_depend_on_where_frames_are_decoded(self):
        cpu = self.score(FFMPEG, "cpu", {"VMAFHIP_DECODE": "cpu"})
        works = self.score(fake_ffmpeg(self.tmp, "works", "decode"), "works", {"VMAFHIP_DECODE": "nvdec"})
        fails = self.score(fake_ffmpeg(self.tmp, "fails", "fail"), "fails", {"VMAFHIP_DECODE": "nvdec"})
        for name in cpu:
            self.assertTrue(cpu[name]["ok"], cpu[name])
            self.assertEqual(cpu[name]["decode"], "cpu")
            self.assertEqual(works[name]["decode"], "nvdec")
            self.assertEqual(fails[name]["decode"], "cpu (NVDEC failed: Device creation failed: -542398533.)")
            for other in (works, fails):
                self.assertEqual(other[name]["vmaf_frames"], cpu[name]["vmaf_frames"], name)
                self.assertEqual(other[name]["scores"], cpu[name]["scores"], name)
            self.assertEqual(len(cpu[name]["vmaf_frames"]), 10)
            self.assertLess(cpu[name]["scores"]["vmaf_mean"], 99)  # the renditions differ from the source


if __name__ == "__main__":
    unittest.main()
