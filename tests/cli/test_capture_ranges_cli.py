#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""NVTX capture ranges that do what users expect (issue 19 item 5): `-c nvtx -p NAME` matches
plain-string ranges as well as registered ones unless NSYS_NVTX_PROFILER_REGISTER_ONLY=1 (nsys's
default, docs/differences-from-nsys.md); a range that never opens is said so with the ranges the
program did open; a range end that shuts the session down says so.

The program is tests/capture/progs/nvtx_patterns.cc: `trigger N` pushes N "pre" ranges, one
empty plain-string "capture_me" range, then a registered "capture_me" range around N "inside"
ranges, then N "post" ranges, all in domain "Dom"; `windows N M` pushes (2 "outside", a "win"
range around M "work") N times, then 2 "outside", plain strings in the default domain;
`killable N` pushes N "before" ranges, then "during" ranges forever.

usage: test_capture_ranges_cli.py --gsys GSYS --fixtures DIR"""
import os
import subprocess

import cli_harness
from cli_harness import CliTestCase, Paths
from nvtx_program import nvtx_program, texts


def run(*args, env=None, timeout=120):
    full = {k: v for k, v in os.environ.items() if k != "NSYS_NVTX_PROFILER_REGISTER_ONLY"}
    full.update(env or {})
    return subprocess.run([Paths.gsys, *args], capture_output=True, text=True, timeout=timeout,
                          env=full)


class RegisteredOnlyTest(CliTestCase):
    def profile_trigger(self, *extra, env=None):
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "capture_me@Dom",
                "--capture-range-end", "stop", "-f", "true", "-o", out, *extra, "--",
                nvtx_program(), "trigger", "5", env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        return texts(out + ".gsys-rep")

    def test_plain_string_matches_by_default(self):
        # The plain "capture_me" comes first and is empty: the window holds only it.
        self.assertEqual(self.profile_trigger(), {"capture_me": 1})

    def test_register_only_1_is_nsys_behaviour(self):
        # Only the registered "capture_me" opens the window: it and its 5 "inside" ranges.
        got = self.profile_trigger(env={"NSYS_NVTX_PROFILER_REGISTER_ONLY": "1"})
        self.assertEqual(got, {"capture_me": 1, "inside": 5})

    def test_register_only_0_is_the_default_too(self):
        got = self.profile_trigger(env={"NSYS_NVTX_PROFILER_REGISTER_ONLY": "0"})
        self.assertEqual(got, {"capture_me": 1})

    def test_the_applications_environment_wins(self):
        # nsys reads the variable from the application's environment (-e).
        got = self.profile_trigger("-e", "NSYS_NVTX_PROFILER_REGISTER_ONLY=1")
        self.assertEqual(got, {"capture_me": 1, "inside": 5})
        got = self.profile_trigger("-e", "NSYS_NVTX_PROFILER_REGISTER_ONLY=0",
                                   env={"NSYS_NVTX_PROFILER_REGISTER_ONLY": "1"})
        self.assertEqual(got, {"capture_me": 1})


class NeverOpenedTest(CliTestCase):
    def test_stop_lists_the_ranges_seen_in_first_seen_order(self):
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "nope@Dom", "--capture-range-end",
                "stop", "-o", out, "--", nvtx_program(), "trigger", "3")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("gsys: the capture range never opened: no NVTX range matched -p "
                      "'nope@Dom'; ranges seen: pre@Dom, capture_me@Dom, capture_me@Dom "
                      "(registered), inside@Dom, post@Dom\n", p.stderr)
        self.assertEqual(texts(out + ".gsys-rep"), {})

    def test_repeat_writes_no_report_and_says_why(self):
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "wim", "--capture-range-end",
                "repeat", "-o", out, "--", nvtx_program(), "windows", "2", "3")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("gsys: the capture range never opened: no NVTX range matched -p 'wim'; "
                      "ranges seen: outside, win, work; no report written\n", p.stderr)
        self.assertEqual([f for f in os.listdir(self.tmp) if f.endswith(".gsys-rep")], [])

    def test_a_plain_string_skipped_by_register_only_is_named(self):
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "win", "--capture-range-end", "stop",
                "-o", out, "--", nvtx_program(), "windows", "1", "1",
                env={"NSYS_NVTX_PROFILER_REGISTER_ONLY": "1"})
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("ranges seen: outside, win, work; 'win' is a plain string, and "
                      "NSYS_NVTX_PROFILER_REGISTER_ONLY=1 matches registered strings only\n",
                      p.stderr)

    def test_no_line_when_the_range_opened(self):
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "win", "--capture-range-end", "stop",
                "-o", out, "--", nvtx_program(), "windows", "1", "4")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("never opened", p.stderr)
        self.assertEqual(texts(out + ".gsys-rep"), {"win": 1, "work": 4})


class StopShutdownTest(CliTestCase):
    def test_the_range_end_ending_the_target_is_said(self):
        # profile's default range end is stop-shutdown: the first "during" range closes the
        # window and SIGTERM ends the (otherwise endless) program.
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "during", "-o", out, "--",
                nvtx_program(), "killable", "3")
        self.assertEqual(p.returncode, 128 + 15, p.stderr)
        self.assertIn("gsys: the capture range ended (--capture-range-end stop-shutdown): the "
                      "session ended and SIGTERM was sent to the target (--capture-range-end "
                      "stop keeps it running)\n", p.stderr)
        self.assertEqual(texts(out + ".gsys-rep"), {"during": 1})

    def test_kill_names_the_signal(self):
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "during", "--kill", "sigkill",
                "-o", out, "--", nvtx_program(), "killable", "3")
        self.assertEqual(p.returncode, 128 + 9, p.stderr)
        self.assertIn("and SIGKILL was sent to the target", p.stderr)

    def test_repeat_shutdown_ends_the_target_after_n_ranges(self):
        # nsys's repeat-shutdown:N: N reports, one per "during" range, then the kill signal.
        out = os.path.join(self.tmp, "r")
        p = run("profile", "-t", "nvtx", "-c", "nvtx", "-p", "during", "--capture-range-end",
                "repeat-shutdown:2", "-o", out, "--", nvtx_program(), "killable", "3")
        self.assertEqual(p.returncode, 128 + 15, p.stderr)
        self.assertIn("gsys: 2 capture range(s) recorded (--capture-range-end "
                      "repeat-shutdown:2): ending the target\n", p.stderr)
        reports = sorted(f for f in os.listdir(self.tmp) if f.endswith(".gsys-rep"))
        self.assertEqual(len(reports), 2, p.stderr)
        for r in reports:
            self.assertEqual(texts(os.path.join(self.tmp, r)), {"during": 1}, r)


if __name__ == "__main__":
    cli_harness.main()
