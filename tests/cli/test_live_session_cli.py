#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Interactive commands on a live session (issue 19 item 6): gsys cancel, gsys status,
gsys stop --keep, gsys sessions list -f json, and gsys start with -c nvtx, -t, --stats and
--export. Each test runs `gsys launch` on tests/capture/progs/nvtx_patterns.cc's `steps 3`
mode (endless: an "outside" range, then a "step" range around 3 "work" ranges, every ~2 ms;
"ready" on stdout after the first step), talks to it from "another shell" and ends it with
gsys shutdown.

usage: test_live_session_cli.py --gsys GSYS --fixtures DIR"""
import json
import os
import sqlite3
import subprocess
import time

import cli_harness
from cli_harness import EXIT_USAGE, CliTestCase, Paths
from nvtx_program import nvtx_program, texts


def meta(report, name):
    with sqlite3.connect(report) as db:
        return db.execute("SELECT value FROM GSYS_META WHERE name = ?", (name,)).fetchone()[0]


class LiveSessionTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("NSYS_")}
        self.env["GSYS_SESSIONS_DIR"] = os.path.join(self.tmp, "sessions")
        self.launch = None

    def tearDown(self):
        if self.launch is not None:
            if self.launch.poll() is None:
                self.launch.terminate()
                self.launch.wait(timeout=30)
            self.launch.stdout.close()
        super().tearDown()

    def gsys(self, *args, timeout=120):
        return subprocess.run([Paths.gsys, *args], capture_output=True, text=True,
                              timeout=timeout, env=self.env)

    def start_session(self, *options):
        """`gsys launch --session-new s OPTIONS -- steps 3`, once its target said ready."""
        self.launch_err = os.path.join(self.tmp, "launch.err")
        with open(self.launch_err, "w") as err:
            self.launch = subprocess.Popen(
                [Paths.gsys, "launch", "--session-new", "s", "-o", self.tmp + "/", *options,
                 "--", nvtx_program(), "steps", "3"], stdout=subprocess.PIPE, stderr=err,
                text=True, env=self.env)
        self.assertEqual(self.launch.stdout.readline(), "ready\n", self.stderr_of_launch())

    def end_session(self):
        p = self.gsys("shutdown", "--session", "s")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.launch.stdout.read()
        self.assertEqual(self.launch.wait(timeout=60), 128 + 15, self.stderr_of_launch())
        return self.stderr_of_launch()

    def stderr_of_launch(self):
        with open(self.launch_err) as f:
            return f.read()

    def report(self, name):
        return os.path.join(self.tmp, name + ".gsys-rep")

    def wait_for(self, path, timeout=60):
        deadline = time.monotonic() + timeout
        while not os.path.exists(path) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(os.path.exists(path), path + "\n" + self.stderr_of_launch())

    def status(self):
        p = self.gsys("status", "--session", "s")
        self.assertEqual(p.returncode, 0, p.stderr)
        return dict(line.split(": ", 1) for line in p.stdout.splitlines())


class CancelAndStatusTest(LiveSessionTest):
    def test_cancel_discards_the_window_and_status_counts_it(self):
        self.start_session("-t", "nvtx")
        st = self.status()
        self.assertEqual(st["State"], "idle")
        self.assertEqual(st["Kind"], "launch")
        self.assertEqual(st["Trace"], "nvtx")
        self.assertEqual(st["Reports"], "0 written, 0 being written, 0 failed, 0 cancelled")
        self.assertEqual(self.gsys("start", "-o", "c1").returncode, 0)
        self.assertRegex(self.status()["State"], r"^recording \(window 1, open for \d+\.\d s\)$")
        p = self.gsys("cancel")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("window cancelled; no report written", p.stderr)
        self.assertEqual(self.status()["State"], "idle")
        self.assertOneLineError(self.gsys("cancel"), EXIT_USAGE, "cancel: nothing to cancel")
        self.assertOneLineError(self.gsys("stop"), EXIT_USAGE, "no capture window is open")
        self.assertEqual(self.gsys("start", "-o", "k1").returncode, 0)
        p = self.gsys("stop")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout, "gsys: generated %s\n" % self.report("k1"))
        st = self.status()
        self.assertEqual(st["Reports"], "1 written, 0 being written, 0 failed, 1 cancelled")
        self.end_session()
        self.assertFalse(os.path.exists(self.report("c1")))
        self.assertGreater(texts(self.report("k1")).get("step", 0), 0)

    def test_stop_keep_keeps_the_last_seconds(self):
        self.start_session("-t", "nvtx")
        for name, keep in (("all", []), ("last", ["--keep", "0.2"])):
            self.assertEqual(self.gsys("start", "-o", name).returncode, 0)
            time.sleep(0.6)
            p = self.gsys("stop", *keep)
            self.assertEqual(p.returncode, 0, p.stderr)
        self.end_session()

        def window(report):
            return (int(meta(report, "capture_window_start_ns")),
                    int(meta(report, "capture_window_end_ns")))
        start, end = window(self.report("last"))
        self.assertEqual(end - start, 200_000_000)  # launcher windows are not snapped
        all_start, all_end = window(self.report("all"))
        self.assertGreaterEqual(all_end - all_start, 600_000_000)
        with sqlite3.connect(self.report("last")) as db:
            first = db.execute("SELECT min(start) FROM NVTX_EVENTS").fetchone()[0]
        self.assertGreaterEqual(first, start)

    def test_bad_keep_is_one_line(self):
        self.assertOneLineError(self.gsys("stop", "--keep", "soon"), EXIT_USAGE, "stop:", "--keep")


class SessionsListTest(LiveSessionTest):
    def test_json_lists_the_live_session(self):
        self.assertEqual(json.loads(self.gsys("sessions", "list", "-f", "json").stdout), [])
        self.start_session("-t", "nvtx")
        p = self.gsys("sessions", "list", "--output-format", "json")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(json.loads(p.stdout), [{
            "name": "s", "pid": self.launch.pid, "kind": "launch",
            "command": nvtx_program() + " steps 3"}])
        self.end_session()

    def test_bad_format_is_one_line(self):
        self.assertOneLineError(self.gsys("sessions", "list", "-f", "xml"), EXIT_USAGE,
                                "sessions: bad --output-format 'xml' (expected plain or json)")


class StartOptionsTest(LiveSessionTest):
    def test_c_nvtx_arms_the_launch_range_for_n_windows(self):
        self.start_session("-t", "nvtx", "-p", "step")
        p = self.gsys("start", "-c", "nvtx", "--capture-range-end", "repeat:2", "-o", "win")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("capture range armed", p.stderr)
        self.wait_for(self.report("win-2"))
        time.sleep(0.3)  # a third window would be finalized by now
        st = self.status()
        self.assertEqual(st["Reports"], "2 written, 0 being written, 0 failed, 0 cancelled")
        self.assertEqual(st["State"], "idle")
        # Each window is exactly one "step" range: the step and its 3 work ranges.
        self.assertEqual(texts(self.report("win")), {"step": 1, "work": 3})
        self.assertEqual(texts(self.report("win-2")), {"step": 1, "work": 3})
        self.end_session()
        self.assertFalse(os.path.exists(self.report("win-3")))

    def test_cancel_disarms_an_armed_range(self):
        self.start_session("-t", "nvtx", "-p", "nope")
        self.assertEqual(self.gsys("start", "-c", "nvtx").returncode, 0)
        self.assertEqual(self.status()["State"], "waiting for the capture range")
        self.assertOneLineError(self.gsys("start"), EXIT_USAGE, "a capture range is armed")
        p = self.gsys("cancel")
        self.assertIn("capture range cancelled", p.stderr)
        self.assertEqual(self.status()["Reports"], "0 written, 0 being written, 0 failed, "
                         "1 cancelled")
        err = self.end_session()
        self.assertIn("gsys: the capture range never opened: no NVTX range matched -p 'nope'; "
                      "ranges seen: outside, step, work\n", err)

    def test_what_the_running_tree_cannot_do_is_refused(self):
        self.start_session("-t", "nvtx")
        self.assertOneLineError(self.gsys("start", "-c", "nvtx"), EXIT_USAGE,
                                "start: -c nvtx needs a session started with -p/--nvtx-capture")
        self.assertOneLineError(self.gsys("start", "-c", "cudaProfilerApi"), EXIT_USAGE,
                                "start: -c cudaProfilerApi: give it to gsys launch")
        self.assertOneLineError(self.gsys("start", "-t", "nvtx,osrt"), EXIT_USAGE,
                                "start: -t osrt: the session's tree records nvtx only")
        self.assertOneLineError(self.gsys("start", "--capture-range-end", "stop-shutdown"),
                                EXIT_USAGE, "start: bad --capture-range-end 'stop-shutdown'")
        self.assertEqual(self.status()["State"], "idle")
        self.end_session()

    def test_t_narrower_than_launch_is_noted_as_ignored(self):
        self.start_session("-t", "nvtx,osrt")
        p = self.gsys("start", "-t", "nvtx", "-o", "n")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("gsys: note: -t nvtx is accepted and ignored: every window records what "
                      "gsys launch -t chose (nvtx,osrt)", p.stderr)
        self.assertEqual(self.gsys("stop").returncode, 0)
        self.end_session()

    def test_stats_and_export_apply_to_the_window(self):
        self.start_session("-t", "nvtx")
        p = self.gsys("start", "--stats=true", "--export", "sqlite", "-o", "st")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("ignored", p.stderr)
        time.sleep(0.3)
        p = self.gsys("stop")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertTrue(p.stdout.startswith("gsys: generated %s\n" % self.report("st")), p.stdout)
        self.assertIn("** NVTX Range Summary (nvtx_sum):", p.stdout)
        self.assertRegex(p.stdout, r"PushPop  :step *\n")
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "st.sqlite")))
        # A window without --stats: only the path.
        self.assertEqual(self.gsys("start", "-o", "plain").returncode, 0)
        p = self.gsys("stop")
        self.assertEqual(p.stdout, "gsys: generated %s\n" % self.report("plain"))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "plain.sqlite")))
        self.end_session()


if __name__ == "__main__":
    cli_harness.main()
