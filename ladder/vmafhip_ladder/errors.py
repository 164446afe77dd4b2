"""The two kinds of expected failure: a bad plan or command line, and one rendition failing."""

import functools


class PlanError(Exception):
    """The plan or the command line is wrong; the message says what, where, and what is accepted."""


class RenditionFailed(Exception):
    """One rendition could not be encoded or scored; the rest of the plan goes on.

    `detail` carries the tail of the failing program's stderr.
    """

    def __init__(self, message, detail=""):
        super().__init__(message)
        self.message = message
        self.detail = detail


def failure(message, detail=""):
    """The result of a task whose rendition failed."""
    return {"ok": False, "error": message, "detail": detail}


def reporting_failures(task):
    """Make `task` return failure(...) for a RenditionFailed instead of raising it.

    Dask retries tasks that raise; a bad file or an ffmpeg error would fail the same way again,
    so those come back as results. Anything else (a bug, a lost worker) still raises and is retried.
    """
    @functools.wraps(task)
    def wrapper(*args, **kwargs):
        try:
            return task(*args, **kwargs)
        except RenditionFailed as e:
            return failure(e.message, e.detail)
    return wrapper
