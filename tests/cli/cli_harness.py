# SPDX-License-Identifier: Apache-2.0
"""Shared harness of the CLI test files: how gsys is run, the documented exit codes, a test
case with a scratch directory, the one-line-error assertion, and main().

The real nsys exports (--fixtures, ../shared/fixtures/nsys beside a team checkout) are not part
of the repository. A test that needs one gets it through fixture() or fixtures_dir(), which skip
the test when the folder is absent; main() then exits 77 (ctest SKIP_RETURN_CODE) after the
tests that need nothing run and pass, with one line naming the missing folder."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

SKIPPED = 77  # ctest's SKIP_RETURN_CODE for these scripts
FIXTURES_MISSING = "nsys fixtures not found"
EXIT_USAGE, EXIT_NOT_FOUND, EXIT_BAD_INPUT, EXIT_UNSUPPORTED, EXIT_IO = 2, 3, 4, 5, 6
MODERN = "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite"


class Paths:
    gsys = None      # the gsys binary (absolute)
    fixtures = None  # ../shared/fixtures/nsys


def gsys(*args, cwd=None):
    return subprocess.run([Paths.gsys, *args], capture_output=True, text=True, cwd=cwd)


def gsys_stderr_on_tty(*args, cwd=None):
    """Runs gsys with stderr on a pseudo-terminal (stdout piped): (returncode, stdout, what the
    terminal received)."""
    import pty
    master, slave = pty.openpty()
    env = dict(os.environ, TERM="xterm")
    proc = subprocess.Popen([Paths.gsys, *args], stdout=subprocess.PIPE, stderr=slave, cwd=cwd,
                            env=env)
    os.close(slave)
    received = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: the last writer closed the terminal
            break
        if not chunk:
            break
        received += chunk
    out = proc.stdout.read()
    proc.wait()
    os.close(master)
    return proc.returncode, out.decode(), received.decode(errors="replace")


def fixtures_dir():
    """The nsys fixtures folder; skips the calling test when it does not exist."""
    if not os.path.isdir(Paths.fixtures):
        raise unittest.SkipTest("%s: %s" % (FIXTURES_MISSING, Paths.fixtures))
    return Paths.fixtures


def fixture(name=MODERN):
    return os.path.join(fixtures_dir(), name)


class CliTestCase(unittest.TestCase):
    """A test with a scratch directory `self.tmp` and the modern fixture `self.fixture`."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-cli-")

    @property
    def fixture(self):
        # Looked up on use, so that tests which never touch it run without the fixtures.
        return fixture()

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
    missing = [t for t, why in result.skipped if why.startswith(FIXTURES_MISSING)]
    print("%d passed, %d failed, %d skipped" % (result.testsRun - failed - len(result.skipped),
                                                failed, len(result.skipped)))
    if not result.wasSuccessful():
        sys.exit(1)
    if missing:
        print("SKIPPED: %d tests need the nsys fixtures, not found at %s (optional: "
              "../shared/fixtures/nsys beside the checkout, see tests/README.md)"
              % (len(missing), os.path.abspath(Paths.fixtures)))
        sys.exit(SKIPPED)
    sys.exit(0)
