#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""bench/check_suite.py passes on this tree and names each kind of drift in a scratch copy of
bench/: an unlisted script, a listed script removed, a phase missing from the table, a cited
raw log that is gone, an uncited one, a current-figures command naming no phase.
  python3 bench/check_suite_test.py"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

BENCH = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(BENCH, "check_suite.py")


def check(root):
    r = subprocess.run([sys.executable, CHECK, "--root", root], capture_output=True, text=True,
                       timeout=60)
    return r.returncode, r.stderr


class CheckSuiteTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        shutil.copytree(BENCH, os.path.join(self.root, "bench"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        # The one script outside bench/ that the README names.
        os.makedirs(os.path.join(self.root, "tests/parity"))
        open(os.path.join(self.root, "tests/parity/make_corpus.sh"), "w").close()

    def tearDown(self):
        self.tmp.cleanup()

    def edit(self, rel, old, new):
        path = os.path.join(self.root, rel)
        with open(path) as f:
            text = f.read()
        self.assertIn(old, text)
        with open(path, "w") as f:
            f.write(text.replace(old, new, 1))

    def test_this_tree_passes(self):
        self.assertEqual(check(os.path.dirname(BENCH)), (0, ""))
        self.assertEqual(check(self.root), (0, ""))

    def test_unlisted_script(self):
        open(os.path.join(self.root, "bench/capture/new_bench.sh"), "w").close()
        self.assertEqual(check(self.root), (
            1, "check_suite: bench/capture/new_bench.sh is not named in bench/README.md\n"))

    def test_listed_script_removed(self):
        os.unlink(os.path.join(self.root, "bench/serving_gpu.sh"))
        rc, err = check(self.root)
        self.assertEqual(rc, 1)
        self.assertIn("bench/README.md names bench/serving_gpu.sh, which does not exist", err)

    def test_phase_not_in_table(self):
        self.edit("bench/device_session.sh", "deep-nesting fuzz-long)",
                  "deep-nesting fuzz-long warm-up)")
        self.assertEqual(check(self.root), (
            1, "check_suite: phase warm-up is not in bench/README.md's phase table\n"))

    def test_row_names_the_wrong_script(self):
        self.edit("bench/README.md", "| `ddp` | `bench/device/ddp.sh` |",
                  "| `ddp` | `bench/ddp/run_ddp.sh` |")
        rc, err = check(self.root)
        self.assertIn("phase ddp runs bench/device/ddp.sh, not bench/ddp/run_ddp.sh", err)

    def test_results_citations(self):
        self.edit("bench/RESULTS.md", "# History", "# History\n\nSee bench/results/gone.txt.\n")
        os.makedirs(os.path.join(self.root, "bench/results/orphan_run"))
        rc, err = check(self.root)
        self.assertEqual(rc, 1)
        self.assertIn("bench/RESULTS.md cites bench/results/gone.txt, which does not exist", err)
        self.assertIn("bench/results/orphan_run is cited nowhere in bench/RESULTS.md", err)

    def test_current_figures_phase(self):
        self.edit("bench/RESULTS.md", "# History",
                  "`bash bench/device_session.sh OUT gpu warp-speed`\n\n# History")
        self.assertEqual(check(self.root), (
            1, "check_suite: bench/RESULTS.md's current figures name phase warp-speed, which "
               "device_session.sh lacks\n"))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
