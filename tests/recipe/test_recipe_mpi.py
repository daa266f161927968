#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`gsys recipe --mode mpi` under `mpirun -np N` on localhost gives byte-identical CSVs to the
local mode. Skipped, with the reason printed, when mpirun (Debian's openmpi-bin) is absent."""
import os
import shutil
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from cli_harness import CliTestCase, Paths, gsys, main  # noqa: E402

import sets  # noqa: E402

MPIRUN = shutil.which("mpirun")
RECIPES = [["cuda_gpu_kern_sum"], ["nccl_gpu_overlap_trace"], ["nvtx_pace", "--name", "step"],
           ["cuda_gpu_time_util_map", "--bins", "7"], ["nccl_sum"], ["gpu_gaps", "--gap", "1"],
           ["nvtx_gpu_proj_trace"], ["cuda_gpu_kern_sum", "--filter-nvtx", "step"]]


def csvs(directory):
    out = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".csv"):
            with open(os.path.join(directory, name), "rb") as f:
                out[name] = f.read()
    return out


@unittest.skipUnless(MPIRUN, "mpirun not found (install openmpi-bin to run the MPI mode test)")
class RecipeMpiTest(CliTestCase):
    def mpirun(self, np, *args):
        env = dict(os.environ, OMPI_MCA_btl_vader_single_copy_mechanism="none",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        # Under the ASan build, LeakSanitizer reports Open MPI's own allocations that outlive
        # MPI_Finalize (libmpi and its dlopen'ed components): leak checks stay on everywhere else.
        env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
        return subprocess.run([MPIRUN, "--allow-run-as-root", "--oversubscribe", "-np", str(np),
                               Paths.gsys, "recipe", *args, "--mode", "mpi"],
                              capture_output=True, text=True, env=env, timeout=300)

    def test_mpi_matches_local(self):
        train = os.path.join(self.tmp, "train")
        sets.make_train(train)
        for k, recipe in enumerate(RECIPES):
            for np in (2, 3):
                with self.subTest(recipe=" ".join(recipe), np=np):
                    local = os.path.join(self.tmp, "local-%d-%s-%d" % (k, recipe[0], np))
                    mpi = os.path.join(self.tmp, "mpi-%d-%s-%d" % (k, recipe[0], np))
                    proc = gsys("recipe", *recipe, "--input", train, "--output", local)
                    self.assertEqual(proc.returncode, 0, proc.stderr)
                    proc = self.mpirun(np, *recipe, "--input", train, "--output", mpi)
                    self.assertEqual(proc.returncode, 0, proc.stdout + proc.stderr)
                    self.assertEqual(proc.stdout.count("recipe %s:" % recipe[0]), 1)
                    self.assertEqual(csvs(local), csvs(mpi))
                    self.assertGreater(len(csvs(mpi)), 1)

    def test_mpi_errors_reach_every_process(self):
        out = os.path.join(self.tmp, "exists")
        os.makedirs(out)
        train = os.path.join(self.tmp, "train")
        sets.make_train(train)
        proc = self.mpirun(2, "cuda_gpu_kern_sum", "--input", train, "--output", out)
        self.assertNotEqual(proc.returncode, 0)
        self.assertIn("already exists", proc.stderr)


if __name__ == "__main__":
    if not MPIRUN:
        print("SKIPPED: mpirun not found (install openmpi-bin to run the MPI mode test)")
    main()
