"""Whole files or nothing: results are written beside their final name and renamed into place.

A reader (or a re-run after a crash) sees either the previous file or the complete new one. The
temporary names start with a dot and carry a random part, so two attempts of one task (a worker
presumed dead that is still running) never write the same temporary file.
"""

import glob
import json
import os
import secrets
from contextlib import contextmanager


def _temp_name(final):
    folder, base = os.path.split(final)
    # Keep the extension last: ffmpeg picks its output format from it.
    ext = os.path.splitext(base)[1]
    return os.path.join(folder, f".{base}.{secrets.token_hex(4)}.partial{ext}")


def remove_stale(final):
    """Delete temporaries that an attempt killed mid-write left behind for `final`."""
    folder, base = os.path.split(final)
    for path in glob.glob(os.path.join(glob.escape(folder), f".{glob.escape(base)}.*.partial*")):
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


def _fsync_path(path, flags=os.O_RDONLY):
    fd = os.open(path, flags)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def staged(final):
    """Yield a temporary path to write; on success it becomes `final` (fsync, rename, fsync folder)."""
    tmp = _temp_name(final)
    try:
        yield tmp
        _fsync_path(tmp)
        os.replace(tmp, final)
        _fsync_path(os.path.dirname(final) or ".", os.O_RDONLY | os.O_DIRECTORY)
    except BaseException:
        try:
            os.remove(tmp)
        except FileNotFoundError:
            pass
        raise


def write_bytes(final, data):
    with staged(final) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)


def write_json(final, obj):
    write_bytes(final, (json.dumps(obj, indent=2, sort_keys=False) + "\n").encode())
