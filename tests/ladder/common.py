"""Shared pieces of the ladder tests: fixtures, plans, local clusters."""

import contextlib
import io
import json
import os
import shutil
import tempfile
import unittest

import yaml
from distributed import Client

from vmafhip_ladder import cluster, plan, runner

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURES = os.path.normpath(os.path.join(HERE, "..", "fixtures"))
FFMPEG = os.environ.get("VMAFHIP_TEST_FFMPEG", "")
LAUNCHER = os.path.normpath(os.path.join(HERE, "..", "..", "tools", "vmafhip-ladder"))
EXAMPLE_PLAN = os.path.normpath(os.path.join(HERE, "..", "..", "ladder", "examples", "fixtures.yaml"))

NATURAL1 = {"path": os.path.join(FIXTURES, "natural1_576x324_yuv420p_ref.yuv"),
            "width": 576, "height": 324, "pix_fmt": "yuv420p", "framerate": 25}
NATURAL1_FRAMES = 10
NATURAL5 = {"path": os.path.join(FIXTURES, "natural5_176x144_yuv444p_ref.yuv"),
            "width": 176, "height": 144, "pix_fmt": "yuv444p", "framerate": 25}


def golden(name):
    """Pooled scores of libvmaf's own run on a fixture pair."""
    with open(os.path.join(FIXTURES, "golden", name)) as f:
        return json.load(f)["pooled_metrics"]


def ladder_plan(output):
    """Two titles: identical and distorted existing renditions, and encoded ones (raw y4m)."""
    return {"output": output, "titles": [
        {"name": "natural1", "source": NATURAL1, "renditions": [
            {"name": "same", "path": NATURAL1["path"], "width": 576, "height": 324},
            {"name": "crf38", "width": 576, "height": 324,
             "path": os.path.join(FIXTURES, "natural1_576x324_yuv420p_x264crf38.yuv")},
            {"name": "288p", "size": "288x162", "ffmpeg_args": ["-pix_fmt", "yuv420p"],
             "output": "288p.y4m"},
        ]},
        {"name": "natural5", "source": NATURAL5, "renditions": [
            {"name": "88x72", "size": "88x72", "ffmpeg_args": ["-pix_fmt", "yuv444p"],
             "output": "88x72.y4m"},
        ]},
    ]}


def write_plan(folder, doc, name="plan.yaml"):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        if name.endswith(".json"):
            json.dump(doc, f)
        else:
            yaml.safe_dump(doc, f)
    return path


def read_json(path):
    with open(path) as f:
        return json.load(f)


def start_cluster(workers):
    """A local CPU cluster of `workers` worker processes and its client."""
    cluster.quiet_dask_logs()
    local = cluster.local_cluster(workers, 0)
    return local, Client(local)


def run_plan(client, plan_path, ffmpeg=None, output=None):
    """Run the plan at `plan_path` quietly, into `output` if given; return (plan, report)."""
    loaded = plan.load(plan_path, output)
    return loaded, runner.run(loaded, client, ffmpeg or FFMPEG, progress_stream=io.StringIO())


def needs_ffmpeg(cls):
    """Skip a test class when no ffmpeg with libvmaf_hip was given."""
    return unittest.skipUnless(FFMPEG, "set VMAFHIP_TEST_FFMPEG (or tests/ladder/run --ffmpeg)")(cls)


class TempDirTestCase(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="vmafhip-ladder-test-")
        self.addCleanup(shutil.rmtree, self.tmp, True)


@contextlib.contextmanager
def closing_cluster(workers):
    local, client = start_cluster(workers)
    try:
        yield client
    finally:
        client.close()
        local.close()
