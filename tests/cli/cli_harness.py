# SPDX-License-Identifier: Apache-2.0
"""Shared harness of the CLI test files: how gsys is run, the documented exit codes, a test
case with a scratch directory, the one-line-error assertion, and main()."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

EXIT_USAGE, EXIT_NOT_FOUND, EXIT_BAD_INPUT, EXIT_UNSUPPORTED, EXIT_IO = 2, 3, 4, 5, 6
MODERN = "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite"


class Paths:
    gsys = None      # the gsys binary (absolute)
    fixtures = None  # ../shared/fixtures/nsys


def gsys(*args, cwd=None):
    return subprocess.run([Paths.gsys, *args], capture_output=True, text=True, cwd=cwd)


def fixture(name=MODERN):
    return os.path.join(Paths.fixtures, name)


class CliTestCase(unittest.TestCase):
    """A test with a scratch directory `self.tmp` and the modern fixture `self.fixture`."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-cli-")
        self.fixture = fixture()

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def assertOneLineError(self, proc, code, *needles):
        """Exit `code`, exactly one line on stderr (no traceback), containing every needle."""
        self.assertEqual(proc.returncode, code, proc.stderr)
        lines = proc.stderr.strip().splitlines()
        self.assertEqual(len(lines), 1, proc.stderr)
        self.assertNotIn("Traceback", proc.stderr)
        for needle in needles:
            self.assertIn(needle, lines[0])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    args, rest = ap.parse_known_args()
    Paths.gsys, Paths.fixtures = os.path.abspath(args.gsys), args.fixtures
    result = unittest.main(module="__main__", argv=[sys.argv[0], *rest], exit=False,
                           verbosity=1).result
    failed = len(result.failures) + len(result.errors)
    print("%d passed, %d failed" % (result.testsRun - failed, failed))
    sys.exit(0 if result.wasSuccessful() else 1)
