#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`gsys profile` / `gsys launch` command-line behaviour that needs no GPU and no test program
of ours: -e/--env-var lists, -x/--stop-on-exit false, -o NAME.nsys-rep, and gsys's summary
starting on a line of its own after a target whose last output line is unterminated.

usage: test_profile_cli.py --gsys GSYS --fixtures DIR"""
import fcntl
import os
import pty
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import time
import unittest

import cli_harness
from cli_harness import EXIT_USAGE, CliTestCase, Paths


def profile(tmp, *args, name="r", **kw):
    """`gsys profile -t none -o TMP/NAME ARGS...` (the target's own output is what we test)."""
    return subprocess.run([Paths.gsys, "profile", "-t", "none", "-o", os.path.join(tmp, name),
                           *args], capture_output=True, text=True, timeout=120, **kw)


def meta(report, name):
    with sqlite3.connect(f"file:{report}?mode=ro", uri=True) as db:
        row = db.execute("SELECT value FROM GSYS_META WHERE name = ?", (name,)).fetchone()
    return row[0] if row else None


PRINT_ABC = ["sh", "-c", 'printf "%s|%s|%s|%s\\n" "$A" "$B" "$C" "$CUDA_VISIBLE_DEVICES"']


class QuietTest(CliTestCase):
    def test_quiet_keeps_only_warnings_and_the_targets_output(self):
        loud = profile(self.tmp, "--stats=true", "-f", "true", *PRINT_ABC, name="loud")
        self.assertEqual(loud.returncode, 0, loud.stderr)
        self.assertIn("gsys: generated ", loud.stderr)
        self.assertIn("Processing [", loud.stdout + loud.stderr)
        quiet = profile(self.tmp, "-q", "--stats=true", "-f", "true", *PRINT_ABC, name="quiet")
        self.assertEqual((quiet.returncode, quiet.stdout, quiet.stderr), (0, "|||\n", ""))
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "quiet.gsys-rep")))


class EnvVarTest(CliTestCase):
    def test_a_comma_list_sets_every_variable(self):
        p = profile(self.tmp, "-e", "A=1,B=2", "--env-var=C=x,y", "-e",
                    "CUDA_VISIBLE_DEVICES=0,1", *PRINT_ABC)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "1|2|x,y|0,1\n")

    def test_later_values_win(self):
        p = profile(self.tmp, "-e", "A=1,B=2", "-e", "A=3", *PRINT_ABC)
        self.assertEqual(p.stdout, "3|2||\n", p.stderr)

    def test_launch_takes_the_same_lists(self):
        p = subprocess.run([Paths.gsys, "launch", "-t", "none", "-e", "A=1,B=2", "-e", "C=x,y",
                            "--", *PRINT_ABC], capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "1|2|x,y|\n")

    def test_bad_lists_are_one_line_errors_and_nothing_runs(self):
        marker = os.path.join(self.tmp, "ran")
        for bad in ["=x", "A", "", ",A=1", "1A=2"]:
            for verb in (["profile", "-t", "none"], ["launch", "-t", "none"]):
                p = subprocess.run([Paths.gsys, *verb, "-e", bad, "--", "touch", marker],
                                   capture_output=True, text=True, timeout=60)
                self.assertOneLineError(p, EXIT_USAGE, "bad --env-var", "NAME=VALUE")
                self.assertFalse(os.path.exists(marker), f"{verb} ran the target with -e {bad!r}")


class StopOnExitTest(CliTestCase):
    def test_false_without_a_duration_is_refused(self):
        for args in (["-x", "false"], ["--stop-on-exit=false"], ["-x", "false", "-d", "0"]):
            p = profile(self.tmp, *args, "true")
            self.assertOneLineError(p, EXIT_USAGE, "--stop-on-exit false needs -d/--duration")

    def test_false_keeps_the_session_until_the_duration_ends(self):
        start = time.monotonic()
        p = profile(self.tmp, "-x", "false", "-d", "1.5", "sh", "-c", "exit 3")
        elapsed = time.monotonic() - start
        self.assertEqual(p.returncode, 3, p.stderr)  # still the target's exit code
        # A lower bound only: the session cannot end before its duration, however loaded.
        self.assertGreaterEqual(elapsed, 1.5, p.stderr)
        report = os.path.join(self.tmp, "r.gsys-rep")
        self.assertEqual(meta(report, "stop_on_exit"), "false")

    def test_true_is_the_default_and_ends_with_the_target(self):
        p = profile(self.tmp, "-x", "true", "-d", "600", "true")
        self.assertEqual(p.returncode, 0, p.stderr)  # would time out (120 s) if it lingered
        self.assertIsNone(meta(os.path.join(self.tmp, "r.gsys-rep"), "stop_on_exit"))

    def test_sigint_ends_the_lingering_session_with_a_report(self):
        out = os.path.join(self.tmp, "k")
        g = subprocess.Popen([Paths.gsys, "profile", "-t", "none", "-o", out, "-x", "false",
                              "-d", "600", "true"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        try:
            pid = self.wait_for_target_gone(out + ".gsys-session", g)
            self.assertIsNotNone(pid, "the target never started")
            g.send_signal(signal.SIGINT)
            _, err = g.communicate(timeout=60)
        finally:
            if g.poll() is None:
                g.kill()
        self.assertEqual(g.returncode, 0, err)
        self.assertTrue(os.path.exists(out + ".gsys-rep"), err)

    @staticmethod
    def wait_for_target_gone(session, g):
        """The target's pid once it has exited and been reaped (gsys is then lingering)."""
        pid = None
        for _ in range(1200):
            if g.poll() is not None:
                return pid
            try:
                with open(os.path.join(session, "session.meta")) as f:
                    for line in f:
                        if line.startswith("target_pid="):
                            pid = int(line.split("=", 1)[1])
            except OSError:
                pass
            if pid is not None:
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    return pid
            time.sleep(0.05)
        return pid


class OutputNameTest(CliTestCase):
    def test_nsys_rep_extension_becomes_gsys_rep(self):
        p = profile(self.tmp, "true", name="run.nsys-rep")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(f for f in os.listdir(self.tmp) if "rep" in f), ["run.gsys-rep"])
        self.assertIn("generated " + os.path.join(self.tmp, "run.gsys-rep"), p.stderr)

    def test_gsys_rep_extension_is_not_doubled(self):
        profile(self.tmp, "true", name="run.gsys-rep")
        self.assertEqual(sorted(f for f in os.listdir(self.tmp) if "rep" in f), ["run.gsys-rep"])

    def test_percent_n_counts_gsys_reports(self):
        for _ in range(2):
            p = profile(self.tmp, "true", name="m%n.nsys-rep")
            self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(f for f in os.listdir(self.tmp) if "rep" in f),
                         ["m1.gsys-rep", "m2.gsys-rep"])

    def test_an_existing_report_is_found_through_the_nsys_name(self):
        profile(self.tmp, "true", name="x")
        p = profile(self.tmp, "true", name="x.nsys-rep")
        self.assertOneLineError(p, EXIT_USAGE, "x.gsys-rep' exists")

    def test_percent_p_is_the_targets_pid(self):
        p = profile(self.tmp, "true", name="r_%p_%%")
        self.assertEqual(p.returncode, 0, p.stderr)
        reports = [f for f in os.listdir(self.tmp) if f.endswith(".gsys-rep")]
        self.assertEqual(len(reports), 1, reports)
        pid = meta(os.path.join(self.tmp, reports[0]), "target_pid")
        self.assertEqual(reports, [f"r_{pid}_%.gsys-rep"])

    def test_a_q_variable_set_only_in_the_tree_with_repeat_ranges_is_refused(self):
        env = {k: v for k, v in os.environ.items() if k != "GSYS_TEST_UNSET_RANK"}
        p = profile(self.tmp, "-t", "nvtx", "-c", "nvtx", "-p", "r", "--capture-range-end",
                    "repeat", "true", name="r_%q{GSYS_TEST_UNSET_RANK}", env=env)
        self.assertOneLineError(p, EXIT_USAGE, "not supported with --capture-range-end=repeat")
        self.assertEqual(os.listdir(self.tmp), [])

    def test_a_q_variable_unset_everywhere_names_the_one_report_empty(self):
        env = {k: v for k, v in os.environ.items() if k != "GSYS_TEST_UNSET_RANK"}
        p = profile(self.tmp, "sh", "-c", "true", name="r_%q{GSYS_TEST_UNSET_RANK}", env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp)), ["r_.gsys-rep"])
        self.assertEqual(meta(os.path.join(self.tmp, "r_.gsys-rep"), "output_values"),
                         "GSYS_TEST_UNSET_RANK=")


def run_on_pty(argv, cols, env):
    """Runs argv with stdin/stdout/stderr on a pseudo-terminal `cols` wide; returns the bytes."""
    pid, fd = pty.fork()
    if pid == 0:
        try:
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
            os.execve(argv[0], argv, env)
        finally:
            os._exit(127)
    out = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the other side closed
            break
        if not chunk:
            break
        out += chunk
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return out.decode(errors="replace"), os.waitstatus_to_exitcode(status)


def screen(text, cols):
    """The lines a terminal `cols` wide with deferred wrap (xterm, VTE, tmux) shows."""
    lines, row, col, pending = [[]], 0, 0, False
    for ch in text:
        if ch == "\r":
            col, pending = 0, False
        elif ch == "\n":
            row, pending = row + 1, False
            while len(lines) <= row:
                lines.append([])
        elif ch >= " ":
            if pending:
                row, col, pending = row + 1, 0, False
                while len(lines) <= row:
                    lines.append([])
            line = lines[row]
            line.extend(" " * (col + 1 - len(line)))
            line[col] = ch
            if col == cols - 1:
                pending = True
            else:
                col += 1
    return ["".join(l).rstrip() for l in lines]


class SummaryLineTest(CliTestCase):
    def run_to_file(self, script, both=False):
        path = os.path.join(self.tmp, "err.txt")
        with open(path, "w") as err:
            p = subprocess.run([Paths.gsys, "profile", "-t", "none", "-o",
                                os.path.join(self.tmp, "r"), "-f", "true", "sh", "-c", script],
                               stdout=err if both else subprocess.DEVNULL, stderr=err, timeout=120)
        self.assertEqual(p.returncode, 0)
        with open(path) as f:
            return f.read()

    def test_file_stderr_without_final_newline(self):
        text = self.run_to_file("printf abc >&2")
        self.assertTrue(text.startswith("abc\ngsys: generated "), repr(text))

    def test_import_of_a_live_session_says_it_is_live(self):
        # `gsys import` of a session a running profile still holds: the report is partial, and
        # one warning says why; once the run has ended, no warning.
        env = dict(os.environ, GSYS_KEEP_SESSION="1")
        run = subprocess.Popen([Paths.gsys, "profile", "-t", "osrt", "-o",
                                os.path.join(self.tmp, "r"), "sleep", "3"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        session = os.path.join(self.tmp, "r.gsys-session")
        deadline = time.time() + 30
        while not os.path.exists(os.path.join(session, "session.meta")) and time.time() < deadline:
            time.sleep(0.05)
        partial = os.path.join(self.tmp, "x.gsys-rep")
        live = subprocess.run([Paths.gsys, "import", "-q", "-o", partial, session],
                              capture_output=True, text=True, timeout=60)
        run.communicate(timeout=60)
        self.assertEqual(run.returncode, 0)
        self.assertIn("is still being recorded by a live gsys run", live.stderr)
        self.assertEqual(len([l for l in live.stderr.splitlines() if "still being" in l]), 1)
        done = subprocess.run([Paths.gsys, "import", "-q", "-f", "true", "-o",
                               os.path.join(self.tmp, "x.gsys-rep"), session],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("still being recorded", done.stderr)

    def test_file_stderr_with_final_newline_gets_no_blank_line(self):
        text = self.run_to_file("printf 'abc\\n' >&2")
        self.assertTrue(text.startswith("abc\ngsys: generated "), repr(text))

    def test_stdout_and_stderr_in_one_file(self):
        text = self.run_to_file("printf abc", both=True)
        self.assertTrue(text.startswith("abc\ngsys: generated "), repr(text))

    def test_terminal(self):
        cols = 40
        env = dict(os.environ, TERM="xterm")
        for script in ("printf abc >&2", "printf 'abc\\n' >&2", "printf abc"):
            out, rc = run_on_pty([Paths.gsys, "profile", "-t", "none", "-o",
                                  os.path.join(self.tmp, "t"), "-f", "true", "/bin/sh", "-c",
                                  script], cols, env)
            self.assertEqual(rc, 0, out)
            shown = screen(out, cols)
            self.assertEqual(shown[0], "abc", f"{script}: {shown!r} from {out!r}")
            # The next line is gsys's (the import progress bar or the summary): no blank line.
            self.assertRegex(shown[1], r"^(\[1/1\]|gsys: )", f"{script}: {shown!r}")
            self.assertTrue(any(l.startswith("gsys: generated ") for l in shown), shown)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    cli_harness.main()
