"""A title's summary table: one row per rendition, written as CSV and JSON."""

import csv
import io
import os

from . import atomic

BASENAME = "summary"   # summary.json, summary.csv

COLUMNS = ("rendition", "size", "frames", "bitrate_kbps", "vmaf_mean", "vmaf_harmonic_mean",
           "vmaf_1pct_low", "vmaf_p1", "vmaf_p5", "vmaf_min", "psnr_y_mean", "float_ssim_mean",
           "status", "error")


def row(name, result):
    """The summary row of rendition `name` from its score task's result."""
    if not result["ok"]:
        return {**{c: None for c in COLUMNS}, "rendition": name, "status": "failed",
                "error": result["error"]}
    return {"rendition": name, "size": f"{result['width']}x{result['height']}",
            "frames": result["frames"], "bitrate_kbps": result["bitrate_kbps"], **result["scores"],
            "status": "ok", "error": None}


def write(folder, title, rows):
    """summary.json and summary.csv in `folder`, renditions in plan order."""
    base = os.path.join(folder, BASENAME)
    atomic.write_json(f"{base}.json", {"title": title, "columns": list(COLUMNS), "renditions": rows})
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: ("" if v is None else v) for k, v in r.items()} for r in rows)
    atomic.write_bytes(f"{base}.csv", text.getvalue().encode())
