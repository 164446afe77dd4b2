"""Encoding a rendition from its source (a Dask task)."""

import os

from . import __version__, atomic, manifest
from .errors import reporting_failures
from .media import identity, require_file
from .tools import locate, run


def command(ffmpeg, source, encode, output):
    scale = f"scale={encode.width}:{encode.height}:flags={encode.scale_flags}"
    return [ffmpeg, "-nostdin", "-y", "-v", "error", *source.input_args(), "-i", source.path,
            "-vf", scale, *encode.args, output]


@reporting_failures
def encode_task(title, rendition, ffmpeg):
    """Encode `rendition` of `title` unless an intact encode from the same source and args exists.

    Returns {"ok": True, "reused": bool} or a failure.
    """
    source, output = title.source, rendition.video.path
    require_file(source.path, "source")
    os.makedirs(os.path.dirname(output), exist_ok=True)
    recipe = command("ffmpeg", source, rendition.encode, os.path.basename(output))
    work = manifest.key(tool=__version__, source=identity(source.path), command=recipe)
    if manifest.check(output, work) is not None:
        return {"ok": True, "reused": True}
    ffmpeg, _ = locate(ffmpeg)
    atomic.remove_stale(output)
    with atomic.staged(output) as tmp:
        run(command(ffmpeg, source, rendition.encode, tmp), f"encoding {rendition.name}")
    manifest.write(output, work, command=recipe)
    return {"ok": True, "reused": False}
