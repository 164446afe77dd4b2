"""Reading and checking a ladder plan (YAML or JSON).

Every problem is reported as a PlanError naming the plan file, the place in it
(`titles[0].renditions[2].size`), what was wrong and what is accepted; nothing is run before the
whole plan is known to be well formed.
"""

import json
import math
import os
import re
from dataclasses import dataclass

import yaml

from . import ratequality, summary, vmaflog
from .errors import PlanError
from .media import RAW_SUFFIXES, Video

NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
SIZE_RE = re.compile(r"^([1-9][0-9]*)x([1-9][0-9]*)$")
RATE_RE = re.compile(r"^[1-9][0-9]*(/[1-9][0-9]*)?$|^[0-9]+\.[0-9]+$")
PIX_FMT_RE = re.compile(r"^[a-z0-9_]+$")
MODEL_RE = re.compile(r"^[A-Za-z0-9_.]+$")
FLAGS_RE = re.compile(r"^[a-z_]+(\+[a-z_]+)*$")
# Bicubic as for VMAF; accurate rounding and full chroma interpolation make swscale's output the
# same on every CPU (its fast paths differ between SIMD flavours), so any worker gives the same
# scores. Some FFmpeg 8.1 builds without x86 assembly also scale wrongly without accurate_rnd.
DEFAULT_SCALE_FLAGS = "bicubic+accurate_rnd+full_chroma_int"
# The tool adds the scaling filter itself; a second -vf would silently replace it.
FILTER_OPTIONS = ("-vf", "-filter:v", "-filter", "-filter_complex", "-lavfi", "-filter_script")
# Names the tool itself writes in a title's results folder (besides RENDITION.json).
RESERVED_SUFFIXES = (".json", ".done", ".csv", ".png")

# Names become file names, with suffixes and temporary names added (NAME_MAX is 255 bytes); the
# other strings go on ffmpeg's command line, where a too-long argument fails far from the plan.
NAME_MAX_LEN = 100
MODEL_MAX_LEN = 100
FLAGS_MAX_LEN = 200
PIX_FMT_MAX_LEN = 40
STRING_MAX_LEN = 4096   # paths and ffmpeg arguments
SHOWN_MAX_LEN = 60      # values quoted in messages are cut to this
SHOWN_KEYS = 5          # unknown keys named in a message, at most
# A plan nests six levels: top, titles, a title, renditions, a rendition, its ffmpeg_args.
NESTING_RULE = "a plan nests lists and mappings six levels deep"
NAME_RULE = (f"letters, digits, '.', '_' and '-', starting with a letter or digit, "
             f"at most {NAME_MAX_LEN} characters")
TOP_KEYS = {"titles", "output", "model", "scale_flags", "metrics"}
TITLE_KEYS = {"name", "source", "renditions", "anchor", "metrics"}
ANCHOR_KEYS = {"label", "points", "title"}
ANCHOR_POINT_KEYS = {"bitrate_kbps", "vmaf"}
RAW_KEYS = {"width", "height", "pix_fmt", "framerate"}
RENDITION_KEYS = {"name", "path", "size", "ffmpeg_args", "output"} | RAW_KEYS


@dataclass(frozen=True)
class Encode:
    """How to make a rendition: scale the source to `width`x`height` and encode with `args`."""
    width: int
    height: int
    scale_flags: str
    args: tuple


@dataclass(frozen=True)
class Rendition:
    name: str
    video: Video            # the file scored: an existing one, or the encode's output
    size: tuple | None      # (width, height) the file must have, when the plan says
    encode: Encode | None


@dataclass(frozen=True)
class Anchor:
    """The ladder a title's BD-rate is measured against: `points`, (bitrate_kbps, vmaf) pairs in
    bitrate order, or the convex hull of the plan's title `title`."""
    label: str
    points: tuple | None
    title: str | None


@dataclass(frozen=True)
class Title:
    name: str
    source: Video
    renditions: tuple
    anchor: Anchor | None = None
    metrics: str = vmaflog.DEFAULT_METRICS   # the score set of its summary (vmaflog.METRIC_SETS)


@dataclass(frozen=True)
class Plan:
    path: str
    output: str             # results folder, absolute
    model: str
    scale_flags: str        # swscale flags for every scaling, down (encode) and up (score)
    titles: tuple
    output_from: str = "output"     # where the results folder was given: "output" or "--output"


class _Checker:
    """Walks the parsed document and turns it into a Plan, or raises PlanError."""

    def __init__(self, path):
        self.path = path
        self.base = os.path.dirname(os.path.abspath(path))

    def fail(self, where, what):
        raise PlanError(f"{self.path}: {where}: {what}")

    def mapping(self, value, where, allowed, required=()):
        if not isinstance(value, dict):
            self.fail(where, f"expected a mapping with keys {', '.join(sorted(allowed))}, "
                             f"got {_kind(value)}")
        for key in getattr(value, "repeated", ()):
            self.fail(where, f"key {_show(key)} is given twice (only the last would count); "
                             "give each key once")
        unknown = sorted(_show(k) if isinstance(k, str) and len(k) > SHOWN_MAX_LEN else str(k)
                         for k in value if k not in allowed)
        if unknown:
            more = f" and {len(unknown) - SHOWN_KEYS} more" if len(unknown) > SHOWN_KEYS else ""
            self.fail(where, f"unknown key{'s' if len(unknown) > 1 else ''} "
                             f"{', '.join(unknown[:SHOWN_KEYS])}{more}; "
                             f"accepted: {', '.join(sorted(allowed))}")
        for key in required:
            if key not in value:
                self.fail(where, f"missing key '{key}'")
        return value

    def string(self, value, where, pattern=None, rule=None, max_len=STRING_MAX_LEN):
        if not isinstance(value, str) or not value:
            self.fail(where, f"expected a non-empty string, got {_kind(value)}")
        if len(value) > max_len:
            self.fail(where, f"{_show(value)} is not accepted: at most {max_len} characters"
                             + (f" of {rule}" if rule else ""))
        if pattern is not None and not pattern.match(value):
            self.fail(where, f"{_show(value)} is not accepted: use {rule}")
        return value

    def name(self, value, where):
        return self.string(value, where, NAME_RE, NAME_RULE, NAME_MAX_LEN)

    def list(self, value, where, what, empty_ok=False):
        if not isinstance(value, list) or not (value or empty_ok):
            self.fail(where, f"expected a {'' if empty_ok else 'non-empty '}list of {what}, "
                             f"got {_kind(value)}")
        return value

    def size(self, value, where):
        text = self.string(value, where)
        m = SIZE_RE.match(text)
        if not m:
            self.fail(where, f"expected WIDTHxHEIGHT like 640x360, got {_show(text)}")
        return int(m.group(1)), int(m.group(2))

    def positive_int(self, value, where):
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            self.fail(where, f"expected a positive integer, got {_kind(value)}")
        return value

    def number(self, value, where, what, low, high=math.inf, low_open=False):
        """A finite number in [low, high], or (low, high] with low_open."""
        if (isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
                or value < low or value > high or (low_open and value == low)):
            self.fail(where, f"expected {what}, got {_kind(value)}")
        return float(value)

    def anchor(self, value, where):
        """A title's anchor: its own points, or another title (checked once all are known)."""
        entry = self.mapping(value, where, ANCHOR_KEYS)
        if ("points" in entry) == ("title" in entry):
            self.fail(where, "give either 'points' (the anchor ladder's bitrate_kbps and vmaf) or "
                             "'title' (another title of the plan, whose convex hull is the anchor), "
                             "not " + ("both" if "points" in entry else "neither"))
        label = self.string(entry["label"], f"{where}.label") if "label" in entry else None
        if "title" in entry:
            other = self.string(entry["title"], f"{where}.title", NAME_RE, NAME_RULE)
            return Anchor(label or other, None, other)
        points = self.list(entry["points"], f"{where}.points", "points {bitrate_kbps, vmaf}")
        if len(points) < ratequality.MIN_POINTS:
            self.fail(f"{where}.points", f"expected at least {ratequality.MIN_POINTS} points, got "
                                         f"{len(points)}: BD-rate interpolates between them")
        parsed = []
        for i, point in enumerate(points):
            pwhere = f"{where}.points[{i}]"
            point = self.mapping(point, pwhere, ANCHOR_POINT_KEYS, required=("bitrate_kbps", "vmaf"))
            rate = self.number(point["bitrate_kbps"], f"{pwhere}.bitrate_kbps",
                               "a bitrate in kbit/s above 0", 0, low_open=True)
            vmaf = self.number(point["vmaf"], f"{pwhere}.vmaf", "a vmaf score from 0 to 100", 0, 100)
            parsed.append((rate, vmaf, i))
        parsed.sort()
        for (r0, q0, i0), (r1, q1, i1) in zip(parsed, parsed[1:]):
            if r1 == r0:
                self.fail(f"{where}.points[{max(i0, i1)}].bitrate_kbps",
                          f"{r1:g} kbit/s is points[{min(i0, i1)}]'s too; give each bitrate once")
            if q1 <= q0:
                self.fail(f"{where}.points[{i1}].vmaf",
                          f"{q1:g} at {r1:g} kbit/s is not above points[{i0}]'s {q0:g} at "
                          f"{r0:g} kbit/s: vmaf must rise with bitrate, as along a convex hull")
        return Anchor(label or "anchor", tuple((r, q) for r, q, _ in parsed), None)

    def metrics(self, value, where):
        """A score set's name (vmaflog.METRIC_SETS)."""
        if not isinstance(value, str) or value not in vmaflog.METRIC_SETS:
            sets = " or ".join(f"{name} ({', '.join(vmaflog.required(name))})"
                               for name in vmaflog.METRIC_SETS)
            self.fail(where, f"{_kind(value)} is not accepted: use {sets}")
        return value

    def file(self, value, where):
        path = os.path.expanduser(self.string(value, where))
        return os.path.normpath(os.path.join(self.base, path))

    def video(self, entry, where, default_raw=None):
        """An input file; raw .yuv needs width, height, pix_fmt, framerate (defaults: the source's)."""
        path = self.file(entry["path"], f"{where}.path")
        given = {k: entry[k] for k in RAW_KEYS if k in entry}
        if not path.lower().endswith(RAW_SUFFIXES):
            if given:
                self.fail(where, f"{', '.join(sorted(given))} only apply to raw video "
                                 f"({', '.join(RAW_SUFFIXES)} files); other files describe themselves")
            return Video(path)
        raw = dict(default_raw or {})
        for key in ("width", "height"):
            if key in given:
                raw[key] = self.positive_int(given[key], f"{where}.{key}")
        if "pix_fmt" in given:
            raw["pix_fmt"] = self.string(given["pix_fmt"], f"{where}.pix_fmt", PIX_FMT_RE,
                                         "an FFmpeg pixel format name like yuv420p or yuv420p10le",
                                         PIX_FMT_MAX_LEN)
        if "framerate" in given:
            rate = given["framerate"]
            rate = str(rate) if isinstance(rate, (int, float)) and not isinstance(rate, bool) else rate
            raw["framerate"] = self.string(rate, f"{where}.framerate", RATE_RE,
                                           "frames per second like 25, 29.97 or 30000/1001", 40)
        missing = [k for k in ("width", "height", "pix_fmt", "framerate") if k not in raw]
        if missing:
            self.fail(where, f"raw video {os.path.basename(path)} needs {', '.join(missing)} "
                             "(a raw file has no header saying them)")
        return Video(path, raw["width"], raw["height"], raw["pix_fmt"], raw["framerate"])

    def source(self, value, where):
        if isinstance(value, str):
            value = {"path": value}
        entry = self.mapping(value, where, {"path"} | RAW_KEYS, required=("path",))
        return self.video(entry, where)

    def rendition(self, value, where, source, title_dir, scale_flags):
        entry = self.mapping(value, where, RENDITION_KEYS, required=("name",))
        name = self.name(entry["name"], f"{where}.name")
        if name == summary.BASENAME:
            self.fail(f"{where}.name", f"{name!r} is not accepted: {name}.json is the title's summary")
        encodes = "ffmpeg_args" in entry
        if encodes == ("path" in entry):
            self.fail(where, "give either 'path' (an existing file) or 'size' and 'ffmpeg_args' "
                             "(encode from the source), not " + ("both" if encodes else "neither"))
        size = self.size(entry["size"], f"{where}.size") if "size" in entry else None
        if not encodes:
            if "output" in entry:
                self.fail(f"{where}.output", "only for encoded renditions (with ffmpeg_args)")
            raw_defaults = {k: getattr(source, k) for k in ("pix_fmt", "framerate") if source.raw}
            return Rendition(name, self.video(entry, where, raw_defaults), size, None)
        if size is None:
            self.fail(where, "missing key 'size' (WIDTHxHEIGHT to encode at, like 640x360)")
        extra = sorted(RAW_KEYS & set(entry))
        if extra:
            self.fail(where, f"{', '.join(extra)} do not apply to an encoded rendition "
                             "(its size is 'size'; pixel format and rate come from ffmpeg_args)")
        args = self.list(entry["ffmpeg_args"], f"{where}.ffmpeg_args", "ffmpeg arguments",
                         empty_ok=True)
        for i, arg in enumerate(args):
            if isinstance(arg, bool) or not isinstance(arg, (str, int, float)):
                self.fail(f"{where}.ffmpeg_args[{i}]", f"expected a string or number, got {_kind(arg)}")
            if isinstance(arg, str):
                self.string(arg, f"{where}.ffmpeg_args[{i}]")
            if arg in FILTER_OPTIONS:
                self.fail(f"{where}.ffmpeg_args[{i}]", f"{arg} is not accepted: the tool scales with "
                                                       "-vf scale=WIDTH:HEIGHT from 'size' itself")
        output = self.string(entry.get("output", f"{name}.mkv"), f"{where}.output", NAME_RE,
                             f"a plain file name of {NAME_RULE} (it is written in the title's "
                             "results folder)", NAME_MAX_LEN)
        if output.lower().endswith(RAW_SUFFIXES):
            self.fail(f"{where}.output", f"{_show(output)} is not accepted: a raw file has no header "
                                         "to say its size; use .y4m, .mkv, .mp4, ...")
        if output.lower().endswith(RESERVED_SUFFIXES):
            self.fail(f"{where}.output", f"{_show(output)} is not accepted: the tool's own results use "
                                         f"{', '.join(RESERVED_SUFFIXES)}; use a video extension")
        video = Video(os.path.join(title_dir, output))
        return Rendition(name, video, size, Encode(size[0], size[1], scale_flags,
                                                    tuple(str(a) for a in args)))

    def title(self, value, where, output, scale_flags, metrics):
        """A title; `metrics` is the plan's score set, which the title's own 'metrics' overrides."""
        entry = self.mapping(value, where, TITLE_KEYS, required=("name", "source", "renditions"))
        name = self.name(entry["name"], f"{where}.name")
        source = self.source(entry["source"], f"{where}.source")
        if "metrics" in entry:
            metrics = self.metrics(entry["metrics"], f"{where}.metrics")
        # Renditions are scored at the source's size and format; a raw source says them here,
        # others when the scoring task probes them.
        if source.raw:
            problem = vmaflog.frame_problem(metrics, source.width, source.height, source.pix_fmt)
            if problem:
                self.fail(f"{where}.source", problem)
        title_dir = os.path.join(output, name)
        renditions = []
        names, outputs = set(), set()
        for i, r in enumerate(self.list(entry["renditions"], f"{where}.renditions", "renditions")):
            rwhere = f"{where}.renditions[{i}]"
            rendition = self.rendition(r, rwhere, source, title_dir, scale_flags)
            if rendition.name in names:
                self.fail(f"{rwhere}.name", f"{rendition.name!r} is used twice in title {name!r}")
            if rendition.encode and rendition.video.path in outputs:
                self.fail(f"{rwhere}.output", f"{os.path.basename(rendition.video.path)!r} is "
                                              f"written twice in title {name!r}")
            names.add(rendition.name)
            outputs.add(rendition.video.path)
            renditions.append(rendition)
        anchor = self.anchor(entry["anchor"], f"{where}.anchor") if "anchor" in entry else None
        return Title(name, source, tuple(renditions), anchor, metrics)

    def plan(self, doc, output_override):
        doc = self.mapping(doc, "top level", TOP_KEYS, required=("titles",))
        if output_override is not None:
            output = os.path.abspath(output_override)
        elif "output" in doc:
            output = self.file(doc["output"], "output")
        else:
            self.fail("top level", "no results folder: add 'output: FOLDER' to the plan or give --output")
        model = self.string(doc.get("model", "vmaf_v0.6.1"), "model", MODEL_RE,
                            "a built-in model name like vmaf_v0.6.1 or vmaf_4k_v0.6.1",
                            MODEL_MAX_LEN)
        scale_flags = self.string(doc.get("scale_flags", DEFAULT_SCALE_FLAGS), "scale_flags",
                                  FLAGS_RE, "swscale flags like bicubic or bicubic+accurate_rnd",
                                  FLAGS_MAX_LEN)
        metrics = self.metrics(doc.get("metrics", vmaflog.DEFAULT_METRICS), "metrics")
        titles, names = [], set()
        for i, t in enumerate(self.list(doc["titles"], "titles", "titles")):
            title = self.title(t, f"titles[{i}]", output, scale_flags, metrics)
            if title.name in names:
                self.fail(f"titles[{i}].name", f"{title.name!r} is used twice")
            names.add(title.name)
            titles.append(title)
        for i, title in enumerate(titles):
            other = title.anchor.title if title.anchor else None
            if other == title.name:
                self.fail(f"titles[{i}].anchor.title", f"{other!r} is this title itself; name "
                                                       "another title, whose convex hull is the anchor")
            if other is not None and other not in names:
                self.fail(f"titles[{i}].anchor.title", f"{other!r} is not a title of this plan "
                                                       f"(titles: {', '.join(sorted(names))})")
        return Plan(os.path.abspath(self.path), output, model, scale_flags, tuple(titles),
                    "output" if output_override is None else "--output")


def _kind(value):
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return _show(value)


def _show(value):
    """`value` quoted for a message, cut to SHOWN_MAX_LEN characters."""
    text = repr(value)
    if len(text) <= SHOWN_MAX_LEN:
        return text
    size = f"{len(value)} characters" if isinstance(value, str) else f"{len(text)} characters as text"
    return f"{text[:SHOWN_MAX_LEN]}... ({size})"


class _Mapping(dict):
    """A mapping read from the plan; `repeated` lists the keys the file gives more than once
    (YAML and JSON parsers keep the last one silently; the plan is strict)."""
    repeated = ()


def _repeated(keys):
    """The keys that occur more than once in `keys`, each once, in order."""
    seen, repeated = set(), {}
    for key in keys:
        if key in seen:
            repeated[key] = None
        seen.add(key)
    return tuple(repeated)


def _json_mapping(pairs):
    mapping = _Mapping(pairs)
    mapping.repeated = _repeated(key for key, _ in pairs)
    return mapping


class _YamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader, keeping track of repeated keys in each mapping."""

    def construct_mapping(self, node, deep=False):
        keys = []
        if isinstance(node, yaml.MappingNode):
            # Keys merged in with '<<' may be overridden: only the mapping's own keys count.
            keys = [self.construct_object(k) for k, _ in node.value
                    if isinstance(k, yaml.ScalarNode) and k.tag != "tag:yaml.org,2002:merge"]
        mapping = _Mapping(super().construct_mapping(node, deep=deep))
        mapping.repeated = _repeated(keys)
        return mapping


def _construct_yaml_map(loader, node):
    data = _Mapping()
    yield data
    value = loader.construct_mapping(node)
    data.update(value)
    data.repeated = value.repeated


_YamlLoader.add_constructor("tag:yaml.org,2002:map", _construct_yaml_map)


def load(path, output=None):
    """Read and check the plan at `path`; `output` (from the command line) overrides its 'output'."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise PlanError(f"{path}: cannot read the plan: {e.strerror}") from None
    except UnicodeDecodeError:
        raise PlanError(f"{path}: the plan is not UTF-8 text") from None
    try:
        if path.lower().endswith(".json"):
            doc = json.loads(text, object_pairs_hook=_json_mapping)
        else:
            doc = yaml.load(text, Loader=_YamlLoader)
    except RecursionError:
        raise PlanError(f"{path}: top level: lists or mappings nested too deeply to read; "
                        f"{NESTING_RULE}") from None
    except json.JSONDecodeError as e:
        raise PlanError(f"{path}: line {e.lineno} column {e.colno}: not valid JSON: {e.msg}") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        at = f"line {mark.line + 1} column {mark.column + 1}: " if mark else ""
        problem = getattr(e, "problem", None) or str(e)
        raise PlanError(f"{path}: {at}not valid YAML: {problem}") from None
    return _Checker(path).plan(doc, output)
