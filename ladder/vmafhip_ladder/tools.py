"""Finding and running ffmpeg and ffprobe on the machine that runs a task."""

import os
import shutil
import subprocess

from .errors import RenditionFailed

STDERR_TAIL_LINES = 20


def locate(ffmpeg):
    """Return (ffmpeg, ffprobe) as absolute paths; ffprobe is taken from ffmpeg's folder."""
    found = shutil.which(ffmpeg)
    if found is None:
        raise RenditionFailed(f"ffmpeg not found on this worker: {ffmpeg!r} "
                              "(give --ffmpeg PATH or set VMAFHIP_FFMPEG on the workers)")
    found = os.path.abspath(found)
    ffprobe = os.path.join(os.path.dirname(found), "ffprobe")
    if not os.access(ffprobe, os.X_OK):
        raise RenditionFailed(f"ffprobe not found beside {found} (it is needed to read sizes and durations)")
    return found, ffprobe


def tail(text, lines=STDERR_TAIL_LINES):
    return "\n".join(text.strip().splitlines()[-lines:])


def run(cmd, what, cwd=None):
    """Run `cmd`; return its stdout, or raise RenditionFailed with the stderr tail."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              errors="replace")
    except OSError as e:
        raise RenditionFailed(f"{what}: cannot run {cmd[0]}: {e.strerror}") from None
    if proc.returncode != 0:
        status = f"exit status {proc.returncode}" if proc.returncode > 0 else f"signal {-proc.returncode}"
        raise RenditionFailed(f"{what} failed ({status})", tail(proc.stderr))
    return proc.stdout


def has_filter(ffmpeg, name="libvmaf_hip"):
    """True when `ffmpeg` runs and knows the filter `name`."""
    try:
        proc = subprocess.run([ffmpeg, "-hide_banner", "-h", f"filter={name}"], stdin=subprocess.DEVNULL,
                              capture_output=True, text=True, errors="replace")
    except OSError:
        return False
    return proc.returncode == 0 and f"Filter {name}" in proc.stdout
