"""The vmafhip-ladder command line."""

import argparse
import io
import os
import shutil
import sys

from distributed import Client

from . import __version__, cluster, plan as plans, runner, summary, tools
from .errors import PlanError

PROG = "vmafhip-ladder"
WAIT_S = 60


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG, description="Encode (optionally) and score every rendition of an encoding ladder "
        "against its source with ffmpeg's libvmaf_hip filter, on a Dask cluster.")
    p.add_argument("plan", help="the plan, YAML or JSON (see docs/ladder.md)")
    p.add_argument("-o", "--output", metavar="DIR", help="results folder (default: the plan's 'output')")
    p.add_argument("--ffmpeg", metavar="PATH", help="ffmpeg with the libvmaf_hip filter, as the workers "
                   "see it; ffprobe must be beside it (default: $VMAFHIP_FFMPEG, else ffmpeg on PATH)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--local", action="store_true",
                       help="run on a cluster started on this machine (the default)")
    where.add_argument("--scheduler", metavar="ADDRESS",
                       help="run on the Dask scheduler at ADDRESS, e.g. tcp://host:8786")
    p.add_argument("--workers", type=int, metavar="N", help="local workers (default: one per GPU; "
                   "without GPUs one per 4 CPU cores); GPUs are shared round-robin")
    p.add_argument("--cpu", action="store_true", help="local workers use the CPU backend even if "
                   "there are GPUs")
    p.add_argument("--wait", type=int, default=WAIT_S, metavar="SECONDS",
                   help=f"with --scheduler: how long to wait for a worker (default {WAIT_S})")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    args = p.parse_args(argv)
    if args.workers is not None and args.workers < 1:
        p.error("--workers must be at least 1")
    if args.scheduler and (args.workers or args.cpu):
        p.error("--workers and --cpu are for the local cluster; with --scheduler, the workers "
                "you started are used")
    return args


def local_client(args, ffmpeg):
    path = shutil.which(ffmpeg)
    if path is None or not tools.has_filter(path):
        raise PlanError(f"{ffmpeg} is not an ffmpeg with the libvmaf_hip filter "
                        "(give --ffmpeg PATH to a patched ffmpeg)")
    gpus = 0 if args.cpu else cluster.detect_gpus()
    workers = args.workers or gpus or max(1, (os.cpu_count() or 1) // 4)
    kind = f"pinned to {gpus} GPU{'s' if gpus > 1 else ''}" if gpus else "CPU backend"
    print(f"{PROG}: local cluster: {workers} worker{'s' if workers > 1 else ''}, {kind}",
          file=sys.stderr)
    local = cluster.local_cluster(workers, gpus)
    return local, Client(local)


def report(result):
    for (title, rendition), r in result.failures():
        print(f"{PROG}: FAILED {title}/{rendition}: {r['error']}", file=sys.stderr)
        for line in r["detail"].splitlines():
            print(f"    {line}", file=sys.stderr)
    for title, analysis in result.titles.items():
        print(summary.describe(title, analysis))
    for line in result.unwritten:
        print(f"{PROG}: FAILED to write the summary and plots of {line}", file=sys.stderr)
    counts = result.counts()
    print(f"{PROG}: {len(result.results)} renditions: {counts['scored']} scored, "
          f"{counts['reused']} already done, {counts['failed']} failed", file=sys.stderr)


def main(argv=None):
    args = parse_args(argv)
    ffmpeg = args.ffmpeg or os.environ.get("VMAFHIP_FFMPEG") or "ffmpeg"
    local = None
    try:
        plan = plans.load(args.plan, args.output)
        runner.prepare(plan)
        cluster.quiet_dask_logs()
        if args.scheduler:
            client = cluster.connect(args.scheduler, args.wait)
        else:
            local, client = local_client(args, ffmpeg)
        try:
            result = runner.run(plan, client, ffmpeg,
                                progress_stream=io.StringIO() if args.quiet else None)
        finally:
            client.close()
            if local is not None:
                local.close()
    except PlanError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted; finished renditions are kept, a re-run does the rest",
              file=sys.stderr)
        return 130
    report(result)
    print(f"{PROG}: results in {plan.output}", file=sys.stderr)
    return 1 if result.failures() or result.unwritten else 0
