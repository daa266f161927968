#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The capture options of profile, launch, start and wrap are one model (src/cli/
capture_options.cc): the verbs accept the same options with the same values and checks.

usage: test_capture_options_cli.py --gsys GSYS --fixtures DIR"""
import os
import subprocess
import unittest

import cli_harness
from cli_harness import EXIT_USAGE, CliTestCase, Paths


def run(*args, env=None, timeout=120):
    full = dict(os.environ, GSYS_SESSIONS_DIR=os.environ.get("GSYS_TEST_SESSIONS", "/tmp/gsys-cli-sessions"))
    full.update(env or {})
    return subprocess.run([Paths.gsys, *args], capture_output=True, text=True, timeout=timeout,
                          env=full)


class OneModelTest(CliTestCase):
    def test_launch_takes_profiles_trace_values(self):
        # Refused before the model (launch knew cuda, nvtx, osrt only).
        p = run("launch", "-t", "cuda,cublas,nvtx", "--", "true")
        self.assertEqual(p.returncode, 0, p.stderr)
        for verb in ("profile", "launch"):
            p = run(verb, "-t", "nvtx", "-s", "process-tree", "--sampling-frequency", "500",
                    "-o", os.path.join(self.tmp, verb), "--", "true")
            self.assertEqual(p.returncode, 0, verb + ": " + p.stderr)

    def test_the_same_bad_value_is_the_same_error(self):
        for verb in ("profile", "launch"):
            p = run(verb, "--wait=sometimes", "--", "true")
            self.assertOneLineError(p, EXIT_USAGE, verb + ": bad --wait 'sometimes'")
            p = run(verb, "-t", "cuda", "--cudabacktrace=kernel:x", "--", "true")
            self.assertOneLineError(p, EXIT_USAGE, verb + ": bad --cudabacktrace threshold")

    def test_wrap_keeps_mpi_and_reads_profile_options(self):
        env = {"GSYS_PROFILE": "1", "GSYS_PROFILE_TRACE": "nvtx,mpi", "GSYS_PROFILE_DELAY": "600",
               "GSYS_PROFILE_ARGS": "--osrt-threshold 5 --wait=bogus"}
        p = run("wrap", "--", "true", env=env)
        self.assertOneLineError(p, EXIT_USAGE, "gsys wrap: GSYS_PROFILE_ARGS: bad --wait 'bogus'")
        env["GSYS_PROFILE_ARGS"] = "-s process-tree --cpuctxsw process-tree"
        p = run("wrap", "--", "true", env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("does not record mpi", p.stderr)  # dropped with a warning before

    def test_start_takes_nsys_start_options(self):
        # No session is live: the options are read (one note each) before that is found out.
        p = run("start", "-s", "process-tree", "--stats=true", "-d", "0", "--session", "nope")
        self.assertNotIn("unknown option", p.stderr)
        self.assertIn("--sample=process-tree is accepted and ignored", p.stderr)
        # --stats and -t apply to the window (tests/cli/test_live_session_cli.py).
        self.assertNotIn("--stats=true is accepted and ignored", p.stderr)
        p = run("start", "--nvtx-capture=x")  # application scope: gsys launch -p
        self.assertOneLineError(p, EXIT_USAGE, "start: unknown option '--nvtx-capture'")

    def test_help_of_every_verb_lists_the_shared_options(self):
        for verb in ("profile", "launch", "wrap"):
            p = run(verb, "--help")
            self.assertEqual(p.returncode, 0, p.stderr)
            for flag in ("--trace", "--cudabacktrace", "--sample", "--osrt-threshold", "--pytorch"):
                self.assertIn(flag, p.stdout, verb)


def target_env(tmp, *flags, name="e"):
    """gsys profile FLAGS -- env: (process, the target's environment as a dict)."""
    p = run("profile", "-o", os.path.join(tmp, name), *flags, "--", "env")
    env = dict(line.split("=", 1) for line in p.stdout.splitlines() if "=" in line)
    return p, env


def ignored_note(p, flag):
    notes = [l for l in p.stderr.splitlines() if flag in l and "is accepted and ignored" in l]
    return len(notes) == 1


class NsysProfileFlagsTest(CliTestCase):
    """Every flag of issue 19's list: accepted and recorded, or accepted with one note."""

    def test_trace_values_gsys_does_not_record(self):
        p, env = target_env(self.tmp, "-t", "nvtx,ucx,python-gil,cusparse,cusolver,nccl")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(env["GSYS_TRACE"], "nvtx,cuda")  # cusparse/cusolver imply cuda (nsys)
        lines = [l for l in p.stderr.splitlines() if "does not record" in l]
        self.assertEqual(len(lines), 1, p.stderr)
        for name in ("ucx", "python-gil", "cusparse", "cusolver", "nccl"):
            self.assertIn(name, lines[0])

    def test_flags_accepted_with_one_note(self):
        cases = [
            (["--python-sampling"], "--python-sampling"),
            (["--python-sampling=true"], "--python-sampling"),
            (["--python-sampling-frequency=500"], "--python-sampling-frequency"),
            (["--pytorch=functions-trace"], "--pytorch=functions-trace"),
            (["--pytorch=functions-trace-shapes"], "--pytorch=functions-trace-shapes"),
            (["--python-functions-trace=x.json"], "--python-functions-trace"),
            (["--cuda-um-cpu-page-faults=true"], "--cuda-um-cpu-page-faults"),
            (["--cuda-um-gpu-page-faults", "true"], "--cuda-um-gpu-page-faults"),
            (["--flush-on-cudaprofilerstop=false"], "--flush-on-cudaprofilerstop"),
            (["--cuda-event-trace=true"], "--cuda-event-trace"),
            (["--osrt-backtrace-threshold=80000"], "--osrt-backtrace-threshold"),
            (["--osrt-backtrace-depth=24"], "--osrt-backtrace-depth"),
            (["--samples-per-backtrace=4"], "--samples-per-backtrace"),
            (["--cuda-graph-trace=graph:host-only"], "--cuda-graph-trace suffix ':host-only'"),
            (["--gpu-metrics-set=gh100"], "--gpu-metrics-set"),
        ]
        for i, (flags, needle) in enumerate(cases):
            with self.subTest(flags=flags):
                p, _ = target_env(self.tmp, *flags, name="n%d" % i)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertTrue(ignored_note(p, needle), p.stderr)

    def test_flags_recorded_in_the_targets_settings(self):
        cases = [
            (["--trace-fork-before-exec=true"], {"GSYS_TRACE": "cuda,nvtx,osrt"}),
            (["--pytorch=autograd-nvtx", "-t", "cuda"],
             {"GSYS_TRACE": "cuda,nvtx", "GSYS_PYTORCH": "autograd-nvtx"}),  # implies nvtx
            (["--cuda-flush-interval=100"], {"GSYS_CUDA_FLUSH_MS": "100"}),
            (["--cuda-trace-all-apis=true"],
             {"GSYS_CUDA_KINDS": "runtime-all,driver-launch,kernel,memcpy,memset,sync"}),
            (["-s", "process-tree", "--sampling-period=500000"], {"GSYS_SAMPLING_FREQUENCY": "2000"}),
            (["--cuda-graph-trace=graph:host-and-device:nvtx-live"], {"GSYS_CUDA_GRAPH_TRACE": "graph"}),
        ]
        for i, (flags, want) in enumerate(cases):
            with self.subTest(flags=flags):
                p, env = target_env(self.tmp, *flags, name="r%d" % i)
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertNotIn("accepted and ignored", p.stderr)
                for k, v in want.items():
                    self.assertEqual(env.get(k), v, k + ": " + p.stderr)

    def test_bad_values_are_one_line_errors(self):
        for flags in (["--python-sampling-frequency=5000"], ["--samples-per-backtrace=33"],
                      ["--sampling-period=100"], ["--cuda-event-trace=maybe"],
                      ["--pytorch=functions-trace,functions-trace-shapes"],
                      ["--cuda-graph-trace=graph:sometimes"], ["--python-sampling=maybe"],
                      ["-t", "nvtx", "--nvtx-domain-include=a", "--nvtx-domain-exclude=b"],
                      ["-t", "osrt", "--nvtx-domain-include=a"]):
            with self.subTest(flags=flags):
                p = run("profile", *flags, "--", "true")
                self.assertEqual(p.returncode, EXIT_USAGE, p.stderr)
                self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)

    def nvtx_program(self):
        prog = os.path.join(os.path.dirname(os.path.dirname(Paths.gsys)), "tests", "capture",
                            "gsys_test_nvtx")
        if not os.path.exists(prog):
            self.skipTest("gsys_test_nvtx is not built")
        return prog

    def domains(self, report):
        import sqlite3
        with sqlite3.connect(report) as db:
            return db.execute(
                "SELECT DISTINCT COALESCE((SELECT d.text FROM NVTX_EVENTS d WHERE d.eventType = 75 "
                "AND d.domainId = e.domainId), 'default') FROM NVTX_EVENTS e "
                "WHERE e.eventType NOT IN (33, 75)").fetchall()

    def test_nvtx_domain_include_and_exclude_filter_the_report(self):
        prog = self.nvtx_program()
        out = os.path.join(self.tmp, "all")
        p = run("profile", "-t", "nvtx", "-o", out, "--", prog, "full")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(sorted(self.domains(out + ".gsys-rep")), [("MyDomain",), ("default",)])
        for flag, want in (("--nvtx-domain-include=MyDomain", [("MyDomain",)]),
                           ("--nvtx-domain-exclude=MyDomain", [("default",)]),
                           ("--nvtx-domain-include=default", [("default",)])):
            with self.subTest(flag=flag):
                out = os.path.join(self.tmp, flag.split("=")[0].strip("-") + flag.split("=")[1])
                p = run("profile", "-t", "nvtx", flag, "-o", out, "--", prog, "full")
                self.assertEqual(p.returncode, 0, p.stderr)
                self.assertEqual(self.domains(out + ".gsys-rep"), want)

    def test_start_later_records_from_gsys_start_on(self):
        prog = self.nvtx_program()
        sessions = os.path.join(self.tmp, "sessions")
        os.makedirs(sessions)
        script = os.path.join(self.tmp, "t.sh")
        with open(script, "w") as f:
            # Before the window: 10 ranges that must not be recorded; then gsys start, 7 more.
            f.write('"$1" nested 10\n"$2" start --session later >"$3" 2>&1 || exit 9\n'
                    '"$1" nested 7\n')
        # gsys start runs inside the injected tree; an ASan build of it (the sanitizer tier)
        # needs verify_asan_link_order=0 there, as docs/differences-from-nsys.md says of ASan
        # programs started deeper in the tree.
        asan = os.environ.get("ASAN_OPTIONS", "")
        env = {"GSYS_SESSIONS_DIR": sessions,
               "ASAN_OPTIONS": (asan + ":" if asan else "") + "verify_asan_link_order=0"}
        out = os.path.join(self.tmp, "later")
        start_log = os.path.join(self.tmp, "start.log")
        p = run("profile", "-Y", "--session-new=later", "-t", "nvtx", "-o", out, "--", "sh",
                script, prog, Paths.gsys, start_log, env=env)
        with open(start_log) as f:
            self.assertEqual(p.returncode, 0, p.stderr + "gsys start said: " + f.read())
        import glob, sqlite3
        reports = glob.glob(out + "*.gsys-rep")
        self.assertEqual(len(reports), 1, p.stderr)
        with sqlite3.connect(reports[0]) as db:
            n = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59").fetchone()[0]
        full = run("profile", "-t", "nvtx", "-o", os.path.join(self.tmp, "n7"), "--", prog,
                   "nested", "7")
        with sqlite3.connect(os.path.join(self.tmp, "n7.gsys-rep")) as db:
            want = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59").fetchone()[0]
        self.assertEqual(n, want, p.stderr)

    def test_start_later_applies_stats_and_export_to_each_window(self):
        prog = self.nvtx_program()
        sessions = os.path.join(self.tmp, "sessions")
        os.makedirs(sessions)
        script = os.path.join(self.tmp, "t.sh")
        with open(script, "w") as f:  # the window opens here and closes at the tree's exit
            f.write('"$2" start --session later >"$3" 2>&1 || exit 9\n"$1" nested 3\n')
        asan = os.environ.get("ASAN_OPTIONS", "")
        env = {"GSYS_SESSIONS_DIR": sessions,
               "ASAN_OPTIONS": (asan + ":" if asan else "") + "verify_asan_link_order=0"}
        out = os.path.join(self.tmp, "later")
        p = run("profile", "-Y", "--session-new=later", "-t", "nvtx", "--stats=true",
                "--export=sqlite", "-o", out, "--", "sh", script, prog, Paths.gsys,
                os.path.join(self.tmp, "start.log"), env=env)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("ignored", p.stderr)
        import glob, sqlite3
        reports = glob.glob(out + "*.gsys-rep")
        self.assertEqual(len(reports), 1, p.stderr)
        # --stats: the default reports of that window, with its ranges.
        self.assertIn("(nvtx_sum)", p.stdout)
        self.assertRegex(p.stdout, r"\n\s+[\d.]+\s+[\d,]+\s+3\s+.*PushPop\s+:outer", p.stdout)
        # --export=sqlite: beside the report, nsys's tables with the same ranges.
        exported = reports[0][:-len(".gsys-rep")] + ".sqlite"
        self.assertTrue(os.path.exists(exported), p.stderr)
        with sqlite3.connect(exported) as db:
            n = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59").fetchone()[0]
        with sqlite3.connect(reports[0]) as db:
            want = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59").fetchone()[0]
        self.assertEqual(n, want)
        self.assertGreater(n, 0)

    def test_session_new_without_start_later_is_a_note(self):
        p, _ = target_env(self.tmp, "--session-new=s")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("--session-new=s names the session only with -Y", p.stderr)


if __name__ == "__main__":
    cli_harness.main()
