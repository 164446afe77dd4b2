"""Reading a libvmaf-layout JSON log and the numbers the ladder summary takes from it."""

import json
import math

# Scores the summary reports besides the model's vmaf, and the extractor that gives each: the
# scoring graph asks the filter for these extractors by name (FEATURES), not through its defaults.
SCORE_EXTRACTORS = {"psnr_y": "psnr", "float_ssim": "float_ssim"}
FEATURES = tuple(dict.fromkeys(SCORE_EXTRACTORS.values()))
# Every score a log must hold for each frame and pooled.
REQUIRED = ("vmaf", *SCORE_EXTRACTORS)
LOW_FRACTION = 0.01


class LogError(ValueError):
    pass


def read(path, frames):
    """Parse the log at `path`, checking it is whole: `frames` frames, each with every REQUIRED score.

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
            for name in REQUIRED:
                float(entry["metrics"][name])
        for name in REQUIRED:
            float(pooled[name]["mean"])
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


def scores(per_frame, pooled):
    """The summary's quality columns. Means are libvmaf's pooled ones, as printed in the log."""
    return {
        "vmaf_mean": pooled["vmaf"]["mean"],
        "vmaf_harmonic_mean": pooled["vmaf"]["harmonic_mean"],
        "vmaf_1pct_low": round(low_mean(per_frame), 6),
        "vmaf_p1": round(percentile(per_frame, 1), 6),
        "vmaf_p5": round(percentile(per_frame, 5), 6),
        "vmaf_min": min(per_frame),
        "psnr_y_mean": pooled["psnr_y"]["mean"],
        "float_ssim_mean": pooled["float_ssim"]["mean"],
    }
