#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarizes the option-cost loops of the device-run scripts (bench/gpu_call3.sh, 4, 5): reads
lines "OP CONFIG us_per_op=X" (one per run) and prints, per OP, each CONFIG's median µs per op,
what it adds to the median of CONFIG "none", and every run.
  python3 bench/option_medians.py OPTIONS_LOG"""
import re
import statistics
import sys


def main():
    runs = {}
    for line in open(sys.argv[1]):
        m = re.match(r"(\w+) (\w+) us_per_op=([\d.]+)", line)
        if m:
            runs.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
    for op in dict.fromkeys(o for o, _ in runs):
        base = statistics.median(runs.get((op, "none"), [0]))
        for (o, cfg), xs in sorted(runs.items()):
            if o == op:
                med = statistics.median(xs)
                print(f"{op:6s} {cfg:18s} median {med:7.3f} us/op  added {med - base:+7.3f}  runs {xs}")


if __name__ == "__main__":
    main()
