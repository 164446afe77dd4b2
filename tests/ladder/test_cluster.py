"""GPU detection and worker pinning, without GPUs: the tools' output and the environment are mocked."""

import os
import unittest

from common import TempDirTestCase
from vmafhip_ladder import cluster, placement
from vmafhip_ladder.errors import RenditionFailed

NVIDIA_SMI_L = """GPU 0: NVIDIA H200 (UUID: GPU-0b7c4a1e-0000-0000-0000-000000000000)
GPU 1: NVIDIA H200 (UUID: GPU-0b7c4a1e-0000-0000-0000-000000000001)
  MIG 1g.18gb     Device  0: (UUID: MIG-5a1d0000-0000-0000-0000-000000000000)
"""


def fake_run(outputs):
    """A stand-in for running a tool: `outputs` maps the program name to its stdout (None: missing)."""
    calls = []

    def run(cmd):
        calls.append(cmd)
        return outputs.get(cmd[0])
    run.calls = calls
    return run


class DetectGpus(TempDirTestCase):
    def kfd(self, gpu_ids):
        for i, gpu_id in enumerate(gpu_ids):
            os.makedirs(os.path.join(self.tmp, str(i)))
            with open(os.path.join(self.tmp, str(i), "gpu_id"), "w") as f:
                f.write(f"{gpu_id}\n")
        return self.tmp

    def test_nvidia_smi(self):
        run = fake_run({"nvidia-smi": NVIDIA_SMI_L})
        self.assertEqual(cluster.detect_gpus({}, run, kfd_nodes="/nonexistent"), 2)
        self.assertEqual(run.calls, [["nvidia-smi", "-L"]])

    def test_amd_kfd_topology(self):
        # Node 0 is the CPU (gpu_id 0); two GPUs.
        nodes = self.kfd([0, 48612, 21201])
        self.assertEqual(cluster.detect_gpus({}, fake_run({}), kfd_nodes=nodes), 2)

    def test_none(self):
        self.assertEqual(cluster.detect_gpus({}, fake_run({}), kfd_nodes="/nonexistent"), 0)
        self.assertEqual(cluster.detect_gpus({}, fake_run({"nvidia-smi": "No devices were found\n"}),
                                             kfd_nodes="/nonexistent"), 0)
        self.assertEqual(cluster.detect_gpus({}, fake_run({}), kfd_nodes=self.kfd([0])), 0)

    def test_visible_devices_win(self):
        run = fake_run({"nvidia-smi": NVIDIA_SMI_L})
        self.assertEqual(cluster.detect_gpus({"HIP_VISIBLE_DEVICES": "3"}, run), 1)
        self.assertEqual(cluster.detect_gpus({"CUDA_VISIBLE_DEVICES": "0,2,5"}, run), 3)
        self.assertEqual(cluster.detect_gpus({"CUDA_VISIBLE_DEVICES": ""}, run), 0)
        self.assertEqual(cluster.detect_gpus({"ROCR_VISIBLE_DEVICES": "-1"}, run), 0)
        self.assertEqual(run.calls, [])


class WorkerSpecs(unittest.TestCase):
    def test_one_worker_per_gpu(self):
        specs = cluster.worker_specs(2, 2)
        options = [spec["options"] for spec in specs.values()]
        self.assertEqual([o["env"] for o in options],
                         [{"VMAFHIP_BACKEND": "hip", "VMAFHIP_DEVICE": "0"},
                          {"VMAFHIP_BACKEND": "hip", "VMAFHIP_DEVICE": "1"}])
        self.assertTrue(all(o["resources"] == {"GPU": 1} and o["nthreads"] == 1 for o in options))

    def test_more_workers_than_gpus_share_round_robin(self):
        devices = [s["options"]["env"]["VMAFHIP_DEVICE"] for s in cluster.worker_specs(5, 2).values()]
        self.assertEqual(devices, ["0", "1", "0", "1", "0"])
        self.assertEqual(len(set(cluster.worker_specs(5, 2))), 5)

    def test_cpu_workers(self):
        options = [s["options"] for s in cluster.worker_specs(3, 0).values()]
        self.assertEqual([o["env"] for o in options], [{"VMAFHIP_BACKEND": "cpu"}] * 3)
        self.assertTrue(all("resources" not in o for o in options))


class Placement(unittest.TestCase):
    def test_from_environ(self):
        self.assertEqual(placement.from_environ({}), ("auto", 0))
        self.assertEqual(placement.from_environ({"VMAFHIP_DEVICE": "3"}), ("hip", 3))
        self.assertEqual(placement.from_environ({"VMAFHIP_BACKEND": "cpu"}), ("cpu", 0))
        self.assertEqual(placement.from_environ({"VMAFHIP_BACKEND": "auto", "VMAFHIP_DEVICE": "1"}),
                         ("auto", 1))

    def test_misconfigured(self):
        for env, fragment in (({"VMAFHIP_DEVICE": "gpu1"}, "VMAFHIP_DEVICE='gpu1'"),
                              ({"VMAFHIP_BACKEND": "cuda"}, "accepted: auto, cpu, hip")):
            with self.assertRaises(RenditionFailed) as caught:
                placement.from_environ(env)
            self.assertIn(fragment, caught.exception.message)

    def test_filter_options(self):
        self.assertEqual(placement.filter_options("hip", 2), "backend=hip:device=2:gpu_wait=1:n_threads=1")
        self.assertEqual(placement.filter_options("auto", 0), "backend=auto:device=0:gpu_wait=1")
        self.assertEqual(placement.filter_options("cpu", 0), "backend=cpu")


if __name__ == "__main__":
    unittest.main()
