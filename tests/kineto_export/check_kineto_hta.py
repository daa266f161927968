#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The real client: HTA 0.6.1 (../shared/tools/hta) runs its analyses on `gsys export --type
kineto` of every corpus capture, and its numbers are checked against gsys's own `stats` on the
same report (kernel counts and total time per name, launch counts, memcpy/memset bytes and
counts) and against the report's tables (GPU busy time, span, queue-length streams). Skips (77)
with one line when HTA's folder or a Python with pandas is missing.

HTA rounds ns-resolution timestamps to whole microseconds (start up, end down) unless
HTA_DISABLE_NS_ROUNDING=1, which these runs set so durations compare to the nanosecond.

  check_kineto_hta.py --gsys BIN --hta DIR [--capture NAME ...]
"""
import argparse
import json
import re
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import kineto_corpus as kc
from intervals import union_length  # tests/lib, on the path through kineto_corpus

ARGS = None
PYTHON = None
NSYS_SUFFIX = re.compile(r"_v\d{4,}$")
LAUNCHES = ("cudaLaunchKernel", "cudaLaunchKernelExC", "cudaMemcpyAsync", "cudaMemsetAsync")
# hta/common/trace_symbol_table.py get_runtime_launch_events_mask: the calls queue length counts.
QUEUED = LAUNCHES + ("cuLaunchKernel", "cuLaunchKernelEx")
# hta/common/types.py CommunicateKernelGroupingPattern: what HTA counts as communication.
COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
# The real 2-GPU torchrun nsys export (../shared/fixtures/nsys): NCCL kernels, two worker ranks.
TORCHRUN = "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite"
MEM_OPS = {"Memcpy HtoD": "[CUDA memcpy Host-to-Device]", "Memcpy DtoH": "[CUDA memcpy Device-to-Host]",
           "Memcpy DtoD": "[CUDA memcpy Device-to-Device]", "Memset": "[CUDA memset]"}


def find_python():
    """A Python that imports pandas: the one running this, Debian's, or python3 on PATH."""
    for exe in (sys.executable, "/usr/bin/python3", shutil.which("python3")):
        if exe and os.path.exists(exe) and subprocess.run(
                [exe, "-c", "import pandas, numpy"], capture_output=True).returncode == 0:
            return exe
    return None


def union_us(intervals):
    """Total length (us) of the union of [start, end] ns intervals."""
    return union_length(intervals) / 1000.0


class Hta(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-kineto-hta-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def probe(self, trace_dir, rounding=False):
        env = dict(os.environ, PYTHONPATH=ARGS.hta, MPLBACKEND="Agg")
        env["HTA_DISABLE_NS_ROUNDING"] = "0" if rounding else "1"
        proc = subprocess.run([PYTHON, os.path.join(kc.HERE, "hta_probe.py"), trace_dir],
                              capture_output=True, text=True, env=env)
        self.assertEqual(proc.returncode, 0, proc.stderr[-3000:])
        return json.loads(proc.stdout)

    def check(self, capture, report=None):
        report = report or kc.unpack(capture, self.tmp)
        out = os.path.join(self.tmp, capture + "_kineto")
        traces = kc.export(ARGS.gsys, report, out)
        got = self.probe(out)
        print("%s: HTA %.2f s (load %.2f s), %d rank(s)" % (capture, got["seconds"],
                                                           got["load_seconds"], len(got["ranks"])))
        self.assertEqual(got["ranks"], sorted(t["distributedInfo"]["rank"] for t in traces.values()))
        self.check_kernels(report, got)
        self.check_launches(report, capture, got)
        self.check_memory(report, got)
        self.check_timeline(report, traces, got)
        return got

    def check_kernels(self, report, got):
        kern = kc.stats(ARGS.gsys, report, "cuda_gpu_kern_sum", self.tmp)
        self.assertTrue(kern)
        self.assertEqual(got["kernel_count"], {r["Name"]: int(r["Instances"]) for r in kern})
        for r in kern:
            total_ns = int(r["Total Time (ns)"])
            # us with three decimals per kernel, summed as floats: within 1 ns per kernel.
            self.assertAlmostEqual(got["kernel_sum_us"][r["Name"]] * 1000, total_ns,
                                   delta=int(r["Instances"]), msg=r["Name"])

    def check_launches(self, report, capture, got):
        api = kc.stats(ARGS.gsys, report, "cuda_api_sum", self.tmp)
        # stats keeps nsys's 7-character suffixes (cudaLaunchKernelExC_v11060); Kineto has none.
        calls = sum(int(r["Num Calls"]) for r in api if NSYS_SUFFIX.sub("", r["Name"]) in LAUNCHES)
        rows = sum(got["launch_rows"].values())
        # HTA's launch stats: one row per launch call joined with its GPU record by correlation.
        joined = 0
        db = kc.db(report)
        for table in ("KERNEL", "MEMCPY", "MEMSET"):
            for (name,) in db.execute(
                    "SELECT s.value FROM CUPTI_ACTIVITY_KIND_%s g JOIN CUPTI_ACTIVITY_KIND_RUNTIME r "
                    "ON r.correlationId = g.correlationId AND r.globalTid & ~16777215 = g.globalPid "
                    "JOIN StringIds s ON s.id = r.nameId" % table):
                joined += NSYS_SUFFIX.sub("", name) in LAUNCHES
        self.assertEqual(rows, joined)
        self.assertGreater(rows, 0)
        if capture.startswith("cuda_graph"):
            # Calls made while capturing a graph launch nothing themselves.
            self.assertLess(rows, calls)
        elif capture in kc.CAPTURES:
            self.assertEqual(rows, calls)
        else:
            self.assertLessEqual(rows, calls)  # a sliced fixture cuts some GPU records off

    def check_memory(self, report, got):
        mem = kc.stats(ARGS.gsys, report, "cuda_gpu_mem_size_sum", self.tmp)
        for cat, is_memset in (("gpu_memcpy", False), ("gpu_memset", True)):
            rows = [r for r in mem if (r["Operation"] == "[CUDA memset]") == is_memset]
            mb = sum(float(r["Total (MB)"]) for r in rows)  # MB = 1e6 bytes, three decimals
            self.assertAlmostEqual(got["bytes"].get(cat, 0) / 1e6, mb, delta=0.0005 * len(rows) + 1e-9)
        counts = {}
        for rank, name, n in got["membw"]:
            counts[MEM_OPS[name]] = counts.get(MEM_OPS[name], 0) + int(n)
        self.assertEqual(counts, {r["Operation"]: int(r["Count"]) for r in mem
                                  if r["Operation"] in MEM_OPS.values()})

    def check_timeline(self, report, traces, got):
        db = kc.db(report)
        rank_pid = {t["distributedInfo"]["rank"]: int(n.split(".")[1]) for n, t in traces.items()}
        temporal = {int(r[0]): r[1:] for r in got["temporal"]}
        self.assertEqual(set(temporal), set(rank_pid))
        for rank, pid in rank_pid.items():
            gpu, compute, comm, streams, queued = [], [], [], set(), set()
            for table in ("KERNEL", "MEMCPY", "MEMSET"):
                for s, e, stream, call, kname in db.execute(
                        "SELECT g.start, g.end, g.streamId, n.value, %s FROM "
                        "CUPTI_ACTIVITY_KIND_%s g "
                        "LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = "
                        "g.correlationId AND r.globalTid & ~16777215 = g.globalPid "
                        "LEFT JOIN StringIds n ON n.id = r.nameId "
                        "WHERE g.globalPid >> 24 & 16777215 = ?"
                        % ("(SELECT value FROM StringIds WHERE id = g.demangledName)"
                           if table == "KERNEL" else "NULL", table), (pid,)):
                    gpu.append((s, e))
                    streams.add(stream)
                    if call is not None and NSYS_SUFFIX.sub("", call) in QUEUED:
                        queued.add(stream)
                    if table == "KERNEL":
                        (comm if COMM.match(kname) else compute).append((s, e))
            span_us, idle_us, compute_us = temporal[rank]
            tol = 0.001 * len(gpu) + 0.01
            self.assertAlmostEqual(span_us, (max(e for _, e in gpu) - min(s for s, _ in gpu)) / 1000,
                                   delta=tol)
            self.assertAlmostEqual(idle_us, span_us - union_us(gpu), delta=tol)
            self.assertAlmostEqual(compute_us, union_us(compute), delta=tol)
            # comm/compute overlap: the share of NCCL time during which compute also ran.
            overlap = got["overlap_pctg"][str(rank)]
            if not comm:
                self.assertIsNone(overlap)  # HTA divides by zero communication time
            else:
                both = union_length(comm) + union_length(compute) - union_length(comm + compute)
                self.assertAlmostEqual(overlap, round(100 * both / union_length(comm), 2),
                                       delta=0.011)
            # Queue length: every stream fed by launch calls; idle time: every stream with work.
            self.assertTrue(queued)
            self.assertEqual({s for r, s, n, _ in got["queue"] if r == rank and n > 0}, queued)
            self.assertEqual({s for r, s, _, _ in got["idle"] if r == rank}, streams)
        self.assertEqual(got["overlap_ranks"], sorted(rank_pid))

    def test_default_rounding_keeps_counts(self):
        # As a user runs HTA (rounding on): durations move by up to 2 us, counts do not.
        report = kc.unpack("two_process", self.tmp)
        out = os.path.join(self.tmp, "k")
        kc.export(ARGS.gsys, report, out)
        exact, rounded = self.probe(out), self.probe(out, rounding=True)
        for key in ("ranks", "kernel_count", "bytes", "launch_rows", "overlap_ranks"):
            self.assertEqual(rounded[key], exact[key], key)
        self.assertEqual([q[:3] for q in rounded["queue"]], [q[:3] for q in exact["queue"]])

    def test_torchrun_nsys_export(self):
        fixture = os.path.join(ARGS.nsys_fixtures, TORCHRUN)
        if not os.path.exists(fixture):
            self.skipTest("nsys fixture not found: %s" % fixture)
        report = os.path.join(self.tmp, TORCHRUN)
        shutil.copy(fixture, report)  # a private copy: the fixture folder is read-only
        os.chmod(report, 0o644)
        got = self.check("torchrun-2gpu", report)
        self.assertEqual(got["ranks"], [0, 1])
        # NCCL kernels on both ranks, so an overlap value (0% in this slice: the report's own
        # intervals, checked in check_timeline, agree) rather than HTA's NaN.
        self.assertTrue(all(v is not None for v in got["overlap_pctg"].values()))
        self.assertTrue(any(COMM.match(n) for n in got["kernel_count"]))

    def test_captures(self):
        for capture in ARGS.capture or kc.CAPTURES:
            with self.subTest(capture=capture):
                self.check(capture)


def main():
    global ARGS, PYTHON
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--hta", required=True, help="HTA's source folder (../shared/tools/hta)")
    ap.add_argument("--capture", action="append")
    ap.add_argument("--nsys-fixtures", default=os.path.join(kc.CORPUS, "..", "..", "..", "..",
                                                            "shared", "fixtures", "nsys"))
    ARGS, rest = ap.parse_known_args()
    if not os.path.isdir(os.path.join(ARGS.hta, "hta")):
        print("SKIPPED: HTA not found: %s (optional: ../shared/tools/hta beside the checkout)"
              % os.path.abspath(ARGS.hta))
        return 77
    PYTHON = find_python()
    if PYTHON is None:
        print("SKIPPED: no python3 with pandas and numpy for HTA (Debian: python3-pandas, "
              "tools/install_deps.sh)")
        return 77
    return 0 if unittest.main(argv=[sys.argv[0]] + rest, exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
