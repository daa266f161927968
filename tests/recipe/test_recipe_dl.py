#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Known-answer tests of the recipes of issue 19 item 7 (cuda_gpu_kern_hist, nvtx_gpu_proj_pace,
nccl_gpu_proj_sum, mpi_sum, mpi_gpu_time_util_map, gpu_metric_util_sum, gpu_metric_util_map,
nvlink_sum) on small synthetic reports whose answers are computed by hand
below, and runs over the real nsys NCCL fixture checked against SQL written here."""
import csv
import os
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
from cli_harness import CliTestCase, gsys, main  # noqa: E402
from cli_harness import fixture as cli_fixture  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from synth_report import MS, Report  # noqa: E402  (tests/lib: the synthetic-report builder)

US = 1000
T0 = 1700000000 * 10**9
NCCL_FIXTURE = "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite"


def read(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class DlRecipeTest(CliTestCase):
    def run_recipe(self, *args, out="out"):
        out = os.path.join(self.tmp, out)
        proc = gsys("recipe", args[0], "--output", out, *args[1:])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return out, proc.stdout

    def write(self, name, report):
        d = os.path.join(self.tmp, name)
        os.makedirs(d, exist_ok=True)
        return d, report

    def test_kern_hist_shares_bins_across_ranks(self):
        d = os.path.join(self.tmp, "hist")
        os.makedirs(d)
        r0 = Report(utc=T0)
        for i, dur in enumerate((10, 20, 30, 40)):
            r0.kernel(i * MS, i * MS + dur * US, "a")
        r0.kernel(9 * MS, 9 * MS + 100 * US, "b").kernel(10 * MS, 10 * MS, "zero")
        r0.write(os.path.join(d, "r0.gsys-rep"))
        r1 = Report(utc=T0).kernel(0, 50 * US, "a").kernel(MS, MS + 10 * US, "a")
        r1.write(os.path.join(d, "r1.gsys-rep"))
        out, stdout = self.run_recipe("cuda_gpu_kern_hist", "--bins", "4", "--input", d)
        rows = [(r["Rank"], r["Duration"], r["Name"])
                for r in read(os.path.join(out, "analysis.csv"))]
        # nsys's table: one row per kernel in table order, zero-duration kernels dropped.
        self.assertEqual(rows, [("0", "10000", "a"), ("0", "20000", "a"), ("0", "30000", "a"),
                                ("0", "40000", "a"), ("0", "100000", "b"),
                                ("1", "50000", "a"), ("1", "10000", "a")])
        # The page's histogram of "a": 10..50 us over both ranks -> 4 bins of 10 us from 10 us
        # (50 us in the last bin); the first bin holds one kernel of each rank, the most.
        self.assertIn("most GPU time: a, most often 10.000 us to 20.000 us", stdout)
        self.assertTrue(os.path.exists(os.path.join(out, "cuda_gpu_kern_hist.html")))

    def test_proj_pace_uses_gpu_times(self):
        d = os.path.join(self.tmp, "proj")
        os.makedirs(d)
        r0 = Report(utc=T0).nvtx(0, 10 * MS, "step").nvtx(20 * MS, 30 * MS, "step")
        r0.nvtx(40 * MS, 50 * MS, "step")  # no GPU work: not projected
        r0.launch(1 * MS, 2 * MS, 3 * MS, 6 * MS, "k").launch(7 * MS, 8 * MS, 8 * MS, 12 * MS, "k")
        r0.launch(21 * MS, 22 * MS, 25 * MS, 27 * MS, "k")
        r0.write(os.path.join(d, "r0.gsys-rep"))
        # Starts 1 ms later: its times move by +1 ms.
        r1 = Report(utc=T0 + MS).nvtx(0, 10 * MS, "step").launch(MS, 2 * MS, 2 * MS, 4 * MS, "k")
        r1.write(os.path.join(d, "r1.gsys-rep"))
        out, _ = self.run_recipe("nvtx_gpu_proj_pace", "--name", "step", "--input", d)
        pace = [(r["Rank"], r["Iteration"], r["Start"], r["End"], r["Duration"], r["Delta"],
                 r["Duration Accum"], r["Delta Accum"]) for r in read(os.path.join(out, "pace.csv"))]
        # Rank 0: [3, 12] ms (first op start .. last op end), then [25, 27] ms; delta 25 - 12;
        # the first delta is the first start (nsys: the previous end of the first is 0), on
        # the rank's own timeline: rank 1's is 2 ms though its aligned start is 3 ms.
        self.assertEqual(pace, [
            ("0", "0", str(3 * MS), str(12 * MS), str(9 * MS), str(3 * MS), str(9 * MS),
             str(3 * MS)),
            ("0", "1", str(25 * MS), str(27 * MS), str(2 * MS), str(13 * MS), str(11 * MS),
             str(16 * MS)),
            ("1", "0", str(3 * MS), str(5 * MS), str(2 * MS), str(2 * MS), str(2 * MS),
             str(2 * MS))])
        with open(os.path.join(out, "pace_end.csv")) as f:
            self.assertEqual(f.read(), "0,1\n%d,%d\n%d,\n" % (12 * MS, 5 * MS, 27 * MS))
        # nsys's stats merge the ranks: durations 9, 2 | 2 ms. Std (approx) = rank 0's
        # (7 / sqrt(2) ms; rank 1 has one value), Q1 = min(3.75, 2), Median = median(5.5, 2),
        # Q3 = max(7.25, 2) ms.
        stats = read(os.path.join(out, "stats.csv"))
        self.assertEqual([(s["Text"], s["Count"], s["Mean"], s["Std (approx)"], s["Q1 (approx)"],
                           s["Median (approx)"], s["Q3 (approx)"], s["Sum"]) for s in stats],
                         [("step", "3", "4333333.3", "4949747.5", "2000000.0", "3750000.0",
                           "7250000.0", str(13 * MS))])
        proc = gsys("recipe", "nvtx_gpu_proj_pace", "--input", d, "--output",
                    os.path.join(self.tmp, "x"))
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(proc.stderr.strip(), "recipe: nvtx_gpu_proj_pace needs --name RANGE")

    def test_nccl_proj_sum_counts_nccl_domain_only(self):
        d = os.path.join(self.tmp, "nccl")
        os.makedirs(d)
        r0 = Report(utc=T0).nvtx(0, 10 * MS, "ncclAllReduce", domain="NCCL")
        r0.launch(1 * MS, 2 * MS, 5 * MS, 8 * MS, "ncclDevKernel_AllReduce")  # projected 3 ms
        r0.nvtx(20 * MS, 30 * MS, "ncclAllReduce", domain="NCCL")
        r0.launch(21 * MS, 22 * MS, 22 * MS, 23 * MS, "ncclDevKernel_AllReduce")  # 1 ms
        r0.nvtx(40 * MS, 50 * MS, "ncclAllReduce", domain="NCCL")  # no GPU work
        r0.nvtx(60 * MS, 70 * MS, "ncclAllReduce")  # default domain: not NCCL's
        r0.launch(61 * MS, 62 * MS, 62 * MS, 69 * MS, "gemm")
        # Its only kernel took no time: a projection of 0 ns, which nsys drops.
        r0.nvtx(80 * MS, 90 * MS, "ncclBroadcast", domain="NCCL")
        r0.launch(81 * MS, 82 * MS, 83 * MS, 83 * MS, "ncclDevKernel_Broadcast")
        r0.write(os.path.join(d, "r0.gsys-rep"))
        r1 = Report(utc=T0).nvtx(0, 10 * MS, "ncclAllReduce", domain="NCCL")
        r1.launch(1 * MS, 2 * MS, 2 * MS, 7 * MS, "ncclDevKernel_AllReduce")  # 5 ms
        r1.write(os.path.join(d, "r1.gsys-rep"))
        out, _ = self.run_recipe("nccl_gpu_proj_sum", "--input", d)
        ranks = [(r["Rank"], r["Text"], r["Count"], r["Mean"], r["Min"], r["Max"], r["Sum"])
                 for r in read(os.path.join(out, "rank_stats.csv"))]
        self.assertEqual(ranks, [
            ("0", "ncclAllReduce", "2", "2000000.0", str(MS), str(3 * MS), str(4 * MS)),
            ("1", "ncclAllReduce", "1", "5000000.0", str(5 * MS), str(5 * MS), str(5 * MS))])
        merged = read(os.path.join(out, "all_stats.csv"))
        self.assertEqual([(r["Text"], r["Count"], r["Mean"], r["Min"], r["Max"], r["Sum"])
                          for r in merged],
                         [("ncclAllReduce", "3", "3000000.0", str(MS), str(5 * MS), str(9 * MS))])

    def test_mpi_sum_over_every_mpi_table(self):
        d = os.path.join(self.tmp, "mpi")
        os.makedirs(d)
        r0 = Report(utc=T0).mpi(0, 4 * MS, "MPI_Allreduce").mpi(10 * MS, 12 * MS, "MPI_Allreduce")
        r0.mpi(5 * MS, 6 * MS, "MPI_Send", table="MPI_P2P_EVENTS")
        r0.mpi(7 * MS, 7 * MS + 500 * US, "MPI_Wait", table="MPI_START_WAIT_EVENTS")
        r0.mpi(13 * MS, 13 * MS + 250 * US, "MPI_Comm_rank", table="MPI_OTHER_EVENTS")
        r0.mpi(14 * MS, 14 * MS, "MPI_Barrier")  # 0 ns: nsys keeps duration > 0 only
        r0.write(os.path.join(d, "r0.gsys-rep"))
        Report(utc=T0).mpi(0, 6 * MS, "MPI_Allreduce").write(os.path.join(d, "r1.gsys-rep"))
        Report(utc=T0).kernel(0, MS, "k").write(os.path.join(d, "r2.gsys-rep"))
        out, stdout = self.run_recipe("mpi_sum", "--input", d)
        rows = read(os.path.join(out, "all_stats.csv"))
        self.assertEqual([(r["Text"], r["Count"], r["Mean"], r["Min"], r["Max"], r["Sum"])
                          for r in rows],
                         [("MPI_Allreduce", "3", "4000000.0", str(2 * MS), str(6 * MS),
                           str(12 * MS)),
                          ("MPI_Send", "1", "1000000.0", str(MS), str(MS), str(MS)),
                          ("MPI_Wait", "1", "500000.0", "500000", "500000", "500000"),
                          ("MPI_Comm_rank", "1", "250000.0", "250000", "250000", "250000")])
        rank0 = {r["Text"]: r for r in read(os.path.join(out, "rank_stats.csv"))
                 if r["Rank"] == "0"}
        # Sample std of 4 ms and 2 ms: sqrt(2) ms.
        self.assertEqual(rank0["MPI_Allreduce"]["Std"], "1414213.6")
        files = read(os.path.join(out, "files.csv"))
        self.assertEqual(files[2]["Status"], "skipped: does not contain MPI data")

    def test_mpi_util_map_known_overlap(self):
        d = os.path.join(self.tmp, "mpimap")
        os.makedirs(d)
        r0 = Report(utc=T0).kernel(0, 4 * MS, "k").kernel(2 * MS, 6 * MS, "k", stream=8)
        r0.mpi(4 * MS, 10 * MS, "MPI_Allreduce").mpi(0, 2 * MS, "MPI_Barrier", pid=200)
        r0.write(os.path.join(d, "r0.gsys-rep"))
        Report(utc=T0).kernel(0, MS, "k").write(os.path.join(d, "r1.gsys-rep"))
        out, stdout = self.run_recipe("mpi_gpu_time_util_map", "--bins", "2", "--input", d)
        rows = [(r["Rank"], r["Duration"], r["Kernel"], r["MPI"], r["Overlap"], r["PID"])
                for r in read(os.path.join(out, "analysis.csv"))]
        # Grid: 0..10 ms in 2 bins of 5 ms. PID 100: kernels merge to [0, 6] ms, MPI [4, 10] ms,
        # both [4, 6] ms. PID 200: MPI [0, 2] ms only.
        self.assertEqual(rows, [
            ("0", "0", "100.0", "20.0", "20.0", "100"),
            ("0", str(5 * MS), "20.0", "100.0", "20.0", "100"),
            ("0", "0", "0.0", "40.0", "0.0", "200"),
            ("0", str(5 * MS), "0.0", "0.0", "0.0", "200")])
        # Overlap 40 of MPI 160 (bin-% sums).
        self.assertIn("25.0% of MPI time overlapped by kernels", stdout)
        files = read(os.path.join(out, "files.csv"))
        self.assertEqual(files[1]["Status"], "skipped: does not contain MPI data")

    def metrics_report(self, d):
        r = Report(utc=T0)
        for ts, sm, tensor in ((0, 10.0, 0.0), (MS, 20.0, 0.0), (2 * MS, 30.5, 50.0),
                               (3 * MS, 40.9, 50.0)):
            r.gpu_metric(ts, 0, smActivePercent=sm, tensorActivePercent=tensor)
        r.gpu_metric(0, 1, smActivePercent=80.0)  # no tensor metric on device 1
        os.makedirs(d)
        return r.write(os.path.join(d, "r0.gsys-rep"))

    def test_gpu_metric_util_sum_and_map(self):
        d = os.path.join(self.tmp, "metrics")
        self.metrics_report(d)
        out, stdout = self.run_recipe("gpu_metric_util_sum", "--input", d)
        rows = [(r["Rank"], r["GPU ID"], r["Metric Name"], r["Count"], r["Mean"], r["Min"],
                 r["Max"], r["Sum"]) for r in read(os.path.join(out, "rank_stats.csv"))]
        # nsys's layout: per GPU ID, every metric sampled (GSYS_GPU_METRICS's columns in schema
        # order; columns without samples have no row). Values are truncated to integers first
        # (nsys's GPU_METRICS.value is an integer): 10, 20, 30, 40.
        self.assertEqual(rows, [("0", "0", "SMs Active", "4", "25.0", "10", "40", "100"),
                                ("0", "0", "Tensor Active", "4", "25.0", "0", "50", "100"),
                                ("0", "1", "SMs Active", "1", "80.0", "80", "80", "80")])
        # nsys writes no all_stats for this recipe.
        self.assertFalse(os.path.exists(os.path.join(out, "all_stats.csv")))
        self.assertIn("SMs Active: mean 36.0 over 5 samples", stdout)
        # nsys's per-range options are not implemented (docs/differences-from-nsys.md).
        proc = gsys("recipe", "gpu_metric_util_sum", "--per-kernel", "--input", d, "--output",
                    os.path.join(self.tmp, "per-kernel"))
        self.assertEqual((proc.returncode, proc.stderr.strip()),
                         (2, "recipe: unknown option '--per-kernel'"))
        out, _ = self.run_recipe("gpu_metric_util_map", "--bins", "2", "--input", d, out="map")
        rows = [(r["Duration"], r["SMs Active"], r["SM Issue"], r["Tensor Active"], r["GPU"])
                for r in read(os.path.join(out, "analysis.csv"))]
        # Samples 0..3 ms: 2 bins of 1.5 ms; bin 0 holds 0 and 1 ms, bin 1 holds 2 and 3 ms.
        self.assertEqual(rows, [("0", "15.0", "", "0.0", "0"),
                                ("1500000", "35.0", "", "50.0", "0"),
                                ("0", "80.0", "", "", "1")])
        # gsys's metrics are byte counters, not nsys's NVLink throughput metrics: skipped.
        out, stdout = self.run_recipe("nvlink_sum", "--input", d, out="nvlink")
        self.assertIn("does not contain NVLink throughput metrics", stdout)

    def test_nvlink_sum_reads_nsys_metrics(self):
        d = os.path.join(self.tmp, "nvlink")
        os.makedirs(d)
        path = Report(utc=T0).kernel(0, MS, "k").write(os.path.join(d, "r0.gsys-rep"))
        db = sqlite3.connect(path)
        db.executescript(
            "CREATE TABLE TARGET_INFO_GPU_METRICS (typeId INTEGER, sourceId INTEGER, typeName"
            " TEXT, metricId INTEGER, metricName TEXT);"
            "CREATE TABLE GPU_METRICS (timestamp INTEGER, typeId INTEGER, metricId INTEGER,"
            " value INTEGER);"
            "INSERT INTO TARGET_INFO_GPU_METRICS VALUES"
            " (65537, 0, 'GH100', 5, 'NVLink TX Requests User Data [Throughput %]'),"
            " (65537, 0, 'GH100', 6, 'NVLink RX Responses Protocol Data'),"
            " (65537, 0, 'GH100', 7, 'SMs Active [Throughput %]');"
            "INSERT INTO GPU_METRICS VALUES (0, 65537, 5, 0), (10, 65537, 5, 10),"
            " (20, 65537, 5, 30), (20, 65537, 6, 5), (20, 65537, 7, 99);"
            "INSERT INTO TARGET_INFO_GPU (vmId, id, name, busLocation) VALUES"
            " (0, 1, 'H200', '0000:01:00.0');")
        db.commit()
        db.close()
        out, _ = self.run_recipe("nvlink_sum", "--input", d)
        # Samples of 0 are dropped (nsys: value > 0); GPU = typeId & 0xFF = 1.
        rows = [(r["Rank"], r["Metric Name"], r["Count"], r["Mean"], r["Sum"])
                for r in read(os.path.join(out, "all_stats.csv"))]
        # Rows in metric name order (nsys's groupby sorts them).
        self.assertEqual(rows, [("0", "NVLink RX Responses Protocol Data", "1", "5.0", "5"),
                                ("0", "NVLink TX Requests User Data", "2", "20.0", "40")])
        by_gpu = [(r["Metric Name"], r["GPU"]) for r in read(os.path.join(out,
                                                                          "stats_by_gpu.csv"))]
        self.assertEqual(by_gpu, [("NVLink RX Responses Protocol Data", "0000:01:00.0 - H200"),
                                  ("NVLink TX Requests User Data", "0000:01:00.0 - H200")])
        out, _ = self.run_recipe("gpu_metric_util_sum", "--input", d, out="util")
        # Every metric, in metric name order; "SMs Active [Throughput %]" under nsys's short
        # name; zeros count here (only nvlink_sum drops them).
        self.assertEqual([(r["GPU ID"], r["Metric Name"], r["Count"], r["Sum"])
                          for r in read(os.path.join(out, "rank_stats.csv"))],
                         [("1", "NVLink RX Responses Protocol Data", "1", "5"),
                          ("1", "NVLink TX Requests User Data [Throughput %]", "3", "40"),
                          ("1", "SMs Active", "1", "99")])

    def test_nccl_fixture(self):
        fixture = cli_fixture(NCCL_FIXTURE)
        db = sqlite3.connect(fixture)
        # Kernels per demangled name (duration > 0) and the shortest duration of each.
        expected = dict(db.execute(
            "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON"
            " s.id = k.demangledName WHERE k.end > k.start GROUP BY 1"))
        shortest = dict(db.execute(
            "SELECT s.value, min(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN"
            " StringIds s ON s.id = k.demangledName WHERE k.end > k.start GROUP BY 1"))
        # ncclGroupEnd ranges that launched a kernel (a launch call inside, same thread).
        (launched,) = db.execute(
            "WITH g AS (SELECT n.start, n.end, n.globalTid FROM NVTX_EVENTS n LEFT JOIN StringIds"
            " s ON s.id = n.textId WHERE coalesce(n.text, s.value) = 'ncclGroupEnd')"
            " SELECT count(*) FROM g WHERE EXISTS (SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r"
            " JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON k.correlationId = r.correlationId AND"
            " k.globalPid = (r.globalTid & ~0xFFFFFF) WHERE r.globalTid = g.globalTid AND"
            " r.start >= g.start AND r.end <= g.end)").fetchone()
        db.close()
        out, _ = self.run_recipe("cuda_gpu_kern_hist", "--input", fixture, out="hist")
        counts, first = {}, {}
        for r in read(os.path.join(out, "analysis.csv")):
            self.assertEqual(r["Rank"], "0")
            counts[r["Name"]] = counts.get(r["Name"], 0) + 1
            first[r["Name"]] = min(first.get(r["Name"], 1 << 62), int(r["Duration"]))
        self.assertEqual(counts, expected)
        self.assertEqual(first, shortest)

        out, _ = self.run_recipe("nvtx_gpu_proj_pace", "--name", "ncclGroupEnd", "--input",
                                 fixture, out="pace")
        stats = read(os.path.join(out, "stats.csv"))
        self.assertEqual(stats[0]["Count"], str(launched))
        out, _ = self.run_recipe("nccl_gpu_proj_sum", "--input", fixture, out="proj")
        rows = {r["Text"]: r for r in read(os.path.join(out, "all_stats.csv"))}
        # Same ranges, same projection: the pace's total is the summary's.
        self.assertEqual(rows["ncclGroupEnd"]["Count"], str(launched))
        self.assertEqual(rows["ncclGroupEnd"]["Sum"], stats[0]["Sum"])
        # No MPI in this export: the rank is skipped, the recipe still succeeds (nsys: "no data").
        out, stdout = self.run_recipe("mpi_sum", "--input", fixture, out="mpi")
        self.assertIn("does not contain MPI data", stdout)
        self.assertEqual(read(os.path.join(out, "all_stats.csv")), [])
        # No GPU metrics were collected: every metrics recipe skips the rank.
        for recipe in ("gpu_metric_util_map", "gpu_metric_util_sum", "nvlink_sum"):
            out, stdout = self.run_recipe(recipe, "--input", fixture, out=recipe)
            self.assertIn("does not contain GPU metrics data", stdout)


if __name__ == "__main__":
    main()
