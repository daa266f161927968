#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Summarizes the interleaved cost loops of bench/device_session.sh's phases (overhead, options,
backtrace-cost): reads lines "OP CONFIG us_per_op=X" (or us_per_launch=X; one per run, in the
order they ran) and prints, per OP, each CONFIG's median µs, what it adds to the median of
CONFIG "none", and every run. --pair A:B also compares A and B run by run: what each added over
the "none" run of the same repetition, and in how many repetitions A added no more than B.

A line "OP CONFIG" without a figure is a run that printed none (it failed or timed out): it is
counted, and the exit status is 1, as it is when the log holds no figure at all.
  python3 bench/option_medians.py [--pair gsys:nsys ...] OPTIONS_LOG"""
import argparse
import re
import statistics
import sys

LINE = re.compile(r"(\w+) (\w+)(?: us_per_(?:op|launch)=([\d.]+))?\s*$")


def read_runs(path):
    """{(op, config): [µs or None per run, in order]}"""
    runs = {}
    with open(path) as f:
        for line in f:
            m = LINE.match(line)
            if m:
                value = float(m.group(3)) if m.group(3) else None
                runs.setdefault((m.group(1), m.group(2)), []).append(value)
    return runs


def print_pair(op, runs, a, b):
    base, xa, xb = runs.get((op, "none")), runs.get((op, a)), runs.get((op, b))
    if not (base and xa and xb):
        return
    n = min(len(base), len(xa), len(xb))
    added = [(xa[i] - base[i], xb[i] - base[i]) for i in range(n)
             if None not in (base[i], xa[i], xb[i])]
    wins = sum(1 for da, db in added if da <= db)
    pairs = " ".join(f"{da:+.3f}/{db:+.3f}" for da, db in added)
    print(f"{op:6s} {a} vs {b}: {a} added <= {b} added in {wins} of {len(added)} repetitions"
          f"  ({a}/{b} added per repetition: {pairs})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", action="append", default=[], metavar="A:B")
    ap.add_argument("log")
    args = ap.parse_args()
    runs = read_runs(args.log)
    missing = 0
    for op in dict.fromkeys(o for o, _ in runs):
        good = [x for x in runs.get((op, "none"), []) if x is not None]
        base = statistics.median(good) if good else None
        for (o, cfg), xs in sorted(runs.items()):
            if o != op:
                continue
            vals = [x for x in xs if x is not None]
            missing += len(xs) - len(vals)
            if not vals:
                print(f"{op:6s} {cfg:18s} no figure in {len(xs)} runs")
                continue
            med = statistics.median(vals)
            added = f"{med - base:+7.3f}" if base is not None else "      ?"
            lost = ""
            if len(vals) < len(xs):
                lost = f"  ({len(xs) - len(vals)} of {len(xs)} runs gave no figure)"
            print(f"{op:6s} {cfg:18s} median {med:7.3f} us/op  added {added}  runs {vals}{lost}")
        for pair in args.pair:
            a, _, b = pair.partition(":")
            print_pair(op, runs, a, b)
    if not any(x is not None for xs in runs.values() for x in xs):
        print(f"option_medians: no figure in {args.log}", file=sys.stderr)
        return 1
    if missing:
        print(f"option_medians: {missing} runs gave no figure", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
