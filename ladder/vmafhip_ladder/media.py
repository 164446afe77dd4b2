"""Input videos: how ffmpeg opens them, what ffprobe says about them, and their identity."""

import hashlib
import json
import os
import stat
from dataclasses import dataclass
from fractions import Fraction

from .errors import RenditionFailed
from .tools import run

RAW_SUFFIXES = (".yuv", ".raw")
HEAD_BYTES = 1 << 20


@dataclass(frozen=True)
class Video:
    """A video file; raw files carry the geometry their missing header would have said."""
    path: str
    width: int | None = None
    height: int | None = None
    pix_fmt: str | None = None
    framerate: str | None = None

    @property
    def raw(self):
        return self.width is not None

    def input_args(self):
        """ffmpeg/ffprobe options that go before `-i path`."""
        if not self.raw:
            return []
        return ["-f", "rawvideo", "-video_size", f"{self.width}x{self.height}",
                "-pixel_format", self.pix_fmt, "-framerate", self.framerate]


@dataclass(frozen=True)
class Probe:
    width: int
    height: int
    pix_fmt: str
    frames: int
    duration: float     # seconds
    bytes: int


def require_file(path, role):
    """Raise RenditionFailed unless `path` is a regular file (a device or a pipe has no size,
    time or content to identify it by, and a folder is no video)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise RenditionFailed(f"{role} not found: {path}") from None
    except OSError as e:
        raise RenditionFailed(f"{role} {path}: cannot read it: {e.strerror}") from None
    if not stat.S_ISREG(st.st_mode):
        kind = ("a folder" if stat.S_ISDIR(st.st_mode) else
                "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else
                "a pipe" if stat.S_ISFIFO(st.st_mode) else "a socket")
        raise RenditionFailed(f"{role} {path} is {kind}, not a regular file: give a video file")


def probe(ffprobe, video, role):
    """Size, pixel format, frame count (packets, so nothing is decoded) and duration of `video`."""
    require_file(video.path, role)
    out = run([ffprobe, "-v", "error", *video.input_args(), "-i", video.path, "-select_streams", "v:0",
               "-count_packets", "-show_entries",
               "stream=width,height,pix_fmt,nb_read_packets,avg_frame_rate,r_frame_rate:format=duration",
               "-of", "json"], f"reading {role} {video.path}")
    try:
        info = json.loads(out)
        stream = info["streams"][0]
        width, height = int(stream["width"]), int(stream["height"])
        frames = int(stream["nb_read_packets"])
    except (ValueError, KeyError, IndexError, TypeError):
        raise RenditionFailed(f"{role} {video.path} has no readable video stream") from None
    if frames == 0:
        raise RenditionFailed(f"{role} {video.path} has no frames")
    return Probe(width, height, stream.get("pix_fmt", ""), frames,
                 _duration(info, stream, frames), os.path.getsize(video.path))


def _duration(info, stream, frames):
    try:
        seconds = float(info["format"]["duration"])
        if seconds > 0:
            return seconds
    except (KeyError, ValueError, TypeError):
        pass
    # No container duration (some raw streams): frames over the frame rate.
    for key in ("avg_frame_rate", "r_frame_rate"):
        try:
            rate = Fraction(stream[key])
        except (KeyError, ValueError, ZeroDivisionError):
            continue
        if rate > 0:
            return float(frames / rate)
    raise RenditionFailed("cannot tell the duration (no container duration, no frame rate)")


def identity(path):
    """What a file is, cheaply: path, size, mtime and the hash of its first MiB.

    Used to decide whether a result made from this file is still valid; a rewrite changes the
    mtime, and an in-place edit at the start changes the hash.
    """
    st = os.stat(path)
    h = hashlib.sha256()
    with open(path, "rb") as f:
        h.update(f.read(HEAD_BYTES))
    return {"path": os.path.abspath(path), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
            "head_sha256": h.hexdigest()}


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()
