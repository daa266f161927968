#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Known-answer tests of `gsys recipe` on the synthetic sets of sets.py (a straggler rank with a
known delay, a known comm/compute overlap, a known idle gap, a known diff, session alignment)
and on the 2-process NCCL fixture. Answers are checked exactly, cell by cell."""
import csv
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from cli_harness import CliTestCase, Paths, gsys, main  # noqa: E402
from cli_harness import fixture as cli_fixture  # noqa: E402

import sets  # noqa: E402

NCCL_FIXTURE = "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite"


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class RecipeTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.train = os.path.join(self.tmp, "train")
        sets.make_train(self.train)

    def run_recipe(self, *args, out="out"):
        out = os.path.join(self.tmp, out)
        proc = gsys("recipe", args[0], "--output", out, *args[1:])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertEqual(proc.stderr, "")
        return out, proc.stdout

    def test_kernel_summary_across_ranks(self):
        out, stdout = self.run_recipe("cuda_gpu_kern_sum", "--input", self.train)
        rows = read(os.path.join(out, "all_stats.csv"))
        self.assertEqual([(r["Name"], r["Count"], r["Sum"]) for r in rows],
                         [("gemm", "12", "48000000"), ("ncclDevKernel_AllReduce", "12", "24000000"),
                          ("ncclDevKernel_SendRecv", "12", "12000000"),
                          ("slow_kernel", "4", "12000000")])
        self.assertEqual(rows[0]["Mean"], "4000000.0")
        self.assertEqual(rows[0]["Std (approx)"], "0.0")
        per_rank = read(os.path.join(out, "rank_stats.csv"))
        self.assertEqual(sorted({r["Rank"] for r in per_rank}), ["0", "1", "2"])
        self.assertEqual(len(per_rank), 3 + 3 + 4)
        files = read(os.path.join(out, "files.csv"))
        self.assertEqual([(f["Rank"], f["File"], f["Offset (ns)"], f["Status"]) for f in files],
                         [("0", "rank0", "0", "ok"), ("1", "rank1", "2000000", "ok"),
                          ("2", "rank2", "0", "ok")])
        self.assertTrue(os.path.exists(os.path.join(out, "cuda_gpu_kern_sum.html")))
        self.assertIn("top: gemm", stdout)

    def test_per_stream_and_filter_time(self):
        out, _ = self.run_recipe("cuda_gpu_kern_sum", "--per-stream", "--input", self.train)
        rows = read(os.path.join(out, "rank_stats.csv"))
        self.assertEqual(list(rows[0].keys())[:4], ["Rank", "Name", "Device ID", "Stream ID"])
        gemm = [(r["Rank"], r["Device ID"], r["Stream ID"]) for r in rows if r["Name"] == "gemm"]
        self.assertEqual(gemm, [("0", "0", "7"), ("1", "1", "7"), ("2", "2", "7")])
        # Each report's own first 10 ms: iteration 0 only; rank 2's SendRecv starts at 10.5 ms.
        out, _ = self.run_recipe("cuda_gpu_kern_sum", "--filter-time", "0/10ms", "--input",
                                 self.train, out="window")
        counts = {r["Name"]: r["Count"] for r in read(os.path.join(out, "all_stats.csv"))}
        self.assertEqual(counts, {"gemm": "3", "ncclDevKernel_AllReduce": "3",
                                  "ncclDevKernel_SendRecv": "2"})

    def test_api_and_nccl_summaries(self):
        out, _ = self.run_recipe("cuda_api_sum", "--input", self.train)
        rows = {r["Name"]: r for r in read(os.path.join(out, "all_stats.csv"))}
        self.assertEqual(rows["cudaStreamSynchronize"]["Sum"], str(24 * 10**6))
        self.assertEqual(rows["cudaStreamSynchronize"]["Max"], str(4 * 10**6))
        self.assertEqual(rows["cudaLaunchKernel"]["Count"], "12")
        out, _ = self.run_recipe("nccl_sum", "--input", self.train, out="nccl")
        rows = read(os.path.join(out, "all_stats.csv"))
        self.assertEqual([(r["Text"], r["Count"], r["Sum"]) for r in rows],
                         [("ncclAllReduce", "12", "1200000")])

    def test_overlap_known_fractions(self):
        out, stdout = self.run_recipe("nccl_gpu_overlap_trace", "--input", self.train)
        grouped = {r["Name"]: r for r in read(os.path.join(out, "grouped_trace.csv"))}
        self.assertEqual(grouped["ncclDevKernel_AllReduce"]["Count"], "12")
        self.assertEqual(grouped["ncclDevKernel_AllReduce"]["Compute Overlap"], "50.0")
        self.assertEqual(grouped["ncclDevKernel_AllReduce"]["Communication Overlap"], "25.0")
        self.assertEqual(grouped["ncclDevKernel_SendRecv"]["Compute Overlap"], "0.0")
        self.assertEqual(grouped["ncclDevKernel_SendRecv"]["Communication Overlap"], "50.0")
        trace = read(os.path.join(out, "rank_trace.csv"))
        self.assertEqual(len(trace), 24)
        # Aligned start of rank 1's first AllReduce: 5 ms + 3 ms, as rank 0's.
        first = [r for r in trace if r["Rank"] == "1" and "AllReduce" in r["Name"]][0]
        self.assertEqual(first["Start"], "8000000")
        self.assertIn("33.3% of their time overlapped by compute", stdout)

    def test_nvtx_pace_finds_the_straggler(self):
        out, stdout = self.run_recipe("nvtx_pace", "--name", "step", "--input", self.train)
        summary = read(os.path.join(out, "rank_summary.csv"))
        # Mean Gap: between consecutive instances (10 ms apart; 5 ms long, rank 2 8 ms).
        self.assertEqual([(r["Rank"], r["Iterations"], r["Mean Duration"], r["Mean Gap"],
                           r["Mean Lag"]) for r in summary],
                         [("0", "4", "5000000.0", "5000000.0", "0.0"),
                          ("1", "4", "5000000.0", "5000000.0", "0.0"),
                          ("2", "4", "8000000.0", "2000000.0", "1000000.0")])
        pace = read(os.path.join(out, "pace.csv"))
        # nsys's delta: the first is the start itself, on the rank's own timeline (5 ms).
        self.assertEqual([r["Delta"] for r in pace if r["Rank"] == "0"],
                         ["5000000", "5000000", "5000000", "5000000"])
        # nsys's wide tables: a column per rank, a row per iteration. Starts are aligned
        # (rank 2 is 1 ms late); deltas are not (rank 1's own first start is 3 ms).
        with open(os.path.join(out, "pace_start.csv")) as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[:3], ["0,1,2", "5000000,5000000,6000000",
                                     "15000000,15000000,16000000"])
        self.assertEqual(len(lines), 5)
        delta = read(os.path.join(out, "pace_delta.csv"))
        self.assertEqual([(r["0"], r["1"], r["2"]) for r in delta[:2]],
                         [("5000000", "3000000", "6000000"), ("5000000", "5000000", "2000000")])
        # Per iteration over the ranks, unrounded: iteration 0 has deltas 5, 3, 6 ms;
        # iteration 1 has 5, 5, 2 ms (mean 4 ms, sample std sqrt(3) ms, Q1 3.5 ms).
        dstats = read(os.path.join(out, "pace_delta_stats.csv"))
        self.assertEqual([(r["Count"], r["Mean"], r["Min"], r["Median"], r["Max"], r["Sum"])
                          for r in dstats[:1]],
                         [("3.0", "4666666.666666667", "3000000.0", "5000000.0", "6000000.0",
                           "14000000.0")])
        self.assertEqual((dstats[1]["Mean"], dstats[1]["Std"], dstats[1]["Q1"]),
                         ("4000000.0", "1732050.8075688772", "3500000.0"))
        # nsys's stats: all ranks merged (12 instances, 72 ms).
        stats = read(os.path.join(out, "stats.csv"))
        self.assertEqual([(r["Text"], r["Count"], r["Mean"], r["Std (approx)"], r["Min"],
                           r["Max"], r["Sum"]) for r in stats],
                         [("step", "12", "6000000.0", "0.0", "5000000", "8000000", "72000000")])
        self.assertFalse(os.path.exists(os.path.join(out, "delta_stats.csv")))
        self.assertIn("slowest iterations: rank 2", stdout)
        self.assertIn("most behind: rank 2", stdout)

    def test_alignment_can_be_disabled(self):
        out, _ = self.run_recipe("cuda_gpu_kern_pace", "--name", "gemm", "--disable-alignment",
                                 "--input", self.train)
        lags = [r["Mean Lag"] for r in read(os.path.join(out, "rank_summary.csv"))]
        self.assertEqual(lags, ["2000000.0", "0.0", "3000000.0"])
        # nsys titles its grouping column "shortName" as "Shortname"; 12 gemm kernels of 4 ms.
        stats = read(os.path.join(out, "stats.csv"))
        self.assertEqual([(r["Shortname"], r["Count"], r["Sum"]) for r in stats],
                         [("gemm", "12", "48000000")])

    def test_util_map_bins_alignment_and_merging(self):
        util = os.path.join(self.tmp, "util")
        sets.make_util(util)
        out, stdout = self.run_recipe("cuda_gpu_time_util_map", "--bins", "4", "--input", util)
        rows = read(os.path.join(out, "analysis.csv"))
        self.assertEqual([(r["Rank"], r["Duration"], r["Kernel"]) for r in rows],
                         [("0", "0", "100.0"), ("0", "10000000", "0.0"),
                          ("0", "20000000", "100.0"), ("0", "30000000", "100.0"),
                          ("1", "0", ""), ("1", "10000000", "100.0"),
                          ("1", "20000000", "0.0"), ("1", "30000000", "50.0")])
        html = open(os.path.join(out, "cuda_gpu_time_util_map.html")).read()
        self.assertIn("<svg", html)

    def test_nccl_util_map_splits_comm_and_compute(self):
        out, _ = self.run_recipe("nccl_gpu_time_util_map", "--bins", "1", "--input",
                                 os.path.join(self.train, "rank0.gsys-rep"))
        rows = read(os.path.join(out, "analysis.csv"))
        # One 35.5 ms bin: comm busy 4 x 2.5 ms, compute 4 x 4 ms.
        self.assertEqual([(r["Communication"], r["Compute"]) for r in rows], [("28.2", "45.1")])

    def test_gpu_gaps_per_rank(self):
        out, stdout = self.run_recipe("gpu_gaps", "--gap", "4", "--input", self.train)
        rows = read(os.path.join(out, "analysis.csv"))
        self.assertEqual(sorted((r["Rank"], r["Duration (ns)"]) for r in rows),
                         [("0", "4500000")] * 3 + [("1", "4500000")] * 3)
        self.assertIn("rank 0: 3, rank 1: 3", stdout)

    def test_diff_of_two_sets(self):
        train_b = os.path.join(self.tmp, "train_b")
        sets.make_train(train_b, "b")
        out, stdout = self.run_recipe("diff", "--input", self.train, "--input", train_b)
        rows = [r for r in read(os.path.join(out, "diff.csv")) if r["Kind"] == "Kernel"]
        self.assertEqual([(r["Name"], r["Status"], r["Total A"], r["Total B"], r["Delta"],
                           r["Delta (%)"]) for r in rows],
                         [("gemm", "slower", "16000000.0", "20000000.0", "4000000.0", "25.0"),
                          ("ncclDevKernel_SendRecv", "removed", "4000000.0", "0.0",
                           "-4000000.0", ""),
                          ("new_kernel", "added", "0.0", "2000000.0", "2000000.0", ""),
                          ("ncclDevKernel_AllReduce", "same", "8000000.0", "8000000.0", "0.0",
                           "0.0"),
                          ("slow_kernel", "same", "4000000.0", "4000000.0", "0.0", "0.0")])
        self.assertIn("largest change: Kernel gemm slower", stdout)
        files = read(os.path.join(out, "files.csv"))
        self.assertEqual([f["Set"] for f in files], ["0", "0", "0", "1", "1", "1"])
        # Within tolerance, gemm is the same.
        out, _ = self.run_recipe("diff", "--tolerance", "30", "--input", self.train, "--input",
                                 train_b, out="tol")
        gemm = [r for r in read(os.path.join(out, "diff.csv")) if r["Name"] == "gemm"][0]
        self.assertEqual(gemm["Status"], "same")

    def test_diff_of_two_recipe_outputs(self):
        train_b = os.path.join(self.tmp, "train_b")
        sets.make_train(train_b, "b")
        a, _ = self.run_recipe("cuda_gpu_kern_sum", "--input", self.train, out="sa")
        b, _ = self.run_recipe("cuda_gpu_kern_sum", "--input", train_b, out="sb")
        out, _ = self.run_recipe("diff", a, b, out="d")
        rows = {r["Name"]: r for r in read(os.path.join(out, "diff.csv"))}
        self.assertEqual(rows["gemm"]["Delta"], "4000000.0")
        self.assertEqual(rows["new_kernel"]["Status"], "added")

    def test_files_after_double_dash_and_threads_give_same_csv(self):
        files = sorted(os.path.join(self.train, f) for f in os.listdir(self.train))
        one, _ = self.run_recipe("cuda_gpu_kern_sum", "--threads", "1", "--", *files, out="t1")
        many, _ = self.run_recipe("cuda_gpu_kern_sum", "--threads", "3", "--input", self.train,
                                  out="t3")
        for name in ("all_stats.csv", "rank_stats.csv", "rank_stats_by_device.csv", "files.csv"):
            self.assertEqual(open(os.path.join(one, name)).read(),
                             open(os.path.join(many, name)).read(), name)

    def kernels_per_rank(self, out):
        rows = read(os.path.join(out, "rank_stats.csv"))
        return {r["Rank"]: r["Count"] for r in rows}

    def test_filter_nvtx_every_instance_by_default(self):
        nvtxf = os.path.join(self.tmp, "nvtxf")
        sets.make_nvtxf(nvtxf)
        cases = [("phase", {"0": "3", "1": "1"}, []),
                 ("phase/1", {"0": "1"}, ["1"]),
                 ("phase/2", {"0": "1"}, ["1"]),
                 ("phase@D", {"0": "1"}, ["1"]),
                 ("phase@*", {"0": "4", "1": "1"}, []),
                 ("a\\/b\\@c", {"0": "1"}, ["1"])]
        for i, (spec, counts, skipped) in enumerate(cases):
            with self.subTest(spec=spec):
                out, stdout = self.run_recipe("cuda_gpu_kern_sum", "--filter-nvtx", spec,
                                              "--input", nvtxf, out="f%d" % i)
                self.assertEqual(self.kernels_per_rank(out), counts)
                files = {f["Rank"]: f["Status"] for f in read(os.path.join(out, "files.csv"))}
                self.assertEqual(sorted(r for r, s in files.items() if s != "ok"), skipped)
        out, _ = self.run_recipe("cuda_gpu_kern_sum", "--filter-nvtx", "phase/1", "--input",
                                 nvtxf, out="g1")
        status = read(os.path.join(out, "files.csv"))[1]["Status"]
        self.assertEqual(status, "skipped: has 1 instance(s) of NVTX range 'phase'; "
                                 "--filter-nvtx index 1 is out of range")
        out, _ = self.run_recipe("cuda_gpu_kern_sum", "--filter-nvtx", "phase@D", "--input",
                                 nvtxf, out="g2")
        status = read(os.path.join(out, "files.csv"))[1]["Status"]
        self.assertEqual(status, "skipped: has no NVTX range 'phase' in domain 'D'")
        # The trace recipes filter alike: the kernels of the union, aligned, in rank order.
        out, _ = self.run_recipe("cuda_gpu_kern_pace", "--name", "k", "--filter-nvtx", "phase",
                                 "--input", nvtxf, out="g3")
        pace = read(os.path.join(out, "pace.csv"))
        self.assertEqual([(r["Rank"], r["Start"]) for r in pace],
                         [("0", "5000000"), ("0", "23000000"), ("0", "45000000"),
                          ("1", "5000000")])

    def test_trace_rows_spill_and_page_shows_the_first(self):
        big = os.path.join(self.tmp, "big")
        sets.make_many_nccl(big)
        scratch = os.path.join(self.tmp, "scratch")
        os.makedirs(scratch)
        out = os.path.join(self.tmp, "bigout")
        proc = subprocess.run([Paths.gsys, "recipe", "nccl_gpu_overlap_trace", "--output", out,
                               "--input", big], capture_output=True, text=True,
                              env=dict(os.environ, TMPDIR=scratch))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        trace = read(os.path.join(out, "rank_trace.csv"))
        self.assertEqual(len(trace), 1500)
        self.assertEqual({(r["Rank"], r["Compute Overlap"]) for r in trace}, {("0", "50.0")})
        self.assertEqual(trace[-1]["Start"], str(1499 * 2000))
        page = open(os.path.join(out, "nccl_gpu_overlap_trace.html")).read()
        self.assertIn("rank_trace: showing the first 1,000 of 1,500 rows", page)
        self.assertEqual(os.listdir(scratch), [])  # the parts are gone

    def test_nccl_fixture(self):
        fixture = cli_fixture(NCCL_FIXTURE)
        out, _ = self.run_recipe("nccl_gpu_overlap_trace", "--base", "--input", fixture)
        grouped = read(os.path.join(out, "grouped_trace.csv"))
        self.assertEqual([(g["Name"], g["Count"]) for g in grouped],
                         [("ncclDevKernel_SendRecv", "66")])
        trace = read(os.path.join(out, "rank_trace.csv"))
        self.assertEqual(sorted({(t["PID"], t["Device ID"]) for t in trace}),
                         [("144", "0"), ("145", "1")])
        out, _ = self.run_recipe("nccl_sum", "--input", fixture, out="nccl")
        counts = {r["Text"]: r["Count"] for r in read(os.path.join(out, "all_stats.csv"))}
        self.assertEqual(counts["ncclSend"], "132")
        self.assertEqual(counts["ncclGroupEnd"], "66")
        out, _ = self.run_recipe("cuda_gpu_time_util_map", "--input", fixture, out="map")
        rows = read(os.path.join(out, "analysis.csv"))
        self.assertEqual(len(rows), 2 * 30)  # two GPUs x 30 bins
        for recipe in ("nvtx_gpu_proj_sum", "nvtx_gpu_proj_trace", "gpu_time_util",
                       "cuda_api_sync", "nvtx_sum", "cuda_gpu_mem_time_sum"):
            with self.subTest(recipe=recipe):
                out, _ = self.run_recipe(recipe, "--input", fixture, out=recipe)
                self.assertTrue(os.path.exists(os.path.join(out, recipe + ".html")))


if __name__ == "__main__":
    main()
