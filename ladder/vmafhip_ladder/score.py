"""Scoring a title's renditions against its source with the libvmaf_hip filter (a Dask task).

One ffmpeg per title decodes the source once and scores every rendition that needs scoring
in a filter graph of its own, with a filter instance and a log of its own. Inputs are decoded
on the worker's GPU (NVDEC) where it can (see decode), else on the CPU; a run that fails with
NVDEC runs again on the CPU.
"""

import os
from contextlib import ExitStack
from dataclasses import dataclass

from . import __version__, atomic, decode, manifest, placement, vmaflog
from .errors import RenditionFailed, failure
from .media import Probe, identity, probe, rate_text, require_file, same_rate
from .plan import Rendition
from .tools import locate, run


def align(time_base):
    """Frame n of either input gets time n in one time base, so the filter pairs frame n of the
    rendition with frame n of the source. Pairing by the files' own times goes wrong when their
    containers round times differently: Matroska's milliseconds put every third frame of 24 fps
    0.3 ms after MP4's exact times, and the filter pairs each rendition frame with the last source
    frame not later than it, so with the frame before."""
    return f"settb={time_base},setpts=N"


def _vmaf(model, metrics, log_name, placing, instance=""):
    # '\\:' survives the graph parser as '\:', which the option parser reads as ':' inside model=.
    return (f"libvmaf_hip{instance}=model=version={model}\\\\:name=vmaf"
            f":feature={'|'.join(vmaflog.features(metrics))}:log_fmt=json:log_path={log_name}"
            + (f":{placing}" if placing else ""))


def _upscale(index, width, height, pix_fmt, time_base, scale_flags):
    """Input `index`, a rendition, scaled back to the source's size and pixel format, as for VMAF."""
    return (f"[{index}:v]{align(time_base)},scale={width}:{height}:flags={scale_flags},"
            f"format={pix_fmt}")


def _source(index, pix_fmt, time_base):
    """Input `index`, the source, in `pix_fmt`: the format it is decoded in (nv12 from NVDEC),
    which the renditions are brought to as well, so that nothing is converted twice."""
    return f"[{index}:v]{align(time_base)},format={pix_fmt}"


def filter_graph(width, height, pix_fmt, time_base, scale_flags, model, metrics, log_name, placing):
    """One rendition (input 0) against the source (input 1), scored with the model and the
    extractors of the score set `metrics` (vmaflog.METRIC_SETS)."""
    return (f"{_upscale(0, width, height, pix_fmt, time_base, scale_flags)}[dis];"
            f"{_source(1, pix_fmt, time_base)}[ref];"
            f"[dis][ref]{_vmaf(model, metrics, log_name, placing)}")


def rendition_inputs(index, source, width, height, pix_fmt, time_base, scale_flags):
    """The head of rendition `index`'s graph in `title_graphs`: the rendition as scored, [disK],
    and input `source`, the source, [refK]."""
    return (f"{_upscale(index, width, height, pix_fmt, time_base, scale_flags)}[dis{index}];"
            f"{_source(source, pix_fmt, time_base)}[ref{index}]")


def title_graphs(width, height, pix_fmt, time_base, scale_flags, model, metrics, logs, placing):
    """Renditions (inputs 0 to n-1) against the source (input n), decoded once: a filter graph
    per rendition, each given the source's decoded frames.

    ffmpeg runs each filter graph in a thread of its own. In one graph, one thread would scale
    and score the renditions one after another, and the whole title would wait on it.
    `logs` holds (rendition name, log file name) per input; instance k, `libvmaf_hip@NAME`,
    scores input k into its log and gives its frames to the output pad [oK].
    """
    n = len(logs)
    return [f"{rendition_inputs(k, n, width, height, pix_fmt, time_base, scale_flags)};"
            f"[dis{k}][ref{k}]{_vmaf(model, metrics, log_name, placing, f'@{name}')}[o{k}]"
            for k, (name, log_name) in enumerate(logs)]


def _input(video, decoder):
    return [*decoder.input_args(), *video.input_args(), "-i", video.path]


def command(ffmpeg, dis, ref, graph, decoders=(decode.CPU, decode.CPU)):
    """`filter_graph`'s ffmpeg; `decoders` decode the rendition and the source."""
    return [ffmpeg, "-nostdin", "-v", "error", *_input(dis, decoders[0]), *_input(ref, decoders[1]),
            "-lavfi", graph, "-f", "null", "-"]


def title_command(ffmpeg, renditions, ref, graphs, decoders=None):
    """`title_graphs`' ffmpeg: every instance's output pad goes to a null output of its own.
    `decoders` decode the renditions, then the source (default: all on the CPU)."""
    decoders = decoders or [decode.CPU] * (len(renditions) + 1)
    inputs = [arg for dis, dec in zip(renditions, decoders) for arg in _input(dis, dec)]
    outputs = [arg for k in range(len(renditions)) for arg in ("-map", f"[o{k}]", "-f", "null", "-")]
    return [ffmpeg, "-nostdin", "-v", "error", *inputs, *_input(ref, decoders[-1]),
            *(arg for graph in graphs for arg in ("-lavfi", graph)), *outputs]


@dataclass
class _Job:
    """A rendition to score: where its log goes, the work key its manifest must hold, and what
    ffprobe says of it."""
    rendition: Rendition
    log_path: str
    work: str
    recipe: list
    inputs: dict
    info: Probe | None = None


def _result(per_frame, pooled, metrics, facts, reused):
    return {"ok": True, "reused": reused, **facts,
            "scores": vmaflog.scores(per_frame, pooled, metrics), "vmaf_frames": per_frame}


def _prepare(title, rendition, log_path, model, scale_flags, encoded):
    """A result when the rendition needs no scoring (reused, or its encode failed), else a _Job."""
    if encoded is not None and not encoded["ok"]:
        return encoded
    source, dis = title.source, rendition.video
    for role, video in (("source", source), ("rendition", dis)):
        require_file(video.path, role)
    # The work key leaves out ffmpeg's path and the backend/device: results do not depend on them,
    # nor on which renditions share the ffmpeg run. The source's geometry is covered by its
    # identity, so it stays a placeholder here.
    template = filter_graph("W", "H", "PIX_FMT", "1/RATE", scale_flags, model, title.metrics,
                            os.path.basename(log_path), "")
    recipe = command("ffmpeg", dis, source, template)
    inputs = {"source": identity(source.path), "rendition": identity(dis.path)}
    work = manifest.key(tool=__version__, inputs=inputs, command=recipe, size=rendition.size)
    done = manifest.check(log_path, work)
    if done is not None:
        try:
            per_frame, pooled = vmaflog.read(log_path, done["frames"], title.metrics)
            return _result(per_frame, pooled, title.metrics, done["facts"], reused=True)
        except (vmaflog.LogError, KeyError):
            pass  # an old or damaged manifest: score again
    return _Job(rendition, log_path, work, recipe, inputs)


def _check(job, ref_info):
    """Refuse a rendition that cannot be paired frame by frame with its source."""
    dis, dis_info, size = job.rendition.video, job.info, job.rendition.size
    if size and (dis_info.width, dis_info.height) != size:
        raise RenditionFailed(f"size mismatch: {dis.path} is {dis_info.width}x{dis_info.height}, "
                              f"the plan says {size[0]}x{size[1]}")
    if not same_rate(dis_info.rate, ref_info.rate):
        raise RenditionFailed(f"frame rate mismatch: the rendition is {rate_text(dis_info.rate)} fps, "
                              f"the source {rate_text(ref_info.rate)} fps; frames are scored by "
                              "position, so a rendition keeps its source's frame rate (encode "
                              "without -r or fps=, or score against a source at the rendition's rate)")
    if dis_info.frames != ref_info.frames:
        raise RenditionFailed(f"frame count mismatch: the rendition has {dis_info.frames} frames, "
                              f"the source {ref_info.frames}; frames are scored by position, so a "
                              "rendition has every frame of its source (none cut, dropped or added)")


def _decoded(dis_decoder, source_decoder, fallback):
    """The summary's word for where a rendition and its source were decoded: nvdec, cpu,
    nvdec/cpu (rendition/source), or cpu with the reason NVDEC was given up."""
    if fallback:
        return f"cpu (NVDEC failed: {fallback})"
    if dis_decoder == source_decoder:
        return dis_decoder.name
    return f"{dis_decoder.name}/{source_decoder.name}"


def _score(ffmpeg, title, ref_info, jobs, model, scale_flags, gpu=None):
    """Score `jobs`, renditions of `title`, in one ffmpeg run, decoding on GPU `gpu`'s NVDEC
    what it can (None: the CPU). Should a run with NVDEC fail (no driver, a stream it refuses),
    it runs again with every input decoded on the CPU. Returns {name: result}; raises
    RenditionFailed, writing no log, when the run or any of its logs fails."""
    decoders = ([decode.choose(gpu, job.info, scale_flags) for job in jobs]
                + [decode.choose(gpu, ref_info, scale_flags)])
    if all(d == decode.CPU for d in decoders):
        return _score_once(ffmpeg, title, ref_info, jobs, model, scale_flags, decoders)
    try:
        return _score_once(ffmpeg, title, ref_info, jobs, model, scale_flags, decoders)
    except RenditionFailed as e:
        reason = (e.detail or e.message).strip().splitlines()[-1][:120]
    return _score_once(ffmpeg, title, ref_info, jobs, model, scale_flags, [decode.CPU] * len(decoders),
                       fallback=reason)


def _score_once(ffmpeg, title, ref_info, jobs, model, scale_flags, decoders, fallback=None):
    """One ffmpeg run of `jobs`; `decoders` decode the renditions, then the source; `fallback`,
    the reason NVDEC was given up, or None."""
    folder = os.path.dirname(jobs[0].log_path)
    time_base = 1 / ref_info.rate
    geometry = (ref_info.width, ref_info.height, decoders[-1].output_format(ref_info.pix_fmt),
                f"{time_base.numerator}/{time_base.denominator}", scale_flags, model, title.metrics)
    placing = placement.filter_options(*placement.from_environ())
    names = ", ".join(job.rendition.name for job in jobs)
    for job in jobs:
        atomic.remove_stale(job.log_path)
    with ExitStack() as staging:
        # Run in the results folder with bare file names: no path escaping in the filter graph.
        tmps = [os.path.basename(staging.enter_context(atomic.staged(job.log_path))) for job in jobs]
        if len(jobs) == 1:
            cmd = command(ffmpeg, jobs[0].rendition.video, title.source,
                          filter_graph(*geometry, tmps[0], placing), decoders)
        else:
            graphs = title_graphs(*geometry, [(job.rendition.name, tmp) for job, tmp in zip(jobs, tmps)],
                                  placing)
            cmd = title_command(ffmpeg, [job.rendition.video for job in jobs], title.source, graphs,
                                decoders)
        run(cmd, f"scoring {names}", cwd=folder)
        logs = {}
        for job, tmp in zip(jobs, tmps):
            try:
                logs[job.rendition.name] = vmaflog.read(os.path.join(folder, tmp), job.info.frames,
                                                        title.metrics)
            except vmaflog.LogError as e:
                raise RenditionFailed(f"scoring {job.rendition.name}: {e}") from None
    results = {}
    for job, decoder in zip(jobs, decoders):
        info = job.info
        facts = {"width": info.width, "height": info.height, "frames": info.frames,
                 "bitrate_kbps": round(info.bytes * 8 / info.duration / 1000, 3),
                 "decode": _decoded(decoder, decoders[-1], fallback)}
        manifest.write(job.log_path, job.work, frames=info.frames, facts=facts, command=job.recipe,
                       inputs=job.inputs)
        results[job.rendition.name] = _result(*logs[job.rendition.name], title.metrics, facts,
                                              reused=False)
    return results


def _score_all(ffmpeg, title, jobs, model, scale_flags):
    """{name: result} for `jobs`, renditions of `title`: the source is probed once (and refused,
    failing them all, when the title's metrics cannot score its frames), each rendition
    checked, and those that pass scored together; should that run fail, one by one, so the
    failing one is named."""
    try:
        ffmpeg, ffprobe = locate(ffmpeg)
        gpu = decode.worker_gpu(ffmpeg)
        ref_info = probe(ffprobe, title.source, "source")
        # Renditions are scored at the source's size and format.
        problem = vmaflog.frame_problem(title.metrics, ref_info.width, ref_info.height,
                                        ref_info.pix_fmt)
        if problem:
            raise RenditionFailed(f"source {title.source.path}: {problem}")
    except RenditionFailed as e:
        return {job.rendition.name: failure(e.message, e.detail) for job in jobs}
    results, ready = {}, []
    for job in jobs:
        try:
            job.info = probe(ffprobe, job.rendition.video, "rendition")
            _check(job, ref_info)
            ready.append(job)
        except RenditionFailed as e:
            results[job.rendition.name] = failure(e.message, e.detail)
    if len(ready) > 1:
        try:
            return results | _score(ffmpeg, title, ref_info, ready, model, scale_flags, gpu)
        except RenditionFailed:
            pass
    for job in ready:
        try:
            results |= _score(ffmpeg, title, ref_info, [job], model, scale_flags, gpu)
        except RenditionFailed as e:
            results[job.rendition.name] = failure(e.message, e.detail)
    return results


def score_title(title, folder, model, scale_flags, ffmpeg, encoded=None):
    """Score the renditions of `title` into `folder`/NAME.json with the title's score set
    (`title.metrics`), skipping those with an intact log for the same inputs.

    `encoded` holds, per rendition of the title in order, the encode task's result (None for an
    existing file); a failed encode is passed on. Returns {rendition name: result}, in plan order,
    each {"ok": True, "reused", "width", "height", "frames", "bitrate_kbps", "scores",
    "vmaf_frames"} or a failure: one rendition failing does not fail the others.
    """
    encoded = encoded or [None] * len(title.renditions)
    results, jobs = {}, []
    os.makedirs(folder, exist_ok=True)
    for rendition, encode in zip(title.renditions, encoded):
        log_path = os.path.join(folder, f"{rendition.name}.json")
        try:
            outcome = _prepare(title, rendition, log_path, model, scale_flags, encode)
        except RenditionFailed as e:
            outcome = failure(e.message, e.detail)
        if isinstance(outcome, _Job):
            jobs.append(outcome)
        else:
            results[rendition.name] = outcome
    if jobs:
        results |= _score_all(ffmpeg, title, jobs, model, scale_flags)
    return {rendition.name: results[rendition.name] for rendition in title.renditions}
