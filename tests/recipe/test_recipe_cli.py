#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CLI tests of `gsys recipe`: bad input gives one line and a documented exit code, nothing is
written; a rank missing data is skipped (listed with the reason) and the recipe goes on."""
import csv
import json
import lzma
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from cli_harness import (EXIT_BAD_INPUT, EXIT_IO, EXIT_NOT_FOUND, EXIT_UNSUPPORTED,  # noqa: E402
                         EXIT_USAGE, CliTestCase, fixture, gsys, main)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from synth_report import MS, Report  # noqa: E402  (tests/lib: the synthetic-report builder)


class RecipeCliTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.inputs = os.path.join(self.tmp, "in")
        os.makedirs(self.inputs)
        self.r0 = Report().kernel(0, MS, "k").nvtx(0, MS, "step").write(
            os.path.join(self.inputs, "r0.gsys-rep"))
        self.out = os.path.join(self.tmp, "out")

    def assertOneLineError(self, proc, code, *needles):
        super().assertOneLineError(proc, code, *needles)
        self.assertFalse(os.path.exists(self.out))

    def test_help_lists_recipes(self):
        proc = gsys("recipe", "--help")
        self.assertEqual(proc.returncode, 0)
        for name in ("cuda_gpu_kern_sum", "nccl_gpu_overlap_trace", "nvtx_pace", "diff",
                     "gpu_gaps", "cuda_gpu_time_util_map"):
            self.assertIn(name, proc.stdout)
        proc = gsys("recipe", "nvtx_pace", "--help")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("--name", proc.stdout)

    def test_unknown_recipe_and_option(self):
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_summ", "--input", self.r0),
                                EXIT_USAGE, "unknown recipe 'cuda_gpu_kern_summ'",
                                "did you mean 'cuda_gpu_kern_sum'")
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--bns", "3", self.r0),
                                EXIT_USAGE, "unknown option '--bns'", "--bins")
        self.assertOneLineError(gsys("recipe", "cuda_gpu_time_util_map", "--bins", "0",
                                     "--input", self.r0, "--output", self.out), EXIT_USAGE,
                                "--bins")
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_pace", "--input", self.r0),
                                EXIT_USAGE, "cuda_gpu_kern_pace needs --name")
        self.assertOneLineError(gsys("recipe", "gpu_gaps", "--chunks", "3", "--input", self.r0),
                                EXIT_USAGE, "--chunks does not apply to gpu_gaps")
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--gap", "3", "--input",
                                     self.r0), EXIT_USAGE, "--gap does not apply to cuda_gpu_kern_sum")
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--mode", "dask",
                                     "--input", self.r0), EXIT_USAGE, "--mode")
        self.assertOneLineError(gsys("recipe"), EXIT_USAGE, "no recipe given")

    def test_manifest_and_page_name_the_command_and_version(self):
        proc = gsys("recipe", "cuda_gpu_kern_sum", "--input", self.inputs, "--output", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(self.out, "out.gsys-analysis")) as f:
            manifest = json.load(f)
        version = gsys("--version").stdout.split()[-1]
        self.assertEqual(manifest["GsysVersion"], version)
        self.assertEqual(manifest["CommandLine"], "gsys recipe cuda_gpu_kern_sum --input %s "
                         "--output %s" % (self.inputs, self.out))
        self.assertIn("cuda_gpu_kern_sum.html", manifest["Outputs"])
        with open(os.path.join(self.out, "cuda_gpu_kern_sum.html")) as f:
            self.assertIn("Made by gsys %s: gsys recipe cuda_gpu_kern_sum" % version, f.read())

    def test_nvtx_pace_without_name_picks_the_most_frequent_top_level_range(self):
        # "step" x3 at top level with "inner" x4 nested in them; "tie" x3 at top level on
        # another process, shorter in total than "step": step wins (count, then total time).
        rep = Report()
        for i in range(3):
            rep.nvtx(i * 10 * MS, i * 10 * MS + 5 * MS, "step")
            rep.nvtx(i * 10 * MS + MS, i * 10 * MS + 2 * MS, "inner")
            rep.nvtx(i * 10 * MS, i * 10 * MS + MS, "tie", pid=200)
        rep.nvtx(31 * MS, 32 * MS, "inner", pid=300)  # top level, but "inner" has 1 there
        path = rep.write(os.path.join(self.tmp, "iters.sqlite"))
        proc = gsys("recipe", "nvtx_pace", "--input", path, "--output", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        notes = [l for l in proc.stderr.splitlines() if "no --name: picked 'step'" in l]
        self.assertEqual(len(notes), 1, proc.stderr)
        with open(os.path.join(self.out, "pace.csv")) as f:
            self.assertEqual(len(list(csv.DictReader(f))), 3)
        with open(os.path.join(self.out, "nvtx_pace.html")) as f:
            self.assertIn("no --name: picked &#39;step&#39;", f.read())

    def test_bad_filter_nvtx(self):
        for spec, why in (("step/x", "'x' is not an index"), ("step/-1", "'-1' is not an index"),
                          ("@D", "no range name"), ("step@", "empty domain"),
                          ("step\\", "lone '\\'")):
            with self.subTest(spec=spec):
                self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--filter-nvtx", spec,
                                             "--input", self.r0, "--output", self.out),
                                        EXIT_USAGE, "--filter-nvtx '%s'" % spec, why)
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--filter-nvtx", "step",
                                     "--filter-time", "0/1s", "--input", self.r0),
                                EXIT_USAGE, "--filter-time and --filter-nvtx exclude each other")
        self.assertFalse(os.path.exists(self.out))

    def test_empty_input_set(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--input", empty,
                                     "--output", self.out), EXIT_USAGE, "no input reports")
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--output", self.out),
                                EXIT_USAGE, "no input reports given")
        self.assertOneLineError(gsys("recipe", "diff", "--input", self.r0, "--output", self.out),
                                EXIT_USAGE, "diff compares exactly two inputs")

    def test_missing_and_corrupt_inputs(self):
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--input",
                                     os.path.join(self.tmp, "nope.gsys-rep"), "--output",
                                     self.out), EXIT_NOT_FOUND, "nope.gsys-rep")
        bad = os.path.join(self.inputs, "r1.gsys-rep")
        with open(bad, "w") as f:
            f.write("not a report\n" * 50)
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--input", self.inputs,
                                     "--output", self.out), EXIT_BAD_INPUT, "r1.gsys-rep")
        rep = os.path.join(self.tmp, "x.nsys-rep")
        open(rep, "w").close()
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--input", rep, "--output",
                                     self.out), EXIT_UNSUPPORTED, "nsys export")

    def test_mixed_producers(self):
        # A gsys report beside nsys 2025.3's export (the project corpus, tests/parity): one run,
        # both ranks read, a note naming the producers (it was refused as "mixed versions").
        corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "parity",
                              "corpus", "nvtx_shapes", "nsys.sqlite.xz")
        export = os.path.join(self.tmp, "nsys_rank.sqlite")
        with lzma.open(corpus) as f, open(export, "wb") as out:
            shutil.copyfileobj(f, out)
        proc = gsys("recipe", "cuda_gpu_kern_sum", "--input", self.r0, "--input", export,
                    "--output", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("note: reports of several producers: gsys 0.1 (1), nsys 2025.3 (1)",
                      proc.stdout)
        with open(os.path.join(self.out, "all_stats.csv")) as f:
            names = {row["Name"] for row in csv.DictReader(f)}
        self.assertIn("k", names)  # the gsys report's kernel
        self.assertIn("spin_kernel(long long, int *)", names)  # the nsys export's

    def test_rank_missing_data_is_skipped(self):
        Report().kernel(0, 2 * MS, "k").write(os.path.join(self.inputs, "r1.gsys-rep"))
        proc = gsys("recipe", "nvtx_sum", "--input", self.inputs, "--output", self.out)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("SKIPPED rank 1 (r1): does not contain NV Tools Extension (NVTX) data",
                      proc.stdout)
        with open(os.path.join(self.out, "files.csv")) as f:
            status = [r["Status"] for r in csv.DictReader(f)]
        self.assertEqual(status, ["ok", "skipped: does not contain NV Tools Extension (NVTX) data"])
        proc = gsys("recipe", "nvtx_pace", "--name", "nope", "--input", self.inputs, "--output",
                    os.path.join(self.tmp, "pace"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("has no NVTX range named 'nope'", proc.stdout)

    def test_existing_output_needs_force(self):
        os.makedirs(self.out)
        open(os.path.join(self.out, "files.csv"), "w").close()
        proc = gsys("recipe", "cuda_gpu_kern_sum", "--input", self.r0, "--output", self.out)
        self.assertEqual(proc.returncode, EXIT_IO, proc.stderr)
        self.assertIn("already exists (use --force-overwrite)", proc.stderr)
        self.assertEqual(os.listdir(self.out), ["files.csv"])
        proc = gsys("recipe", "cuda_gpu_kern_sum", "--input", self.r0, "--output", self.out,
                    "--force-overwrite")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("all_stats.csv", os.listdir(self.out))
        other = os.path.join(self.tmp, "other")
        os.makedirs(other)
        open(os.path.join(other, "precious.txt"), "w").close()
        proc = gsys("recipe", "cuda_gpu_kern_sum", "--input", self.r0, "--output", other,
                    "--force-overwrite")
        self.assertEqual(proc.returncode, EXIT_IO)
        self.assertIn("not a recipe output directory", proc.stderr)
        self.assertEqual(os.listdir(other), ["precious.txt"])

    def test_output_patterns(self):
        os.environ["GSYS_TEST_TAG"] = "tag"
        proc = gsys("recipe", "cuda_gpu_kern_sum", "-q", "--input", self.r0, cwd=self.tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        proc = gsys("recipe", "cuda_gpu_kern_sum", "-q", "--input", self.r0, cwd=self.tmp)
        self.assertEqual(proc.stdout, "")
        proc = gsys("recipe", "cuda_gpu_kern_sum", "-q", "--input", self.r0, "--output",
                    "o-%q{GSYS_TEST_TAG}-%n-%%", cwd=self.tmp)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue({"cuda_gpu_kern_sum-1", "cuda_gpu_kern_sum-2", "o-tag-1-%"} <=
                        set(os.listdir(self.tmp)))
        self.assertOneLineError(gsys("recipe", "cuda_gpu_kern_sum", "--input", self.r0,
                                     "--output", os.path.join(self.tmp, "o%x")), EXIT_USAGE,
                                "unknown pattern '%x'")


if __name__ == "__main__":
    main()
