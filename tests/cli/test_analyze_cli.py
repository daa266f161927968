#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CLI tests of `gsys analyze`: bad input gives one line and the exit codes of `gsys stats`;
rules print nsys's console shape; outputs pair with rules as in stats."""

import os

from cli_harness import (EXIT_BAD_INPUT, EXIT_IO, EXIT_NOT_FOUND, EXIT_USAGE, CliTestCase,
                         fixture, fixtures_dir, gsys, gsys_stderr_on_tty, main)

NO_MEMSET = "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite"


class AnalyzeCliTest(CliTestCase):
    def assertOneLineError(self, proc, code, *needles):
        super().assertOneLineError(proc, code, *needles)
        self.assertEqual(os.listdir(self.tmp), [])  # nothing left behind

    def test_missing_file(self):
        path = os.path.join(self.tmp, "nope.sqlite")
        self.assertOneLineError(gsys("analyze", path), EXIT_NOT_FOUND, "nope.sqlite")

    def test_not_a_report(self):
        path = os.path.join(self.tmp, "text.sqlite")
        with open(path, "w") as f:
            f.write("hello\n" * 100)
        proc = gsys("analyze", path)
        self.assertEqual(proc.returncode, EXIT_BAD_INPUT, proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1)

    def test_no_input(self):
        self.assertOneLineError(gsys("analyze"), EXIT_USAGE, "analyze: no input report")

    def test_unknown_rule_suggests(self):
        self.assertOneLineError(gsys("analyze", "-r", "gpu_gap", self.fixture), EXIT_USAGE,
                                "analyze: unknown rule 'gpu_gap'", "did you mean 'gpu_gaps'")

    def test_progress_on_a_terminal_only(self):
        # "[i/n] rule" on a terminal while the rules run, erased before the output; never into a
        # pipe, never with -q (issue 20 item 3).
        args = ["analyze", "-r", "gpu_gaps,gpu_time_util,cuda_api_sync", "-f", "csv", "-o", "-"]
        piped = gsys(*args, self.fixture)
        self.assertEqual(piped.returncode, 0, piped.stderr)
        self.assertNotIn("[1/3]", piped.stderr)
        rc, out, tty = gsys_stderr_on_tty(*args, self.fixture)
        self.assertEqual(rc, 0, tty)
        self.assertEqual(out, piped.stdout)
        for step in ("[1/3] ", "[2/3] ", "[3/3] "):
            self.assertIn(step, tty)
        last = tty.rindex("[3/3] ")
        self.assertIn("\r", tty[last:])  # erased
        self.assertLess(last, tty.index("Processing ["))  # before the console lines
        rc, out, tty = gsys_stderr_on_tty(*args[:1], "-q", *args[1:], self.fixture)
        self.assertEqual(rc, 0, tty)
        self.assertNotIn("[1/3]", tty)

    def test_bad_rule_options(self):
        cases = [("gpu_gaps:gapp=3", "unknown option 'gapp'"),
                 ("gpu_gaps:gap=x", "not an integer"),
                 ("gpu_time_util:chunks=1001", "between 1 and 1000"),
                 ("cuda_api_sync:rows=-5", "rows must be -1 or more"),
                 ("gpu_gaps:start=9:end=1", "start time cannot be greater"),
                 (",gpu_gaps", "starts with an empty item")]
        for rule, needle in cases:
            with self.subTest(rule=rule):
                self.assertOneLineError(gsys("analyze", "-r", rule, self.fixture), EXIT_USAGE,
                                        "analyze: ", needle)

    def test_bad_flags_and_formats(self):
        self.assertOneLineError(gsys("analyze", "--bogus", self.fixture), EXIT_USAGE)
        self.assertOneLineError(gsys("analyze", "-f", "xml", self.fixture), EXIT_USAGE)
        self.assertOneLineError(gsys("analyze", "--filter-time", "x/y", self.fixture), EXIT_USAGE,
                                "--filter-time")
        self.assertOneLineError(gsys("analyze", "--help-rules=nope"), EXIT_USAGE, "unknown rule")

    def test_console_shape_advice_and_skipped(self):
        proc = gsys("analyze", "-r", "cuda_memset_sync,gpu_gaps:gap=1,gpu_gaps",
                    fixture(NO_MEMSET))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = proc.stdout
        self.assertIn("SKIPPED: ", out)
        self.assertIn("could not be analyzed because it does not contain the required CUDA "
                      "data. Does the application use CUDA memset APIs?", out)
        self.assertIn(" ** GPU Gaps (gpu_gaps):\n\n", out)
        self.assertIn("Processing [", out)
        self.assertIn("with [gpu_gaps](gap=1)... ", out)
        self.assertIn("GPU was not found to be\nidle for more than 500ms.", out)  # nsys's line break

    def test_default_set(self):
        proc = gsys("analyze", self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        names = [l.split("(")[-1].rstrip("):") for l in proc.stdout.splitlines()
                 if l.startswith(" ** ")]
        self.assertEqual(names, ["cuda_memcpy_async", "cuda_memcpy_sync", "cuda_memset_sync",
                                 "cuda_api_sync", "gpu_gaps", "gpu_time_util"])

    def test_file_outputs_and_existing_needs_force(self):
        base = os.path.join(self.tmp, "r")
        args = ["analyze", "-r", "gpu_time_util,gpu_gaps:gap=1", "-f", "csv,json", "-o", base,
                self.fixture]
        proc = gsys(*args)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp)),
                         ["r_gpu_gaps_gap=1.json", "r_gpu_time_util.csv"])
        with open(base + "_gpu_time_util.csv") as f:
            self.assertTrue(f.readline().startswith("Row#,In-Use (%),Duration (ns),Start (ns)"))
        again = gsys(*args)
        self.assertEqual(again.returncode, EXIT_IO, again.stderr)
        self.assertEqual(gsys(*args, "--force-overwrite").returncode, 0)

    def test_rule_nvtx_not_found_is_skipped(self):
        proc = gsys("analyze", "-r", "gpu_gaps:nvtx=no such range", self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("SKIPPED: NVTX range 'no such range' could not be found.", proc.stdout)

    def test_all_rules_on_every_fixture(self):
        for name in sorted(os.listdir(fixtures_dir())):
            if not name.endswith(".sqlite"):
                continue
            with self.subTest(fixture=name):
                proc = gsys("analyze", "-q", "-r", "all", fixture(name))
                self.assertEqual(proc.returncode, 0, proc.stderr)
                # Only nsys's own notes on its capture (the 2025.1 fixture: perf paranoid level).
                self.assertEqual([l for l in proc.stderr.splitlines()
                                  if "nsys noted about its capture: " not in l], [])

    def test_help_rules(self):
        proc = gsys("analyze", "--help-rules")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("gpu_starvation", proc.stdout)
        proc = gsys("analyze", "--help-rules", "gpu_time_util")
        self.assertIn("chunks=<number>", proc.stdout)


if __name__ == "__main__":
    main()
