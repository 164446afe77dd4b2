"""Where the work runs: a local Dask cluster with one worker per GPU (or CPU workers), or a
scheduler someone started.

GPU workers advertise the Dask resource GPU=1 and scoring tasks ask for it, so a GPU runs one
scoring at a time. Each local GPU worker gets VMAFHIP_DEVICE=k (see placement.py).
"""

import glob
import logging
import os
import subprocess

import dask.config
from distributed import Client, Nanny, Scheduler, SpecCluster

from .errors import PlanError

VISIBLE_DEVICES_VARS = ("HIP_VISIBLE_DEVICES", "CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES")
KFD_NODES = "/sys/class/kfd/kfd/topology/nodes"


def _run_quietly(cmd):
    """stdout of `cmd`, or None when it is missing or fails."""
    try:
        proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _kfd_gpus(nodes):
    """AMD GPUs in the kernel's KFD topology (CPU nodes have gpu_id 0)."""
    count = 0
    for path in glob.glob(os.path.join(nodes, "*", "gpu_id")):
        try:
            with open(path) as f:
                count += int(f.read().strip() or 0) != 0
        except (OSError, ValueError):
            continue
    return count


def detect_gpus(environ=None, run=_run_quietly, kfd_nodes=KFD_NODES):
    """How many GPUs this host's workers can use; 0 when there are none or nothing can tell.

    The *_VISIBLE_DEVICES variables win (the GPU runtime numbers the visible ones 0..n-1); then
    `nvidia-smi -L`; then AMD's KFD topology (present with /dev/kfd).
    """
    environ = os.environ if environ is None else environ
    for var in VISIBLE_DEVICES_VARS:
        if var in environ:
            return len([d for d in environ[var].split(",") if d.strip() and d.strip() != "-1"])
    listing = run(["nvidia-smi", "-L"])
    if listing:
        gpus = sum(1 for line in listing.splitlines() if line.startswith("GPU "))
        if gpus:
            return gpus
    return _kfd_gpus(kfd_nodes) if os.path.isdir(kfd_nodes) else 0


def worker_specs(workers, gpus):
    """Dask worker specs: `workers` single-threaded workers, pinned round-robin to `gpus` GPUs
    (CPU backend when `gpus` is 0)."""
    specs = {}
    for i in range(workers):
        if gpus:
            env = {"VMAFHIP_BACKEND": "hip", "VMAFHIP_DEVICE": str(i % gpus)}
            options = {"resources": {"GPU": 1}, "name": f"gpu{i % gpus}-{i}"}
        else:
            env = {"VMAFHIP_BACKEND": "cpu"}
            options = {"name": f"cpu-{i}"}
        specs[options["name"]] = {"cls": Nanny, "options": {
            "nthreads": 1, "env": env, "host": "127.0.0.1", "silence_logs": logging.ERROR,
            "dashboard": False, **options}}
    return specs


def local_cluster(workers, gpus):
    """Start a local cluster (worker processes, so a crashing ffmpeg or worker is contained)."""
    # Dask's GPU diagnostics (NVML) are not used here, and Dask 2022.12's fail to start the
    # scheduler next to a newer pynvml ("'str' object has no attribute 'decode'"). The nannies
    # pass this process's configuration on to their workers.
    dask.config.set({"distributed.diagnostics.nvml": False})
    # The scheduler always serves HTTP (health checks); any free port, no dashboard.
    scheduler = {"cls": Scheduler, "options": {"host": "127.0.0.1", "dashboard_address": ":0",
                                               "dashboard": False}}
    return SpecCluster(workers=worker_specs(workers, gpus), scheduler=scheduler,
                       silence_logs=logging.ERROR, name="vmafhip-ladder")


def quiet_dask_logs():
    """Dask logs every worker restart and lost connection; the ladder reports failures itself."""
    for name in ("distributed", "tornado"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def connect(scheduler, wait_s):
    """A client of the scheduler at `scheduler`, once at least one worker is there."""
    try:
        client = Client(scheduler, timeout=f"{wait_s}s")
    except (OSError, TimeoutError) as e:
        raise PlanError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    try:
        client.wait_for_workers(1, timeout=wait_s)
    except TimeoutError:
        client.close()
        raise PlanError(f"no worker joined the scheduler at {scheduler} within {wait_s} s") from None
    return client


def has_gpu_workers(client):
    workers = client.scheduler_info()["workers"].values()
    return any(w.get("resources", {}).get("GPU", 0) >= 1 for w in workers)
