"""Running a plan on a Dask client: submit the tasks, follow them, write each title's results."""

import os
import uuid
from dataclasses import dataclass, field

from distributed import as_completed

from . import plots, summary
from .cluster import has_gpu_workers
from .encode import encode_task
from .errors import PlanError, failure
from .progress import Progress
from .score import score_title

# Retries for tasks that raise (not for failed renditions, which return). A worker that dies
# mid-task is handled by the scheduler itself: it reschedules the task elsewhere, up to its
# distributed.scheduler.allowed-failures times.
RETRIES = 2


@dataclass
class Report:
    results: dict   # (title, rendition) -> score task result
    titles: dict = field(default_factory=dict)  # title -> its hull and BD-rate (summary.rate_quality)
    unwritten: list = field(default_factory=list)   # "title: why" for summaries not written

    def failures(self):
        return [(key, r) for key, r in self.results.items() if not r["ok"]]

    def counts(self):
        ok = [r for r in self.results.values() if r["ok"]]
        reused = sum(r["reused"] for r in ok)
        return {"scored": len(ok) - reused, "reused": reused,
                "failed": len(self.results) - len(ok)}


def _key(kind, name):
    return f"{kind}-{name}-{uuid.uuid4().hex[:8]}"


def _outcome(future):
    """The task's result, or a failure for a task that raised, whose workers kept dying (the
    scheduler's KilledWorker) or that was cancelled."""
    if future.status == "error":
        exc = future.exception()
        return failure(f"task error: {type(exc).__name__}: {exc}")
    if future.status != "finished":
        return failure(f"task {future.status}")
    return future.result()


def _title_outcome(future, title):
    """{rendition name: result} of a title's score task; a task that did not finish fails each."""
    outcome = _outcome(future)
    if future.status != "finished":
        return {rendition.name: outcome for rendition in title.renditions}
    return outcome


def submit(plan, client, ffmpeg):
    """Submit every encode task and one score task per title; return (all futures,
    {title name: (title, score future)})."""
    resources = {"GPU": 1} if has_gpu_workers(client) else None
    futures, scoring = [], {}
    for title in plan.titles:
        encoded = []
        for rendition in title.renditions:
            if rendition.encode is None:
                encoded.append(None)
                continue
            # Encoding needs no GPU: any worker may take it, GPU workers stay free to score. The
            # title's encodes run in parallel; its score task waits for them all.
            future = client.submit(encode_task, title, rendition, ffmpeg, retries=RETRIES,
                                   key=_key("encode", f"{title.name}/{rendition.name}"))
            futures.append(future)
            encoded.append(future)
        # One task per title: its ffmpeg decodes the source once for all its renditions.
        scored = client.submit(score_title, title, os.path.join(plan.output, title.name),
                               plan.model, plan.scale_flags, ffmpeg, encoded, resources=resources,
                               retries=RETRIES, key=_key("score", title.name))
        futures.append(scored)
        scoring[title.name] = (title, scored)
    return futures, scoring


def _anchor(plan, title, report):
    """(label, (bitrate_kbps, vmaf) points) of the title's anchor, or None."""
    anchor = title.anchor
    if anchor is None:
        return None
    if anchor.points is not None:
        return anchor.label, anchor.points
    other = next(t for t in plan.titles if t.name == anchor.title)
    rows = [summary.row(r.name, report.results[(other.name, r.name)], other.metrics)
            for r in other.renditions]
    return anchor.label, [(r["bitrate_kbps"], r["vmaf_mean"]) for r in summary.hull_rows(rows)]


def _blocking_file(folder):
    """The file that stands where `folder` or one of the folders above it should be, if any."""
    path = folder
    while path and not os.path.exists(path):
        path = os.path.dirname(path) if os.path.dirname(path) != path else ""
    return path if path and not os.path.isdir(path) else None


def prepare(plan):
    """Make every title's results folder and check it can be written, before anything runs.

    Raises PlanError naming the plan's 'output' (or --output), the folder and what is wrong.
    """
    for title in plan.titles:
        folder = os.path.join(plan.output, title.name)
        try:
            os.makedirs(folder, exist_ok=True)
            probe = os.path.join(folder, f".vmafhip-ladder-check-{uuid.uuid4().hex[:8]}")
            with open(probe, "wb"):
                pass
            os.remove(probe)
        except OSError as e:
            blocking = _blocking_file(folder)
            why = (f"{blocking} is a file, not a folder" if blocking is not None
                   else f"cannot write in {folder}: {e.strerror}")
            raise PlanError(f"{plan.path}: {plan.output_from}: {why}; the results folder must be "
                            "a folder this user can create and write") from None


def write_title(plan, title, report):
    """Write the title's summary and plots; return its hull and BD-rate (summary.rate_quality)."""
    folder = os.path.join(plan.output, title.name)
    os.makedirs(folder, exist_ok=True)
    results = [(r.name, report.results[(title.name, r.name)]) for r in title.renditions]
    rows = [summary.row(name, result, title.metrics) for name, result in results]
    anchor = _anchor(plan, title, report)
    analysis = summary.rate_quality(rows, anchor)
    summary.write(folder, title.name, rows, title.metrics, analysis)
    ok = [row for row in rows if row["status"] == "ok"]
    curve, frames = os.path.join(folder, "rate_quality.png"), os.path.join(folder, "vmaf_frames.png")
    if ok:
        plots.rate_quality(curve, title.name, ok, anchor)
        plots.vmaf_over_time(frames, title.name,
                             {name: r["vmaf_frames"] for name, r in results if r["ok"]})
    else:
        # Plots of an earlier run would contradict this run's summary.
        for path in (curve, frames):
            if os.path.exists(path):
                os.remove(path)
    return analysis


def run(plan, client, ffmpeg, progress_stream=None):
    """Score the whole plan; every rendition ends up scored, reused or failed (see Report)."""
    futures, scoring = submit(plan, client, ffmpeg)
    # One step per encode and one per rendition scored, as if each rendition had its own task.
    total = len(futures) - len(scoring) + sum(len(title.renditions) for title in plan.titles)
    progress = Progress(total, progress_stream)
    titles = {future.key: title for title, future in scoring.values()}
    results = {}
    for future in as_completed(futures):
        title = titles.get(future.key)
        if title is None:
            # A failed encode fails its rendition's score too: count renditions, not tasks.
            progress.step()
            continue
        for name, result in _title_outcome(future, title).items():
            results[(title.name, name)] = result
            progress.step(failed=not result["ok"])
    progress.close()
    report = Report({(title.name, r.name): results[(title.name, r.name)]
                     for title in plan.titles for r in title.renditions})
    for title in plan.titles:
        try:
            report.titles[title.name] = write_title(plan, title, report)
        except OSError as e:
            report.unwritten.append(f"{title.name}: {e.strerror} ({e.filename})")
    return report
