#!/usr/bin/env python3
"""tools/check-layers passes on this tree and fails on each kind of arrow
against the layer order, planted in a copy of the tree."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
CHECK = os.path.join(ROOT, "tools", "check-layers")
# What check-layers reads.
CHECKED = ["base", "kernels", "extractors", "core", "include", "filter", "tools", "ladder"]


def run_check(root):
    p = subprocess.run([sys.executable, CHECK, "--root", root], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class CheckLayers(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="check-layers-")
        ignore = shutil.ignore_patterns("build*", "__pycache__", "*.o")
        for d in CHECKED:
            shutil.copytree(os.path.join(ROOT, d), os.path.join(cls.tmp, d), ignore=ignore)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def planted(self, path, line, expected):
        """check-layers on the copy with `line` added at the top of `path`."""
        full = os.path.join(self.tmp, path)
        with open(full, encoding="utf-8") as f:
            original = f.read()
        try:
            with open(full, "w", encoding="utf-8") as f:
                f.write(line + "\n" + original)
            rc, out = run_check(self.tmp)
        finally:
            with open(full, "w", encoding="utf-8") as f:
                f.write(original)
        self.assertEqual(rc, 1, out)
        self.assertIn(f"{path}:1: {expected}", out)
        self.assertEqual(sum(1 for l in out.splitlines() if ":1: " in l), 1, out)

    def test_this_tree_passes(self):
        rc, out = run_check(ROOT)
        self.assertEqual(rc, 0, out)

    def test_the_copy_passes(self):
        rc, out = run_check(self.tmp)
        self.assertEqual(rc, 0, out)

    def test_kernels_include_core(self):
        self.planted("kernels/frame.h", '#include "core/context.h"', "includes core/context.h: core/ is not below kernels/")

    def test_base_includes_extractors(self):
        self.planted("base/log.h", '#include "extractors/extractor.h"', "includes extractors/extractor.h")

    def test_metric_includes_core(self):
        self.planted("extractors/psnr/psnr.cpp", '#include "core/metrics.h"', "includes core/metrics.h")

    def test_core_room_includes_a_higher_room(self):
        self.planted("core/model/model.cpp", '#include "core/context.h"', "includes core/context.h: core/ is not below core/model/")

    def test_peer_rooms(self):
        self.planted("core/gpu/gpu_start.cpp", '#include "core/model/model.h"', "includes core/model/model.h: core/model/ is not below core/gpu/")

    def test_tool_reaches_inside(self):
        self.planted("tools/vmafhip/main.cpp", '#include "core/metrics.h"', "includes core/metrics.h: core/ is not below tools/")

    def test_filter_reaches_inside(self):
        self.planted("filter/vf_libvmaf_hip.c", '#include "base/log.h"', "includes base/log.h")

    def test_public_header_includes_the_library(self):
        self.planted("include/vmafhip.h", '#include "base/log.h"', "includes base/log.h: base/ is not below include/")

    def test_ladder_imports_outside(self):
        self.planted("ladder/vmafhip_ladder/media.py", "import numpy", "imports numpy")


if __name__ == "__main__":
    unittest.main(verbosity=2)
