"""A title's summary table: one row per rendition, written as CSV and JSON, with the title's
convex hull and its BD-rate against an anchor (see ratequality)."""

import csv
import io
import math
import os

from . import atomic, vmaflog
from .ratequality import BDRateError, bd_rate, convex_hull

BASENAME = "summary"   # summary.json, summary.csv

BD_DECIMALS = 4


def columns(metrics):
    """The summary's columns for the score set `metrics`: its pooled means follow vmaf's."""
    return ("rendition", "size", "frames", "bitrate_kbps", "vmaf_mean", "vmaf_harmonic_mean",
            "vmaf_1pct_low", "vmaf_p1", "vmaf_p5", "vmaf_min", *vmaflog.mean_columns(metrics),
            "on_hull", "bd_rate_pct", "decode", "status", "error")


def row(name, result, metrics):
    """The summary row of rendition `name` from its score task's result, scored with the set
    `metrics`."""
    if not result["ok"]:
        return {**{c: None for c in columns(metrics)}, "rendition": name, "status": "failed",
                "error": result["error"]}
    return {"rendition": name, "size": f"{result['width']}x{result['height']}",
            "frames": result["frames"], "bitrate_kbps": result["bitrate_kbps"], **result["scores"],
            "on_hull": None, "bd_rate_pct": None, "decode": result.get("decode"), "status": "ok",
            "error": None}


def hull_rows(rows):
    """The rows of the renditions on the convex hull of (bitrate, vmaf mean), in bitrate order."""
    ok = [r for r in rows if r["status"] == "ok"]
    return [ok[i] for i in convex_hull((r["bitrate_kbps"], r["vmaf_mean"], i)
                                       for i, r in enumerate(ok))]


def rate_quality(rows, anchor=None):
    """The title's hull and BD-rate; fills the rows' on_hull and bd_rate_pct.

    `anchor` is None or (label, [(bitrate_kbps, vmaf), ...]). Returns {"hull": rendition names in
    bitrate order, "bd_rate": None without an anchor, else {"anchor", "percent", "vmaf_low",
    "vmaf_high", "anchor_points", "ladder_points", "error"}}: percent is None, and error says
    why, when there is no BD-rate to give.
    """
    hull = hull_rows(rows)
    on_hull = {id(r) for r in hull}
    for r in rows:
        r["on_hull"] = id(r) in on_hull if r["status"] == "ok" else None
    result = {"hull": [r["rendition"] for r in hull], "bd_rate": None}
    if anchor is not None:
        label, points = anchor
        bd = {"anchor": label, "percent": None, "vmaf_low": None, "vmaf_high": None,
              "anchor_points": len(points), "ladder_points": len(hull), "error": None}
        try:
            found = bd_rate(points, [(r["bitrate_kbps"], r["vmaf_mean"]) for r in hull],
                            names=(f"anchor {label}", "ladder's convex hull"))
        except BDRateError as e:
            bd["error"] = str(e)
        else:
            bd.update(percent=round(found.percent, BD_DECIMALS), vmaf_low=found.vmaf_low,
                      vmaf_high=found.vmaf_high)
            for r in rows:
                r["bd_rate_pct"] = bd["percent"]
        result["bd_rate"] = bd
    return result


def describe(title, analysis):
    """One line on a title's hull and BD-rate, for the end of a run."""
    hull = analysis["hull"]
    text = f"{title}: convex hull " + (", ".join(hull) if hull else "empty (no rendition scored)")
    bd = analysis.get("bd_rate")
    if bd is not None:
        if bd["percent"] is None:
            text += f"; no BD-rate against {bd['anchor']}: {bd['error']}"
        else:
            text += (f"; BD-rate {bd['percent']:+.2f} % against {bd['anchor']} (vmaf "
                     f"{bd['vmaf_low']:.2f} to {bd['vmaf_high']:.2f}, {bd['ladder_points']} "
                     f"and {bd['anchor_points']} points)")
    return text


def _csv_value(value):
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return value   # an infinite mean (vmaflog.UNBOUNDED) is written inf


def _json_value(value):
    """JSON has no infinity: an infinite mean (vmaflog.UNBOUNDED, on identical frames) is null, as
    in the log; the row's status, ok, tells it from a failed rendition's."""
    return None if isinstance(value, float) and math.isinf(value) else value


def write(folder, title, rows, metrics, analysis=None):
    """summary.json and summary.csv in `folder`, renditions in plan order, with the columns of the
    score set `metrics`; `analysis` (from rate_quality) adds the title's hull and BD-rate to the
    JSON."""
    base = os.path.join(folder, BASENAME)
    names = columns(metrics)
    atomic.write_json(f"{base}.json", {
        "title": title, "metrics": metrics, "columns": list(names),
        "renditions": [{k: _json_value(v) for k, v in r.items()} for r in rows], **(analysis or {})})
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: _csv_value(v) for k, v in r.items()} for r in rows)
    atomic.write_bytes(f"{base}.csv", text.getvalue().encode())
