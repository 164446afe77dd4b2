"""`.done` manifests: the proof that a result file is complete and made from the current inputs.

A manifest sits beside its result (`NAME.done`) and holds the key of the work that made it (a
hash of the inputs' identities and of the command) and the sha256 of the result. A result counts
as done only when its manifest exists, the key matches the work asked for now, and the result's
content hashes to the recorded value: a truncated, edited or half-written file is redone.
"""

import hashlib
import json

from . import atomic
from .media import sha256_file

VERSION = 1


def key(**parts):
    """A stable hash of the work description `parts` (JSON-serialisable)."""
    blob = json.dumps({"version": VERSION, **parts}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()


def path_for(result):
    return result + ".done"


def write(result, work_key, **facts):
    """Record `result` as done by `work_key`; `facts` are kept for re-runs that reuse it."""
    atomic.write_json(path_for(result), {"version": VERSION, "key": work_key,
                                         "sha256": sha256_file(result), **facts})


def check(result, work_key):
    """The manifest's facts when `result` is done by `work_key` and intact, else None."""
    try:
        with open(path_for(result), encoding="utf-8") as f:
            manifest = json.load(f)
        if manifest.get("version") != VERSION or manifest.get("key") != work_key:
            return None
        if sha256_file(result) != manifest.get("sha256"):
            return None
    except (OSError, ValueError):
        return None
    return manifest
