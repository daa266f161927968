#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kineto.round_trip (issue 22 item 4): the same four training steps recorded twice
(tests/fixtures/torch_profiler/README.md), once by torch.profiler (rank0.pt.trace.json.gz) and
once by gsys (gsys_train.gsys-rep.xz). `gsys stats -r cuda_gpu_kern_sum` on the imported trace
and on gsys's report agree per kernel name on instance counts, and both equal the plain JSON
count of the trace (160 kernels of 29 names, as the README records)."""
import argparse
import lzma
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import kineto_scan  # noqa: E402

FIX = os.path.join(os.path.dirname(HERE), "fixtures", "torch_profiler")


def kern_sum(gsys, path):
    r = subprocess.run([gsys, "stats", "-r", "cuda_gpu_kern_sum", "-f", "csv", path],
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        print("FAIL: stats %s: %s" % (path, r.stderr.strip()))
        sys.exit(1)
    return {name: n for name, (n, _) in kineto_scan.kern_sum_csv(r.stdout).items()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    args = ap.parse_args()
    trace = os.path.join(FIX, "rank0.pt.trace.json.gz")
    with tempfile.TemporaryDirectory() as tmp:
        report = os.path.join(tmp, "gsys_train.gsys-rep")
        with lzma.open(os.path.join(FIX, "gsys_train.gsys-rep.xz")) as src, open(report, "wb") as d:
            d.write(src.read())
        imported = os.path.join(tmp, "rank0.gsys-rep")
        subprocess.run([args.gsys, "import", "-q", "-o", imported, trace], check=True)
        from_trace = kern_sum(args.gsys, imported)
        direct = kern_sum(args.gsys, trace)
        from_gsys = kern_sum(args.gsys, report)
    scanned = {name: n for name, (n, _) in kineto_scan.scan(trace)["kernels"].items()}
    failures = []
    if from_trace != scanned:
        failures.append("imported trace differs from the JSON scan")
    if direct != from_trace:
        failures.append("stats on the .json.gz differs from stats on its imported report")
    for name in sorted(set(from_trace) | set(from_gsys)):
        if from_trace.get(name) != from_gsys.get(name):
            failures.append("%s: trace %r, gsys report %r" % (name[:100], from_trace.get(name),
                                                              from_gsys.get(name)))
    total = sum(scanned.values())
    if (total, len(scanned)) != (160, 29):
        failures.append("the trace has %d kernels of %d names; the README says 160 of 29" %
                        (total, len(scanned)))
    for f in failures:
        print("FAIL: " + f)
    if not failures:
        print("kineto.round_trip: %d kernels of %d names agree" % (total, len(scanned)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
