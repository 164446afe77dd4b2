"""Scoring one rendition against its source with the libvmaf_hip filter (a Dask task)."""

import os

from . import __version__, atomic, manifest, placement, vmaflog
from .errors import RenditionFailed, reporting_failures
from .media import identity, probe, rate_text, require_file, same_rate
from .tools import locate, run


def align(time_base):
    """Frame n of either input gets time n in one time base, so the filter pairs frame n of the
    rendition with frame n of the source. Pairing by the files' own times goes wrong when their
    containers round times differently: Matroska's milliseconds put every third frame of 24 fps
    0.3 ms after MP4's exact times, and the filter pairs each rendition frame with the last source
    frame not later than it, so with the frame before."""
    return f"settb={time_base},setpts=N"


def filter_graph(width, height, pix_fmt, time_base, scale_flags, model, log_name, placing):
    """The rendition (input 0) is scaled back to the source's size and pixel format, as for VMAF."""
    # '\\:' survives the graph parser as '\:', which the option parser reads as ':' inside model=.
    vmaf = (f"libvmaf_hip=model=version={model}\\\\:name=vmaf:feature={'|'.join(vmaflog.FEATURES)}"
            f":log_fmt=json:log_path={log_name}"
            + (f":{placing}" if placing else ""))
    return (f"[0:v]{align(time_base)},scale={width}:{height}:flags={scale_flags},format={pix_fmt}"
            f"[dis];[1:v]{align(time_base)}[ref];[dis][ref]{vmaf}")


def command(ffmpeg, dis, ref, graph):
    return [ffmpeg, "-nostdin", "-v", "error", *dis.input_args(), "-i", dis.path,
            *ref.input_args(), "-i", ref.path, "-lavfi", graph, "-f", "null", "-"]


def _result(per_frame, pooled, facts, reused):
    return {"ok": True, "reused": reused, **facts, "scores": vmaflog.scores(per_frame, pooled),
            "vmaf_frames": per_frame}


@reporting_failures
def score_task(title, rendition, log_path, model, scale_flags, ffmpeg, encoded=None):
    """Score `rendition` into `log_path` unless an intact log for the same inputs exists.

    `encoded` is the encode task's result for encoded renditions; its failure is passed on.
    Returns {"ok": True, "reused", "width", "height", "frames", "bitrate_kbps", "scores",
    "vmaf_frames"} or a failure.
    """
    if encoded is not None and not encoded["ok"]:
        return encoded
    source, dis = title.source, rendition.video
    for role, video in (("source", source), ("rendition", dis)):
        require_file(video.path, role)
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    log_name = os.path.basename(log_path)

    # The work key leaves out ffmpeg's path and the backend/device: results do not depend on them.
    # The source's geometry is covered by its identity, so it stays a placeholder here.
    template = filter_graph("W", "H", "PIX_FMT", "1/RATE", scale_flags, model, log_name, "")
    recipe = command("ffmpeg", dis, source, template)
    inputs = {"source": identity(source.path), "rendition": identity(dis.path)}
    work = manifest.key(tool=__version__, inputs=inputs, command=recipe, size=rendition.size)
    done = manifest.check(log_path, work)
    if done is not None:
        try:
            per_frame, pooled = vmaflog.read(log_path, done["frames"])
            return _result(per_frame, pooled, done["facts"], reused=True)
        except (vmaflog.LogError, KeyError):
            pass  # an old or damaged manifest: score again

    ffmpeg, ffprobe = locate(ffmpeg)
    ref_info = probe(ffprobe, source, "source")
    dis_info = probe(ffprobe, dis, "rendition")
    if rendition.size and (dis_info.width, dis_info.height) != rendition.size:
        raise RenditionFailed(f"size mismatch: {dis.path} is {dis_info.width}x{dis_info.height}, "
                              f"the plan says {rendition.size[0]}x{rendition.size[1]}")
    if not same_rate(dis_info.rate, ref_info.rate):
        raise RenditionFailed(f"frame rate mismatch: the rendition is {rate_text(dis_info.rate)} fps, "
                              f"the source {rate_text(ref_info.rate)} fps; frames are scored by "
                              "position, so a rendition keeps its source's frame rate (encode "
                              "without -r or fps=, or score against a source at the rendition's rate)")
    if dis_info.frames != ref_info.frames:
        raise RenditionFailed(f"frame count mismatch: the rendition has {dis_info.frames} frames, "
                              f"the source {ref_info.frames}; frames are scored by position, so a "
                              "rendition has every frame of its source (none cut, dropped or added)")

    atomic.remove_stale(log_path)
    folder = os.path.dirname(log_path)
    with atomic.staged(log_path) as tmp:
        # Run in the results folder with a bare file name: no path escaping in the filter graph.
        time_base = 1 / ref_info.rate
        graph = filter_graph(ref_info.width, ref_info.height, ref_info.pix_fmt,
                             f"{time_base.numerator}/{time_base.denominator}", scale_flags, model,
                             os.path.basename(tmp),
                             placement.filter_options(*placement.from_environ()))
        run(command(ffmpeg, dis, source, graph), f"scoring {rendition.name}", cwd=folder)
        try:
            per_frame, pooled = vmaflog.read(tmp, dis_info.frames)
        except vmaflog.LogError as e:
            raise RenditionFailed(f"scoring {rendition.name}: {e}") from None
    facts = {"width": dis_info.width, "height": dis_info.height, "frames": dis_info.frames,
             "bitrate_kbps": round(dis_info.bytes * 8 / dis_info.duration / 1000, 3)}
    manifest.write(log_path, work, frames=dis_info.frames, facts=facts, command=recipe, inputs=inputs)
    return _result(per_frame, pooled, facts, reused=False)

