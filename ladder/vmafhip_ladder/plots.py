"""A title's plots: the ladder's rate-quality curves and hull, and each rendition's vmaf over time."""

import matplotlib

matplotlib.use("Agg")  # files only; workers and CI have no display

import matplotlib.pyplot as plt  # noqa: E402

from . import atomic  # noqa: E402


def _save(fig, path):
    with atomic.staged(path) as tmp:
        fig.savefig(tmp, format="png", dpi=100)
    plt.close(fig)


def _pixels(size):
    width, height = size.split("x")
    return int(width) * int(height)


def rate_quality(path, title, rows, anchor=None):
    """vmaf mean against bitrate: one curve per resolution (renditions of that size in bitrate
    order), the convex hull over all of them (rows' on_hull), and the anchor ladder, (label,
    (bitrate_kbps, vmaf) points), when there is one; renditions labelled."""
    fig, ax = plt.subplots(figsize=(8, 5))
    sizes = sorted({r["size"] for r in rows}, key=_pixels, reverse=True)
    for size in sizes:
        curve = sorted((r for r in rows if r["size"] == size), key=lambda r: r["bitrate_kbps"])
        ax.plot([r["bitrate_kbps"] for r in curve], [r["vmaf_mean"] for r in curve], marker="o",
                linewidth=1, label=size)
    hull = sorted((r for r in rows if r.get("on_hull")), key=lambda r: r["bitrate_kbps"])
    if hull:
        ax.plot([r["bitrate_kbps"] for r in hull], [r["vmaf_mean"] for r in hull], color="black",
                linestyle="--", linewidth=1.5, marker="s", markerfacecolor="none", markersize=9,
                label="convex hull")
    if anchor is not None and anchor[1]:
        label, points = anchor
        ax.plot([p[0] for p in points], [p[1] for p in points], color="grey", linestyle=":",
                marker="x", label=f"anchor: {label}")
    for r in rows:
        ax.annotate(r["rendition"], (r["bitrate_kbps"], r["vmaf_mean"]), textcoords="offset points",
                    xytext=(5, -12), fontsize=8)
    ax.set_xscale("log")
    ax.margins(x=0.15, y=0.1)  # room for the labels of the end points
    ax.set_xlabel("bitrate (kbit/s)")
    ax.set_ylabel("VMAF (mean)")
    ax.set_title(f"{title}: rate-quality")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="best")
    _save(fig, path)


def vmaf_over_time(path, title, per_frame):
    """One line per rendition: `per_frame` maps rendition name to its per-frame vmaf."""
    fig, ax = plt.subplots(figsize=(9, 4.5))
    for name, values in per_frame.items():
        ax.plot(range(len(values)), values, label=name, linewidth=1)
    ax.set_xlabel("frame")
    ax.set_ylabel("VMAF")
    ax.set_title(f"{title}: VMAF per frame")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    _save(fig, path)
