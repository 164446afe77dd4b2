"""A title's plots: the ladder's rate-quality curve and each rendition's vmaf over time."""

import matplotlib

matplotlib.use("Agg")  # files only; workers and CI have no display

import matplotlib.pyplot as plt  # noqa: E402

from . import atomic  # noqa: E402


def _save(fig, path):
    with atomic.staged(path) as tmp:
        fig.savefig(tmp, format="png", dpi=100)
    plt.close(fig)


def rate_quality(path, title, rows):
    """vmaf mean against bitrate, renditions labelled, in bitrate order."""
    rows = sorted(rows, key=lambda r: r["bitrate_kbps"])
    fig, ax = plt.subplots(figsize=(7, 4.5))
    rates = [r["bitrate_kbps"] for r in rows]
    ax.plot(rates, [r["vmaf_mean"] for r in rows], marker="o")
    for r in rows:
        ax.annotate(r["rendition"], (r["bitrate_kbps"], r["vmaf_mean"]), textcoords="offset points",
                    xytext=(5, -12), fontsize=8)
    ax.set_xscale("log")
    ax.margins(x=0.15, y=0.1)  # room for the labels of the end points
    ax.set_xlabel("bitrate (kbit/s)")
    ax.set_ylabel("VMAF (mean)")
    ax.set_title(f"{title}: rate-quality")
    ax.grid(True, which="both", alpha=0.3)
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
