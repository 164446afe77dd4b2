"""Reading a libvmaf-layout JSON log and the numbers the ladder summary takes from it."""

import json
import math
import re

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


# FFmpeg pixel formats the filter takes, as (chroma layout, bits per sample): planar YUV and gray
# by name, and the semi-planar ones (NV12, P010 ...) that NVDEC decodes into.
_PLANAR_RE = re.compile(r"yuvj?(420|422|444)p(\d+)?(le|be)?$")
_GRAY_RE = re.compile(r"gray(\d+)?(le|be)?$")
_SEMI_PLANAR = {"nv12": ("420", 8), "nv21": ("420", 8), "p010le": ("420", 10), "p010be": ("420", 10),
                "p016le": ("420", 16), "p016be": ("420", 16), "p210le": ("422", 10),
                "p216le": ("422", 16), "p410le": ("444", 10), "p416le": ("444", 16)}


def _layout(pix_fmt):
    """(chroma layout "420", "422", "444" or "400", bits per sample) of an FFmpeg pixel format,
    or None for one this module does not know (the filter then says what it accepts)."""
    if pix_fmt in _SEMI_PLANAR:
        return _SEMI_PLANAR[pix_fmt]
    m = _PLANAR_RE.match(pix_fmt)
    if m:
        return m[1], int(m[2] or 8)
    m = _GRAY_RE.match(pix_fmt)
    if m:
        return "400", int(m[1] or 8)
    return None


def frame_problem(metrics, width, height, pix_fmt):
    """Why frames of `width`x`height` in `pix_fmt` cannot be scored with the set `metrics`, or
    None: libvmaf's limits of the set's extractors, which the filter would refuse only once
    scoring starts."""
    scores = METRIC_SETS[metrics]
    advice = f"score this title with metrics {DEFAULT_METRICS!r}"
    if "float_ms_ssim" in scores and min(width, height) < MS_SSIM_MIN_SIDE:
        return (f"{width}x{height} frames are too small for metrics {metrics!r}: float_ms_ssim "
                f"(MS-SSIM) needs at least {MS_SSIM_MIN_SIDE}x{MS_SSIM_MIN_SIDE}; {advice}")
    layout = _layout(pix_fmt)
    if layout is None:
        return None
    chroma, bits = layout
    if "ciede2000" in scores:
        if chroma in ("422", "400"):
            return (f"{pix_fmt} frames cannot be scored with metrics {metrics!r}: ciede (CIEDE2000) "
                    f"needs 4:2:0 or 4:4:4 colour; {advice}, or convert the source")
        if chroma == "420" and (width % 2 or height % 2):
            return (f"{width}x{height} 4:2:0 frames cannot be scored with metrics {metrics!r}: "
                    f"ciede (CIEDE2000) needs an even width and height in 4:2:0; {advice}")
    if "psnr_hvs" in scores and bits > 12:
        return (f"{bits}-bit {pix_fmt} frames cannot be scored with metrics {metrics!r}: psnr_hvs "
                f"(PSNR-HVS) takes up to 12 bits; {advice}")
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
