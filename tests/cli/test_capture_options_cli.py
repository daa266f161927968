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
        self.assertIn("--stats=true is accepted and ignored", p.stderr)
        p = run("start", "--trace=cuda")
        self.assertOneLineError(p, EXIT_USAGE, "start: unknown option '--trace'")

    def test_help_of_every_verb_lists_the_shared_options(self):
        for verb in ("profile", "launch", "wrap"):
            p = run(verb, "--help")
            self.assertEqual(p.returncode, 0, p.stderr)
            for flag in ("--trace", "--cudabacktrace", "--sample", "--osrt-threshold", "--pytorch"):
                self.assertIn(flag, p.stdout, verb)


if __name__ == "__main__":
    cli_harness.main()
