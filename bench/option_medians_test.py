#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Known answers for bench/option_medians.py: medians, added time over "none", the run-by-run
pairs, and a failed run (no figure) or an empty log failing loudly instead of being averaged
away.  python3 bench/option_medians_test.py"""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "option_medians.py")
# Three interleaved repetitions. none 4.0 5.0 4.5 -> median 4.5; gsys 6.0 8.0 5.0 -> 6.0 (+1.5);
# nsys 7.0 7.5 6.5 -> 7.0 (+2.5). Per repetition gsys/nsys added +2.0/+3.0, +3.0/+2.5,
# +0.5/+2.0: gsys added no more than nsys in 2 of 3.
LOG = """launch none us_per_launch=4.0
launch gsys us_per_launch=6.0
launch nsys us_per_launch=7.0
launch none us_per_launch=5.0
launch gsys us_per_launch=8.0
launch nsys us_per_launch=7.5
launch none us_per_launch=4.5
launch gsys us_per_launch=5.0
launch nsys us_per_launch=6.5
torch none us_per_op=10.0
torch gsys us_per_op=12.25
"""


def run(text, *args):
    with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
        f.write(text)
    try:
        return subprocess.run([sys.executable, SCRIPT, *args, f.name], capture_output=True,
                              text=True, timeout=60)
    finally:
        os.unlink(f.name)


class OptionMediansTest(unittest.TestCase):
    def test_medians_and_added(self):
        r = run(LOG)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        gsys = next(line for line in lines if line.startswith("launch gsys"))
        self.assertIn("median   6.000 us/op  added  +1.500", gsys)
        nsys = next(line for line in lines if line.startswith("launch nsys"))
        self.assertIn("median   7.000 us/op  added  +2.500", nsys)
        torch = next(line for line in lines if line.startswith("torch  gsys"))
        self.assertIn("added  +2.250", torch)

    def test_pairs(self):
        r = run(LOG, "--pair", "gsys:nsys")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("launch gsys vs nsys: gsys added <= nsys added in 2 of 3 repetitions",
                      r.stdout)
        self.assertIn("+2.000/+3.000 +3.000/+2.500 +0.500/+2.000", r.stdout)
        # torch has no nsys runs: no pair line for it.
        self.assertNotIn("torch  gsys vs nsys", r.stdout)

    def test_run_without_figure_fails(self):
        r = run(LOG + "launch nsys\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("(1 of 4 runs gave no figure)", r.stdout)
        self.assertEqual(r.stderr, "option_medians: 1 runs gave no figure\n")

    def test_empty_log_fails(self):
        r = run("launch none\nlaunch gsys\n")
        self.assertEqual(r.returncode, 1)
        self.assertIn("launch gsys               no figure in 1 runs", r.stdout)
        self.assertIn("option_medians: no figure in", r.stderr)
        self.assertEqual(r.stderr.count("\n"), 1)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
