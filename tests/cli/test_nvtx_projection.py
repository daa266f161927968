#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Known answers for NVTX attribution of GPU work (`nvtx_gpu_proj_trace`/`_sum`, `nvtx_kern_sum`,
issue 17): on reports made from random push/pop stacks, start/end ranges and launches on two
threads, with equal timestamps and ranges that last no time on purpose, a range's GPU work must
be what containment says: the work of the calls on its thread that start and end inside it.
The expected values are computed here from the rows written, not by gsys's SQL."""

import csv
import os
import random
import sqlite3
import sys

from cli_harness import CliTestCase, gsys, main

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import synth_report  # noqa: E402

PIDS = (100, 200)  # one thread each (synth_report launches on a process's main thread)


def random_report(path, seed):
    """Writes a report; returns {rid: (style, start, end, tid, name)} and
    [(tid, start, end, kernel or None)], tid being the thread's globalTid."""
    rnd = random.Random(seed)
    rep = synth_report.Report()
    ranges, calls = [], []
    for pid in PIDS:
        tid = synth_report.gtid(pid)
        t, stack, n = 1000, [], 0
        for _ in range(rnd.randint(10, 70)):
            t += rnd.choice([0, 0, 1, 2, 5])
            a = rnd.random()
            if a < 0.35:
                stack.append((t, "r%d" % n))
                n += 1
            elif a < 0.6 and stack:
                start, name = stack.pop()
                ranges.append(("PushPop", start, t, tid, name))
            elif a < 0.7:
                ranges.append(("StartEnd", t, t + rnd.randint(0, 20), tid, "se%d" % n))
                n += 1
            else:
                d = rnd.choice([0, 1, 2, 3])
                kernel = None
                if rnd.random() < 0.7:  # else a call that launched nothing
                    ks = t + rnd.randint(0, 30)
                    kernel = (ks, ks + rnd.randint(0, 9))
                calls.append((tid, t, t + d, kernel))
                t += d
        while stack:  # close what is left, sometimes at the same time as the last event
            start, name = stack.pop()
            t += rnd.choice([0, 1])
            ranges.append(("PushPop", start, t, tid, name))
    for style, start, end, tid, name in ranges:
        kind = synth_report.PUSHPOP if style == "PushPop" else synth_report.STARTEND
        rep.nvtx(start, end, name, pid=tid >> 24, kind=kind)
    for tid, start, end, kernel in calls:
        if kernel:
            rep.launch(start, end, kernel[0], kernel[1], "k", pid=tid >> 24)
        else:
            rep.api(start, end, "cudaStreamSynchronize_v3020", pid=tid >> 24)
    rep.write(path)
    db = sqlite3.connect(path)
    rid = {(text, tid): r for r, text, tid in
           db.execute("SELECT rowid, text, globalTid FROM NVTX_EVENTS WHERE eventType IN (59, 60)")}
    db.close()
    return {rid[(r[4], r[3])]: r for r in ranges}, calls


def expected_projections(ranges, calls):
    out = {}
    for rid, (style, start, end, tid, name) in ranges.items():
        inside = [k for (ctid, cs, ce, k) in calls
                  if ctid == tid and k and start <= cs and ce <= end]
        if inside:
            first, last = min(k[0] for k in inside), max(k[1] for k in inside)
            out[rid] = (style, start, first, last - first, len(inside), name)
    return out


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class NvtxProjectionTest(CliTestCase):
    def project(self, report):
        out = os.path.join(self.tmp, "o")
        proc = gsys("stats", "-q", "-r", "nvtx_gpu_proj_trace,nvtx_gpu_proj_sum", "-f", "csv",
                    "-o", out, "--force-overwrite", "true", report)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return rows(out + "_nvtx_gpu_proj_trace.csv"), rows(out + "_nvtx_gpu_proj_sum.csv")

    def test_random_stacks_project_by_containment(self):
        for seed in range(1, 41):
            with self.subTest(seed=seed):
                report = os.path.join(self.tmp, "r%d.sqlite" % seed)
                ranges, calls = random_report(report, seed)
                want = expected_projections(ranges, calls)
                trace, summary = self.project(report)
                got = {int(r["RangeId"]): (r["Style"], int(r["Orig Start (ns)"]),
                                           int(r["Projected Start (ns)"]),
                                           int(r["Projected Duration (ns)"]),
                                           int(r["NumGPUOps"]), r["Name"].split(":", 1)[1])
                       for r in trace}
                self.assertEqual(got, want)
                # The push/pop tree: no negative level; a child is one level below its parent.
                level = {int(r["RangeId"]): int(r["Lvl"]) for r in trace}
                for r in trace:
                    self.assertGreaterEqual(int(r["Lvl"]), 0, r)
                    if r["ParentId"] and int(r["ParentId"]) in level:
                        self.assertEqual(int(r["Lvl"]), level[int(r["ParentId"])] + 1, r)
                ops = {}
                for (style, _, _, _, n, name) in want.values():
                    ops[name] = ops.get(name, 0) + n
                self.assertEqual({r["Range"].split(":", 1)[1]: int(r["Total GPU Ops"])
                                  for r in summary}, ops)

    def test_random_stacks_attribute_kernels_by_containment(self):
        for seed in range(41, 61):
            with self.subTest(seed=seed):
                report = os.path.join(self.tmp, "k%d.sqlite" % seed)
                ranges, calls = random_report(report, seed)
                # (range name, TID) -> [range instances, kernels]; "" for kernels in no range.
                want = {}
                for (ctid, cs, ce, kernel) in calls:
                    if not kernel:
                        continue
                    inside = [r for r in ranges.values()
                              if r[3] == ctid and r[1] <= cs and ce <= r[2]]
                    for (_, _, _, _, name) in inside or [(None, 0, 0, 0, "")]:
                        entry = want.setdefault((name, ctid & 0xFFFFFF), [set(), 0])
                        entry[0].add((name, cs) if name else None)
                        entry[1] += 1
                want = {k: (len(v[0] - {None}), v[1]) for k, v in want.items()}
                out = os.path.join(self.tmp, "k")
                proc = gsys("stats", "-q", "-r", "nvtx_kern_sum", "-f", "csv", "-o", out,
                            "--force-overwrite", "true", report)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                got = {}
                for r in rows(out + "_nvtx_kern_sum.csv"):  # one kernel name: one row per range
                    key = (r["NVTX Range"].split(":", 1)[-1], int(r["TID"]))
                    self.assertNotIn(key, got)
                    got[key] = (int(r["NVTX Inst"]), int(r["Kern Inst"]))
                # NVTX Inst counts range instances; several instances of one name on a thread
                # are told apart here by the launch they enclose, so compare kernels exactly
                # and instances as a bound.
                self.assertEqual({k: v[1] for k, v in got.items()},
                                 {k: v[1] for k, v in want.items()})
                for k, (inst, _) in got.items():
                    self.assertGreaterEqual(inst, 1 if k[0] else 0, k)

    def test_deep_nesting_attributes_every_launch_to_every_range(self):
        depth = launches = 300
        report = os.path.join(self.tmp, "deep.sqlite")
        rep = synth_report.Report()
        for i in range(depth):
            rep.nvtx(10**6 + i, 10**6 + 10**5 - i, "d%d" % i)
        for j in range(launches):
            s = 10**6 + depth + 10 * j
            rep.launch(s, s + 5, s + 3, s + 8, "k")
        rep.write(report)
        trace, _ = self.project(report)
        self.assertEqual(len(trace), depth)
        for r in trace:
            self.assertEqual(int(r["NumGPUOps"]), launches, r)
            self.assertEqual(int(r["Lvl"]), int(r["Name"].split(":d")[1]), r)


if __name__ == "__main__":
    main()
