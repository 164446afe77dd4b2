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
# A constant frame rate's frames may each last one time-base tick more or less than 1/rate (times
# are rounded to the container's ticks: Matroska's are milliseconds), and 1 % of a frame besides.
RATE_SLACK = Fraction(1, 100)
# Rates this close are one rate: FFmpeg reads some from rounded times (Matroska's 59.94 fps is
# 19001/317); 23.976 and 24 fps are 1 in 1,000 apart.
SAME_RATE = Fraction(1, 10000)
# Demuxers whose files hold frames of one size at one rate, with no times of their own.
FIXED_FRAME_FORMATS = ("rawvideo", "yuv4mpegpipe")


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
    rate: Fraction      # frames per second, constant (checked on every frame's time)
    codec: str = ""     # ffprobe's codec_name: h264, hevc, rawvideo, ...


def same_rate(a, b):
    return abs(a - b) <= SAME_RATE * max(a, b)


def rate_text(rate):
    """25, 24000/1001 (23.976) and the like, as ffmpeg's -r takes them."""
    if rate.denominator == 1:
        return str(rate.numerator)
    return f"{rate.numerator}/{rate.denominator} ({float(rate):.3f})"


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
    """Size, pixel format, frame count, frame rate and duration of `video`. Raw video and y4m are
    counted from the file's size; other files from their packets (read, not decoded). Refuses a
    variable frame rate: frames are scored by position."""
    require_file(video.path, role)
    what = f"{role} {video.path}"
    entries = ("stream=codec_name,width,height,pix_fmt,avg_frame_rate,r_frame_rate,time_base,"
               "duration_ts:format=duration,format_name")
    if video.raw or video.path.lower().endswith(".y4m"):
        info = _ffprobe(ffprobe, video, entries, what)
        if info["format"].get("format_name") in FIXED_FRAME_FORMATS:
            return _fixed_frames(video, info, what)
    info = _ffprobe(ffprobe, video, entries + ":packet=pts,flags", what)
    stream = info["streams"][0]
    # Packets an edit list cuts off are read (flag D) but give no frame.
    packets = [p for p in info.get("packets", []) if "D" not in p.get("flags", "")]
    if not packets:
        raise RenditionFailed(f"{what} has no frames")
    rate = _constant_rate(stream, packets, what)
    return _probe(video, info, len(packets), rate)


def _ffprobe(ffprobe, video, entries, what):
    out = run([ffprobe, "-v", "error", *video.input_args(), "-i", video.path, "-select_streams", "v:0",
               "-show_entries", entries, "-of", "json"], f"reading {what}")
    try:
        info = json.loads(out)
        stream = info["streams"][0]
        int(stream["width"]), int(stream["height"])
        info.setdefault("format", {})
    except (ValueError, KeyError, IndexError, TypeError):
        raise RenditionFailed(f"{what} has no readable video stream") from None
    return info


def _fixed_frames(video, info, what):
    """Raw video and y4m: one frame size, one frame rate and no times of their own, so the frames
    are the file's size over a frame's (a torn last frame does not count, as ffmpeg decodes none),
    which the demuxer gives as the stream's duration in frames; nothing is read."""
    stream = info["streams"][0]
    rate, tb = _fraction(stream.get("r_frame_rate")), _fraction(stream.get("time_base"))
    try:
        frames = Fraction(int(stream["duration_ts"])) * tb * rate
    except (KeyError, TypeError, ValueError):
        frames = None
    if rate is None or frames is None or frames.denominator != 1:
        raise RenditionFailed(f"{what}: cannot tell its frame count and rate")
    if not frames:
        raise RenditionFailed(f"{what} has no frames")
    return _probe(video, info, int(frames), rate)


def _probe(video, info, frames, rate):
    stream = info["streams"][0]
    return Probe(int(stream["width"]), int(stream["height"]), stream.get("pix_fmt", ""), frames,
                 _duration(info, stream, frames), os.path.getsize(video.path), rate,
                 stream.get("codec_name", ""))


def _fraction(text):
    try:
        value = Fraction(text)
    except (TypeError, ValueError, ZeroDivisionError):
        return None
    return value if value > 0 else None


def _uneven_frame(times, tb, rate):
    """(index, seconds) of the first frame that does not last 1/rate, give or take a tick of the
    time base `tb` and RATE_SLACK of a frame; None when every frame does."""
    frame = 1 / (rate * tb)                                 # in ticks
    slack = 1 + frame * RATE_SLACK
    for i, (a, b) in enumerate(zip(times, times[1:])):
        if abs((b - a) - frame) > slack:
            return i, (b - a) * tb
    return None


def _constant_rate(stream, packets, what):
    """The frame rate of `packets`, which must be constant. FFmpeg's two guesses are tried on the
    packets' times in presentation order: r_frame_rate (which may be a field rate, twice the
    frame rate) and avg_frame_rate."""
    rates = [r for r in (_fraction(stream.get("r_frame_rate")), _fraction(stream.get("avg_frame_rate")))
             if r is not None]
    if not rates:
        raise RenditionFailed(f"{what}: cannot tell its frame rate: scoring pairs frames by "
                              "position and needs a constant frame rate")
    tb = _fraction(stream.get("time_base"))
    try:
        times = sorted(int(p["pts"]) for p in packets)
    except (KeyError, TypeError, ValueError):
        times = None    # no time on some packets (raw streams): nothing to check
    if tb is None or times is None:
        return rates[0]
    uneven = [_uneven_frame(times, tb, rate) for rate in rates]
    for rate, bad in zip(rates, uneven):
        if bad is None:
            return rate
    (i, lasts), rate = uneven[0], rates[0]
    raise RenditionFailed(
        f"{what} has a variable frame rate: frame {i} lasts {float(lasts) * 1000:.3f} ms, at "
        f"{rate_text(rate)} fps a frame lasts {float(1 / rate) * 1000:.3f} ms; frames are scored "
        "by position, so convert it to a constant frame rate first "
        f"(ffmpeg -i IN -fps_mode cfr -r {rate_text(rate).split()[0]} OUT)")


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
