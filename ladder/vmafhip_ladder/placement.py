"""Which backend and GPU a worker's ffmpeg uses, from the worker's environment.

A worker is pinned to one GPU by starting it with VMAFHIP_DEVICE=k (the local cluster does this
for its workers); VMAFHIP_BACKEND=cpu|hip|auto overrides the backend. Without either the filter
chooses (auto: the GPU if there is one, else the CPU) on device 0.
"""

import os

from .errors import RenditionFailed

BACKENDS = ("auto", "cpu", "hip")


def from_environ(environ=None):
    """Return (backend, device) for this worker."""
    environ = os.environ if environ is None else environ
    device_text = environ.get("VMAFHIP_DEVICE", "").strip()
    backend = environ.get("VMAFHIP_BACKEND", "").strip() or ("hip" if device_text else "auto")
    if backend not in BACKENDS:
        raise RenditionFailed(f"worker misconfigured: VMAFHIP_BACKEND={backend!r}; "
                              f"accepted: {', '.join(BACKENDS)}")
    if not device_text:
        return backend, 0
    if not device_text.isdigit():
        raise RenditionFailed(f"worker misconfigured: VMAFHIP_DEVICE={device_text!r}; "
                              "accepted: a GPU index 0, 1, ...")
    return backend, int(device_text)


def filter_options(backend, device):
    """The libvmaf_hip options placing the work.

    A title's ffmpeg runs a filter instance per rendition, beside the decoders and scalers that
    feed them, for thousands of frames. So on the GPU each instance waits for it to start
    (gpu_wait) instead of scoring the first frames on the CPU, and stages its frames with one
    thread (n_threads caps the staging threads), not with a pool of up to eight: six pools per
    title cost CPU time that decoding and scaling need, and gained no speed (docs/ladder.md,
    "Throughput on one GPU"). auto keeps the CPU's threads: it may find no GPU.
    """
    if backend == "cpu":
        return "backend=cpu"
    if backend == "hip":
        return f"backend=hip:device={device}:gpu_wait=1:n_threads=1"
    return f"backend={backend}:device={device}:gpu_wait=1"
