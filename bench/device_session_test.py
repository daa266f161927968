#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/device_session.sh off the GPU machine: a phase whose prerequisite is missing fails with
one line naming it and a non-zero status (no empty figures), a 2-GPU phase on a 1-GPU machine
is skipped with a line, an unknown phase is refused before anything runs, and what comes back is
machine.txt, digest.txt and logs.tgz. Runs in a scratch "repository root" holding only bench/,
with a fake nvidia-smi that lists one GPU.
  python3 bench/device_session_test.py"""
import os
import subprocess
import sys
import tarfile
import tempfile
import unittest

BENCH = os.path.dirname(os.path.abspath(__file__))


class DeviceSessionTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = os.path.join(self.tmp.name, "root")
        os.makedirs(self.root)
        os.symlink(BENCH, os.path.join(self.root, "bench"))
        fake_bin = os.path.join(self.tmp.name, "bin")
        os.makedirs(fake_bin)
        smi = os.path.join(fake_bin, "nvidia-smi")
        with open(smi, "w") as f:
            f.write("#!/bin/sh\necho 'GPU 0: NVIDIA H200 (UUID: GPU-test)'\n")
        os.chmod(smi, 0o755)
        self.env = dict(os.environ, PATH=fake_bin + os.pathsep + os.environ["PATH"],
                        NSYS=os.path.join(self.tmp.name, "no-nsys"))
        self.out = os.path.join(self.tmp.name, "out")

    def tearDown(self):
        self.tmp.cleanup()

    def session(self, *phases):
        return subprocess.run(["bash", "bench/device_session.sh", self.out, *phases],
                              cwd=self.root, env=self.env, capture_output=True, text=True,
                              timeout=120)

    def test_missing_build_fails_loudly(self):
        r = self.session("overhead", "parity", "stats-speed")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        gsys = os.path.join(self.root, "build-gpu-slim", "bin", "gsys")
        for phase in ("overhead", "parity", "stats-speed"):
            self.assertIn(f"{phase}: missing {gsys} (carry the release build as build-gpu-slim)",
                          r.stdout)
            self.assertIn(f"== {phase}: FAILED rc=3", r.stdout)
        self.assertIn("failed: overhead parity stats-speed", r.stdout)
        with open(os.path.join(self.out, "digest.txt")) as f:
            self.assertIn("== overhead: FAILED rc=3", f.read())

    def test_missing_nsys_named_after_gsys_is_found(self):
        # A build with gsys but no nsys: the line names the nsys path, not an empty figure.
        gsys = os.path.join(self.root, "build-gpu-slim", "bin", "gsys")
        os.makedirs(os.path.dirname(gsys))
        with open(gsys, "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(gsys, 0o755)
        r = self.session("options")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f"options: missing nsys at {self.env['NSYS']} (set NSYS to nsys 2025.3.1)",
                      r.stdout)

    def test_ddp_skipped_on_one_gpu(self):
        r = self.session("ddp")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("ddp: skipped: needs 2 GPUs, this machine has 1", r.stdout)
        self.assertIn("== ddp: skipped", r.stdout)
        self.assertIn("skipped: ddp", r.stdout)

    def test_fuzz_long_needs_the_pack(self):
        r = self.session("fuzz-long")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("fuzz-long: missing " + os.path.join(self.root, "fuzz-pack", "fuzz_long.sh"),
                      r.stdout)

    def test_unknown_phase_refused_before_running(self):
        r = self.session("gpu", "no-such-phase")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertIn("device_session: unknown phase 'no-such-phase'", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.out, "digest.txt")))

    def test_files_that_come_back(self):
        self.session("ddp", "gpu")
        self.assertEqual(sorted(os.listdir(self.out)), ["digest.txt", "logs.tgz", "machine.txt"])
        with tarfile.open(os.path.join(self.out, "logs.tgz")) as t:
            names = t.getnames()
        self.assertIn("./gpu/stderr.log", names)
        self.assertIn("./ddp/stderr.log", names)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
