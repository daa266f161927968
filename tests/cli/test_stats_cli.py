#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CLI tests of `gsys stats`: every bad-input path gives one line, a documented exit code
and no partial output; output destinations behave as nsys's do."""

import lzma
import os
import shutil
import sqlite3

from cli_harness import (EXIT_BAD_INPUT, EXIT_IO, EXIT_NOT_FOUND, EXIT_UNSUPPORTED, EXIT_USAGE,
                         CliTestCase, gsys, main)


class StatsCliTest(CliTestCase):
    def write(self, name, data):
        path = os.path.join(self.tmp, name)
        with open(path, "wb") as f:
            f.write(data)
        return path

    # --- bad input -------------------------------------------------------------------
    def test_missing_file(self):
        path = os.path.join(self.tmp, "nope.sqlite")
        self.assertOneLineError(gsys("stats", path), EXIT_NOT_FOUND, "nope.sqlite")

    def test_directory(self):
        self.assertOneLineError(gsys("stats", self.tmp), EXIT_BAD_INPUT, self.tmp)

    def test_empty_and_text_files(self):
        for name, data in [("empty.sqlite", b""), ("text.sqlite", b"hello world\n" * 100)]:
            path = self.write(name, data)
            self.assertOneLineError(gsys("stats", path), EXIT_BAD_INPUT, name)

    def test_sqlite_but_not_a_report(self):
        path = os.path.join(self.tmp, "other.sqlite")
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE people(name TEXT)")
        db.commit()
        db.close()
        self.assertOneLineError(gsys("stats", path), EXIT_BAD_INPUT, "other.sqlite")

    def test_truncated_report(self):
        with open(self.fixture, "rb") as f:
            data = f.read()
        path = self.write("cut.sqlite", data[: len(data) // 3])
        proc = gsys("stats", "-r", "cuda_gpu_kern_sum,nvtx_sum,cuda_api_sum", path)
        self.assertOneLineError(proc, EXIT_BAD_INPUT, "cut.sqlite")

    def test_newer_gsys_report(self):
        path = os.path.join(self.tmp, "future.gsys-rep")
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE GSYS_META(name TEXT PRIMARY KEY, value TEXT)")
        db.execute("INSERT INTO GSYS_META VALUES('gsys_schema_version', '999')")
        db.execute("CREATE TABLE StringIds(id INTEGER PRIMARY KEY, value TEXT)")
        db.execute("PRAGMA user_version = 999")
        db.commit()
        db.close()
        self.assertOneLineError(gsys("stats", path), EXIT_UNSUPPORTED, "future.gsys-rep")

    def test_nsys_rep_without_export(self):
        path = self.write("cap.nsys-rep", b"\x00" * 64)
        self.assertOneLineError(gsys("stats", path), EXIT_UNSUPPORTED, "nsys export")

    def test_nsys_rep_uses_sqlite_beside_it(self):
        shutil.copy(self.fixture, os.path.join(self.tmp, "cap.sqlite"))
        self.write("cap.nsys-rep", b"\x00" * 64)
        proc = gsys("stats", "-q", "-r", "cuda_gpu_kern_sum", "-f", "csv",
                    os.path.join(self.tmp, "cap.nsys-rep"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("nvfuser_none_f0_c0_r0_g0", proc.stdout)

    def test_report_known_by_name_only(self):
        # nsys's DX11 report: SKIPPED as nsys says it without the data (a project corpus export,
        # tests/parity), one error line and no made-up table with it.
        corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "parity",
                              "corpus", "nvtx_shapes", "nsys.sqlite.xz")
        path = os.path.join(self.tmp, "cap.sqlite")
        with lzma.open(corpus) as f, open(path, "wb") as out:
            shutil.copyfileobj(f, out)
        proc = gsys("stats", "-r", "dx11_pix_sum", path)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("SKIPPED: " + path + " does not contain DX11 CPU debug markers.", proc.stdout)
        db = sqlite3.connect(path)
        db.execute("CREATE TABLE D3D11_PIX_DEBUG_API(start INT, end INT)")
        db.execute("INSERT INTO D3D11_PIX_DEBUG_API VALUES (1, 2)")
        db.commit()
        db.close()
        self.assertOneLineError(gsys("stats", "-r", "dx11_pix_sum", path), EXIT_UNSUPPORTED,
                                "cannot summarize")

    def test_unknown_report_suggests(self):
        proc = gsys("stats", "-r", "cuda_gpu_kern_summ", self.fixture)
        self.assertOneLineError(proc, EXIT_USAGE, "cuda_gpu_kern_summ", "cuda_gpu_kern_sum")

    def test_unknown_format_suggests(self):
        proc = gsys("stats", "-r", "nvtx_sum", "-f", "cvs", self.fixture)
        self.assertOneLineError(proc, EXIT_USAGE, "cvs", "csv")

    def test_malformed_report_arguments(self):
        for spec in ["cuda_gpu_kern_sum:bogus", "cuda_gpu_kern_sum:base:mangled", ",nvtx_sum",
                     "um_sum:rows=abc"]:
            proc = gsys("stats", "-r", spec, self.fixture)
            self.assertOneLineError(proc, EXIT_USAGE)

    def test_bad_flags(self):
        self.assertOneLineError(gsys("stats", "--filter-time", "5parsec/", self.fixture),
                                EXIT_USAGE, "5parsec")
        self.assertOneLineError(gsys("stats", "--timeunit", "fortnight", self.fixture),
                                EXIT_USAGE, "fortnight")
        self.assertOneLineError(gsys("stats", "--bogus", self.fixture), EXIT_USAGE, "--bogus")
        self.assertOneLineError(gsys("stats"), EXIT_USAGE, "no input")

    def test_unwritable_output_leaves_nothing(self):
        # A missing output directory (root ignores permission bits, so that case is
        # only exercised for other users).
        missing = os.path.join(self.tmp, "missing", "r")
        proc = gsys("stats", "-r", "nvtx_sum,cuda_api_sum", "-o", missing, self.fixture)
        self.assertOneLineError(proc, EXIT_IO, "missing")
        self.assertEqual(os.listdir(self.tmp), [])
        if os.geteuid() != 0:
            ro = os.path.join(self.tmp, "ro")
            os.mkdir(ro)
            os.chmod(ro, 0o500)
            proc = gsys("stats", "-r", "nvtx_sum,cuda_api_sum", "-o", os.path.join(ro, "r"),
                        self.fixture)
            self.assertOneLineError(proc, EXIT_IO, "not writable")
            self.assertEqual(os.listdir(ro), [])

    def test_existing_output_needs_force(self):
        base = os.path.join(self.tmp, "r")
        self.write("r_cuda_api_sum.csv", b"old")
        proc = gsys("stats", "-r", "nvtx_sum,cuda_api_sum", "-o", base, self.fixture)
        self.assertOneLineError(proc, EXIT_IO, "r_cuda_api_sum.csv", "force-overwrite")
        # nothing was written, not even the first report
        self.assertEqual(sorted(os.listdir(self.tmp)), ["r_cuda_api_sum.csv"])
        proc = gsys("stats", "-r", "nvtx_sum,cuda_api_sum", "-o", base, "--force-overwrite",
                    "true", self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(base + "_cuda_api_sum.csv") as f:
            self.assertTrue(f.read().startswith("Time (%),Total Time (ns),Num Calls"))

    # --- destinations and console shape ------------------------------------------------
    def test_file_outputs_pair_with_formats(self):
        base = os.path.join(self.tmp, "out")
        proc = gsys("stats", "-r", "cuda_gpu_kern_sum,nvtx_sum", "-f", "json,csv", "-o", base,
                    self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(sorted(os.listdir(self.tmp)),
                         ["out_cuda_gpu_kern_sum.json", "out_nvtx_sum.csv"])
        self.assertIn("PROCESSED", proc.stdout)

    def test_skipped_report_to_file_is_empty_like_nsys(self):
        # nsys 2025.3.1 on the H200 machine: a zero-byte file, "PROCESSED (EMPTY RESULTS)",
        # a blank line, then the SKIPPED line (bench/results/gpu_session_h200_2026-11-29b).
        base = os.path.join(self.tmp, "r")
        proc = gsys("stats", "-r", "osrt_sum,cuda_api_sum", "-o", base, self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(os.path.getsize(base + "_osrt_sum.csv"), 0)
        self.assertGreater(os.path.getsize(base + "_cuda_api_sum.csv"), 0)
        self.assertIn("_osrt_sum.csv]... PROCESSED (EMPTY RESULTS)\n\nSKIPPED: %s does not "
                      "contain OS Runtime trace data.\n\n" % self.fixture, proc.stdout)
        self.assertIn("_cuda_api_sum.csv]... PROCESSED\n\n", proc.stdout)

    def test_pipe_to_command(self):
        target = os.path.join(self.tmp, "piped.txt")
        proc = gsys("stats", "-r", "cuda_gpu_kern_sum", "-o", "@tee " + target, self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(target) as f:
            self.assertTrue(f.read().startswith("Time (%),Total Time (ns),Instances"))

    def test_console_shape_and_skipped(self):
        proc = gsys("stats", "-r", "cuda_gpu_kern_sum,osrt_sum", self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        out = proc.stdout
        self.assertIn("Processing [%s] with [cuda_gpu_kern_sum]... \n\n" % self.fixture, out)
        self.assertIn(" ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n\n", out)
        self.assertIn("SKIPPED: %s does not contain OS Runtime trace data." % self.fixture, out)

    def test_data_formats_to_the_console_keep_stdout_parseable(self):
        # csv/tsv/json to the console: the data alone on stdout, nsys's console lines on stderr
        # (docs/differences-from-nsys.md).
        import csv
        import io
        import json
        one = gsys("stats", "-r", "cuda_gpu_kern_sum", "-f", "json", self.fixture)
        self.assertEqual(one.returncode, 0, one.stderr)
        rows = json.loads(one.stdout)
        self.assertIsInstance(rows, list)
        self.assertIn("Name", rows[0])
        self.assertIn(" ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):", one.stderr)
        self.assertIn("Processing [%s] with [cuda_gpu_kern_sum]" % self.fixture, one.stderr)
        # Several reports: one object keyed by report; a skipped one is absent and says so.
        several = gsys("stats", "-r", "cuda_gpu_kern_sum,cuda_api_sum,osrt_sum", "-f", "json",
                       self.fixture)
        self.assertEqual(several.returncode, 0, several.stderr)
        doc = json.loads(several.stdout)
        self.assertEqual(sorted(doc), ["cuda_api_sum", "cuda_gpu_kern_sum"])
        self.assertEqual(doc["cuda_gpu_kern_sum"], rows)
        self.assertIn("SKIPPED: %s does not contain OS Runtime trace data." % self.fixture,
                      several.stderr)
        # Several inputs: keyed by input, then by report.
        copy = os.path.join(self.tmp, "copy.sqlite")
        shutil.copy(self.fixture, copy)
        two = gsys("stats", "-r", "cuda_gpu_kern_sum,cuda_api_sum", "-f", "json", self.fixture, copy)
        self.assertEqual(two.returncode, 0, two.stderr)
        self.assertEqual(json.loads(two.stdout), {self.fixture: doc, copy: doc})
        # csv: tables one empty line apart, each parses; nothing else on stdout.
        tables = gsys("stats", "-r", "cuda_gpu_kern_sum,cuda_api_sum", "-f", "csv", self.fixture)
        self.assertEqual(tables.returncode, 0, tables.stderr)
        self.assertNotIn("Processing", tables.stdout)
        first, second = tables.stdout.split("\n\n")
        self.assertEqual(list(csv.reader(io.StringIO(first)))[0][-1], "Name")
        self.assertEqual(list(csv.reader(io.StringIO(second)))[0][0], "Time (%)")
        quiet = gsys("stats", "-q", "-r", "cuda_gpu_kern_sum", "-f", "json", self.fixture)
        self.assertEqual(quiet.stdout, one.stdout)
        self.assertEqual(quiet.stderr, "")

    def test_quiet_prints_only_tables(self):
        proc = gsys("stats", "-q", "-r", "cuda_gpu_kern_sum", "-f", "csv", self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("Processing", proc.stdout)
        self.assertIn("Time (%),Total Time (ns),Instances", proc.stdout)

    def test_help_reports(self):
        proc = gsys("stats", "--help-reports")
        self.assertEqual(proc.returncode, 0)
        for name in ["cuda_api_sum", "nvtx_kern_sum", "cudnn_api_sum", "mpi_event_trace"]:
            self.assertIn(name, proc.stdout)
        one = gsys("stats", "--help-reports", "cuda_gpu_kern_sum")
        self.assertEqual(one.returncode, 0)
        self.assertIn("cuda_gpu_kern_sum", one.stdout)

    def test_filter_time_restricts(self):
        full = gsys("stats", "-q", "-r", "cuda_api_sum", "-f", "csv", self.fixture)
        cut = gsys("stats", "-q", "-r", "cuda_api_sum", "-f", "csv", "--filter-time", "/1ns",
                   self.fixture)
        self.assertEqual(full.returncode, 0, full.stderr)
        self.assertEqual(cut.returncode, 0, cut.stderr)
        self.assertGreater(len(full.stdout), len(cut.stdout))


if __name__ == "__main__":
    main()
