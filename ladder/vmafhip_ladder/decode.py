"""Where a worker's ffmpeg decodes each input: on the GPU's video decoder (NVDEC, through
ffmpeg's cuda hwaccel) or on the CPU.

NVDEC is used on a worker pinned to a GPU (VMAFHIP_DEVICE=k, see placement), when its ffmpeg
has the cuda hwaccel and the machine an NVIDIA driver, for the codecs and pixel formats NVDEC
decodes; every other input is decoded on the CPU. VMAFHIP_DECODE=cpu turns NVDEC off on a
worker, VMAFHIP_DECODE=nvdec asks for it on any worker (device 0 unless pinned). The frames
come back to system memory in NVDEC's semi-planar layout (nv12, p010le), which the filter takes
as it is; both inputs of a filter instance are brought to the source's decoded format, so each
is converted at most once, and a decoder's output is the same picture in either layout, so the
scores do not depend on where the frames were decoded (NVDEC is a conforming decoder: its
pictures are the software decoder's, bit for bit).
"""

import functools
import os
import subprocess
from dataclasses import dataclass

from .errors import RenditionFailed
from .placement import from_environ

MODES = ("auto", "cpu", "nvdec")
# Codecs NVDEC decodes (FFmpeg's *_nvdec hwaccels) and the 4:2:0 formats it returns to system
# memory; 4:2:2 and 4:4:4 streams, and any other codec, are decoded on the CPU.
NVDEC_CODECS = frozenset({"h264", "hevc", "av1", "vp9", "vp8", "mpeg1video", "mpeg2video",
                          "mpeg4", "vc1", "mjpeg"})
NVDEC_FORMATS = {"yuv420p": "nv12", "yuvj420p": "nv12", "yuv420p10le": "p010le"}
NVIDIA_DRIVER = "/dev/nvidiactl"


@dataclass(frozen=True)
class Decoder:
    """How one input is decoded: gpu None for the CPU, else the NVDEC of GPU `gpu`."""
    gpu: int | None = None

    @property
    def name(self):
        return "cpu" if self.gpu is None else "nvdec"

    def input_args(self):
        """ffmpeg options before the input's -i."""
        return [] if self.gpu is None else ["-hwaccel", "cuda", "-hwaccel_device", str(self.gpu)]

    def output_format(self, pix_fmt):
        """The pixel format the decoded frames of a `pix_fmt` stream come in."""
        return pix_fmt if self.gpu is None else NVDEC_FORMATS[pix_fmt]


CPU = Decoder()


@functools.lru_cache(maxsize=None)
def has_cuda_hwaccel(ffmpeg):
    """True when `ffmpeg` lists the cuda hwaccel (it was built with NVDEC)."""
    try:
        proc = subprocess.run([ffmpeg, "-hide_banner", "-hwaccels"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, errors="replace", timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return proc.returncode == 0 and "cuda" in proc.stdout.split()


def worker_gpu(ffmpeg, environ=None):
    """The GPU whose NVDEC this worker's ffmpeg may use, or None (decode on the CPU)."""
    environ = os.environ if environ is None else environ
    mode = environ.get("VMAFHIP_DECODE", "").strip() or "auto"
    if mode not in MODES:
        raise RenditionFailed(f"worker misconfigured: VMAFHIP_DECODE={mode!r}; accepted: {', '.join(MODES)}")
    if mode == "cpu":
        return None
    pinned = environ.get("VMAFHIP_DEVICE", "").strip() != ""
    if mode == "auto" and not (pinned and os.path.exists(NVIDIA_DRIVER)):
        return None
    if not has_cuda_hwaccel(ffmpeg):
        if mode == "nvdec":
            raise RenditionFailed(f"VMAFHIP_DECODE=nvdec, but {ffmpeg} has no cuda hwaccel "
                                  "(build it with tools/build-ffmpeg --bench --nvdec DIR)")
        return None
    return from_environ(environ)[1]


def exact_scaling(scale_flags):
    """Whether swscale with `scale_flags` scales nv12 exactly as the planar format: with
    accurate_rnd and full_chroma_int it does; plain bicubic takes other paths for interleaved
    chroma, and rounds differently (measured: thousands of samples per 1080p frame)."""
    flags = scale_flags.split("+")
    return "accurate_rnd" in flags and "full_chroma_int" in flags


def choose(gpu, info, scale_flags):
    """The decoder of an input that ffprobe described as `info` (codec, pix_fmt), for a graph
    scaling with `scale_flags`: NVDEC only where its frames score as the CPU's would."""
    if (gpu is not None and info.codec in NVDEC_CODECS and info.pix_fmt in NVDEC_FORMATS
            and exact_scaling(scale_flags)):
        return Decoder(gpu)
    return CPU
