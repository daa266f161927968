#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""What one CPU sample costs, per method (-s process-tree, issue 10 item 4).

Runs `gsys_stack_prog work N` (a fixed single-threaded loop, no frame pointers) under
`gsys profile -t none` with sampling off, with GSYS_SAMPLING_METHOD=perf and =timer, interleaved,
REPS times each, and reports medians:
  target   extra CPU time of the sampled thread per sample (timer: signal delivery + in-thread
           unwind; perf: the kernel's sample write incl. the 8 KiB stack copy, charged to it),
           the median over the interleaved runs of (run - the run without sampling just before)
           / samples. The thread's CPU time for the same work varies by several % with other
           load on the machine (a loaded 2-core VM: up to 2x), so this needs a quiet machine
           and high rates to mean anything
  sampler  CPU time of the process's other threads (process - thread clock) over the run
           without sampling, per sample: the sampler thread's drain, perf's DWARF unwind of the
           copy, the /proc/self/task scans (a fixed ~3 ms/s, so per sample it shrinks with the
           rate), median of the runs

  python3 bench/cpu_sampling_cost.py --gsys build/bin/gsys \\
      --prog build/tests/stacks/gsys_stack_prog [--work 3000] [--reps 5] [--hz 1000]
"""
import argparse
import os
import sqlite3
import statistics
import subprocess
import tempfile


def run(gsys, prog, work, hz, method, tmp, i):
    out = os.path.join(tmp, f"{method}_{i}.txt")
    rep = os.path.join(tmp, f"{method}_{i}")
    env = dict(os.environ)
    cmd = [gsys, "profile", "-f", "true", "-o", rep, "-t", "none"]
    if method == "none":
        cmd += ["-s", "none"]
    else:
        cmd += ["-s", "process-tree", "--sampling-frequency", str(hz)]
        env["GSYS_SAMPLING_METHOD"] = method
    p = subprocess.run(cmd + [prog, "work", str(work), out], env=env, capture_output=True,
                       text=True, timeout=300)
    if p.returncode != 0:
        raise SystemExit(f"{cmd}: rc {p.returncode}\n{p.stderr}")
    if method != "none" and f"cpu sampling: {'perf_event' if method == 'perf' else 'timer'}" \
            not in p.stderr:
        raise SystemExit(f"{method}: not the method asked for:\n{p.stderr}")
    thread_ns, proc_ns = (int(v) for v in open(out).read().split())
    with sqlite3.connect(rep + ".gsys-rep") as db:
        try:
            samples = db.execute(
                "SELECT count(*) FROM COMPOSITE_EVENTS WHERE globalTid & 0xFFFFFF = "
                "(globalTid >> 24) & 0xFFFFFF").fetchone()[0]
        except sqlite3.OperationalError:
            samples = 0
    return thread_ns, proc_ns, samples


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("--work", type=int, default=3000)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--hz", type=int, default=1000)
    a = ap.parse_args()
    res = {m: [] for m in ("none", "perf", "timer")}
    with tempfile.TemporaryDirectory(prefix="gsys_sampling_cost_") as tmp:
        for i in range(a.reps):
            for m in res:
                res[m].append(run(a.gsys, a.prog, a.work, a.hz, m, tmp, i))
    others = {m: statistics.median(r[1] - r[0] for r in rows) for m, rows in res.items()}
    print(f"work {a.work}M steps, {a.hz} Hz asked, {a.reps} runs each, medians")
    print(f"{'method':<8}{'samples':>9}{'rate Hz':>9}{'thread ms':>11}{'others ms':>11}"
          f"{'target us/sample':>18}{'sampler us/sample':>19}")
    for m, rows in res.items():
        n = statistics.median(r[2] for r in rows)
        t = statistics.median(r[0] for r in rows)
        rate = statistics.median(r[2] / (r[0] / 1e9) for r in rows)
        per_t = statistics.median((r[0] - b[0]) / r[2] / 1e3 for r, b in zip(rows, res["none"])
                                  if r[2]) if n else 0
        per_s = (others[m] - others["none"]) / n / 1e3 if n else 0
        print(f"{m:<8}{n:>9.0f}{rate:>9.0f}{t / 1e6:>11.1f}{others[m] / 1e6:>11.1f}"
              f"{per_t:>18.2f}{per_s:>19.2f}")

if __name__ == "__main__":
    main()
