"""Reading a libvmaf-layout JSON log and the numbers the ladder summary takes from it."""

import json
import math

# The score sets a plan's `metrics` chooses from: the scores the summary reports besides the
# model's vmaf, each with the extractor that gives it. The scoring graph asks the filter for these
# extractors by name (features()), not through its defaults. "ctc" adds to the default set the
# common-test-conditions metrics that codec comparisons publish next to VMAF (AOM's CTC, the
# JVET/JCT-VC reports): PSNR of each plane, MS-SSIM, PSNR-HVS and CIEDE2000.
METRIC_SETS = {
    "default": {"psnr_y": "psnr", "float_ssim": "float_ssim"},
    "ctc": {"psnr_y": "psnr", "psnr_cb": "psnr", "psnr_cr": "psnr", "float_ssim": "float_ssim",
            "float_ms_ssim": "float_ms_ssim", "psnr_hvs": "psnr_hvs", "psnr_hvs_y": "psnr_hvs",
            "psnr_hvs_cb": "psnr_hvs", "psnr_hvs_cr": "psnr_hvs", "ciede2000": "ciede"},
}
DEFAULT_METRICS = "default"
# Scores with no upper bound: on identical frames there is no error to measure and they are
# +infinity, which the log, like libvmaf's, writes as null (JSON has no infinity), per frame and
# in the pooled values of a log with such a frame. psnr is capped instead (60 dB at 8 bits).
UNBOUNDED = frozenset({"psnr_hvs", "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "ciede2000"})
# MS-SSIM's five scales halve the frame four times and filter each with an 11x11 window: libvmaf's
# float_ms_ssim fails every frame smaller than this in either direction.
MS_SSIM_MIN_SIDE = 176
LOW_FRACTION = 0.01


def features(metrics):
    """The extractors the filter runs for the set `metrics`, each once."""
    return tuple(dict.fromkeys(METRIC_SETS[metrics].values()))


def required(metrics):
    """Every score a log of the set `metrics` must hold for each frame and pooled."""
    return ("vmaf", *METRIC_SETS[metrics])


def mean_columns(metrics):
    """The summary's columns of the set's pooled means, besides vmaf's."""
    return tuple(f"{name}_mean" for name in METRIC_SETS[metrics])


def size_problem(metrics, width, height):
    """Why frames of `width`x`height` cannot be scored with the set `metrics`, or None."""
    if "float_ms_ssim" in METRIC_SETS[metrics] and min(width, height) < MS_SSIM_MIN_SIDE:
        return (f"{width}x{height} frames are too small for metrics {metrics!r}: float_ms_ssim "
                f"(MS-SSIM) needs at least {MS_SSIM_MIN_SIDE}x{MS_SSIM_MIN_SIDE}; score this "
                f"title with metrics {DEFAULT_METRICS!r}")
    return None


class LogError(ValueError):
    pass


def _number(value, name):
    """A score of the log: null is +infinity for the UNBOUNDED scores; for the others, as for
    anything else that is not a number, it raises TypeError or ValueError."""
    if value is None and name in UNBOUNDED:
        return math.inf
    return float(value)


def read(path, frames, metrics):
    """Parse the log at `path`, checking it is whole: `frames` frames, each with every score of
    the set `metrics` (see required).

    Returns (per-frame vmaf list, pooled metrics mapping).
    """
    try:
        with open(path, encoding="utf-8") as f:
            log = json.load(f)
    except (OSError, ValueError) as e:
        raise LogError(f"unreadable log {path}: {e}") from None
    try:
        entries = log["frames"]
        pooled = log["pooled_metrics"]
        per_frame = [float(entry["metrics"]["vmaf"]) for entry in entries]
        for entry in entries:
            for name in required(metrics):
                _number(entry["metrics"][name], name)
        for name in required(metrics):
            _number(pooled[name]["mean"], name)
    except (KeyError, TypeError, ValueError) as e:
        raise LogError(f"log {path} lacks an expected score ({e})") from None
    if len(per_frame) != frames:
        raise LogError(f"log {path} has {len(per_frame)} frames, expected {frames}")
    return per_frame, pooled


def low_mean(values, fraction=LOW_FRACTION):
    """Mean of the lowest `fraction` of `values`, at least one value (the '1%-low')."""
    worst = sorted(values)[:max(1, math.floor(len(values) * fraction))]
    return sum(worst) / len(worst)


def percentile(values, p):
    """The `p`th percentile of `values` (0 <= p <= 100), interpolated linearly between the two
    nearest ranks as numpy's default does (Hyndman and Fan's definition 7): the sorted values
    sit at 0, 1/(n-1), ..., 1, so the 0th is the minimum and the 100th the maximum."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * p / 100
    i = min(math.floor(pos), len(ordered) - 1)
    if i + 1 == len(ordered):
        return ordered[i]
    return ordered[i] + (ordered[i + 1] - ordered[i]) * (pos - i)


def scores(per_frame, pooled, metrics):
    """The summary's quality columns for the set `metrics`. Means are libvmaf's pooled ones, as
    printed in the log; an UNBOUNDED one written null is math.inf."""
    return {
        "vmaf_mean": pooled["vmaf"]["mean"],
        "vmaf_harmonic_mean": pooled["vmaf"]["harmonic_mean"],
        "vmaf_1pct_low": round(low_mean(per_frame), 6),
        "vmaf_p1": round(percentile(per_frame, 1), 6),
        "vmaf_p5": round(percentile(per_frame, 5), 6),
        "vmaf_min": min(per_frame),
        **{f"{name}_mean": _number(pooled[name]["mean"], name) for name in METRIC_SETS[metrics]},
    }
