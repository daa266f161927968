#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kineto.shared_fixtures: `gsys import` reads every real torch.profiler trace of
../shared/fixtures/kineto (H100/A100/V100/T4, MI250, single and multi-rank, NCCL, CPU-only; see
its SOURCES.md), and per kernel name the counts and total times, the CPU-op, runtime, copy and
memset counts and the NCCL totals equal what kineto_scan.py's plain JSON reading of the same file
computes. `gsys stats -r cuda_gpu_kern_sum` on the trace itself gives the same per-name figures.
Exits 77 (skipped) with one line when the folder is absent."""
import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
sys.path.insert(0, HERE)
import kineto_scan  # noqa: E402
import report_db  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    if not os.path.isdir(args.fixtures):
        print("kineto.shared_fixtures: skipped: %s not found" % args.fixtures)
        return 77
    traces = sorted(os.path.join(d, f) for d, _, files in os.walk(args.fixtures) for f in files
                    if f.endswith((".json", ".json.gz")))
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, trace in enumerate(traces):
            label = os.path.relpath(trace, args.fixtures)
            out = os.path.join(tmp, "%d.gsys-rep" % i)
            r = subprocess.run([args.gsys, "import", "-q", "-o", out, trace], capture_output=True,
                               text=True, timeout=300)
            if r.returncode != 0:
                failures.append("%s: import failed: %s" % (label, r.stderr.strip()))
                continue
            want = kineto_scan.scan(trace)
            got = kineto_scan.from_report(report_db.connect(out))
            bad = [k for k in want if want[k] != got[k]]
            for k in bad:
                failures.append("%s: %s: trace %r, report %r" % (label, k, want[k], got[k]))
            r = subprocess.run([args.gsys, "stats", "-r", "cuda_gpu_kern_sum", "-f", "csv", trace],
                               capture_output=True, text=True, timeout=300)
            stats = kineto_scan.kern_sum_csv(r.stdout) if r.returncode == 0 else None
            if stats != want["kernels"]:
                failures.append("%s: stats cuda_gpu_kern_sum differs from the trace (exit %d)" %
                                (label, r.returncode))
            print("%-80s %5d kernels %6d cpu_ops %3d NCCL %s" % (
                label, sum(n for n, _ in want["kernels"].values()), want["cpu_op"],
                want["nccl_kernels"], "ok" if not bad and stats == want["kernels"] else "FAIL"))
    for f in failures:
        print("FAIL: " + f)
    if not traces:
        print("FAIL: no traces in " + args.fixtures)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
