#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Per-rank reports from one command (issue 19 item 3), with a CPU stand-in for torchrun
(progs/fake_torchrun.py: 3 workers with RANK=0..2, the launcher without RANK).

1. `gsys profile -o DIR/profile_%q{RANK} -- fake_torchrun --nproc_per_node=3 rank_worker.py`
   with RANK unset for gsys: profile_0..2 hold exactly their worker (rank R: R+1 "step"
   ranges and its "after_change" range, emitted after it set RANK=77 itself), profile_77 the
   fork child rank 0 made after that change (a fork starts with the environment it is forked
   with), profile_ the launcher (no RANK: the empty value, the name nsys gives the whole run);
   no process in two reports; one "generated" line per report; the session directory is gone.
2. The recipes take profile_*.gsys-rep: nvtx_sum (Count per rank), nvtx_pace --name step
   (iterations per rank) and osrt_sum (every rank has its workers' calls).
3. --stats and --export run on each report.
4. Crash safety: SIGKILLed worker programs (N+1 ranges flushed) are in their rank's report;
   gsys exits with the launcher's code.
5. `gsys import` of a kept session directory writes the same per-rank reports.
6. %q{RANK} set for gsys: one report named by gsys's value, every process in it (as before).
"""
import argparse
import csv
import glob
import os
import sqlite3
import subprocess
import sys
import tempfile

FAILURES = []
HERE = os.path.dirname(os.path.abspath(__file__))
TORCHRUN = os.path.join(HERE, "progs", "fake_torchrun.py")
WORKER = os.path.join(HERE, "progs", "rank_worker.py")


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL:", msg)


def env_without_ranks(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("RANK", "LOCAL_RANK", "WORLD_SIZE")}
    env.update(extra)
    return env


def profile(args, out_dir, pattern="profile_%q{RANK}", env=None, options=()):
    cmd = [ARGS.gsys, "profile", "-t", "nvtx,osrt", *options, "-o",
           os.path.join(out_dir, pattern), "--", *args]
    return subprocess.run(cmd, capture_output=True, text=True, env=env or env_without_ranks(),
                          timeout=120)


def q(report, sql):
    with sqlite3.connect(report) as db:
        return db.execute(sql).fetchall()


def nvtx(report, text):
    return q(report, f"SELECT count(*) FROM NVTX_EVENTS WHERE text = '{text}'")[0][0] if \
        q(report, "SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'")[0][0] else 0


def pids(report):
    return {r[0] for r in q(report, "SELECT pid FROM PROCESSES")}


def meta(report, name):
    rows = q(report, f"SELECT value FROM GSYS_META WHERE name = '{name}'")
    return rows[0][0] if rows else None


def names(out_dir):
    return sorted(os.path.basename(p) for p in glob.glob(os.path.join(out_dir, "*")))


def workers_run(tmp):
    out = os.path.join(tmp, "run")
    os.makedirs(out)
    p = profile([sys.executable, TORCHRUN, "--nproc_per_node=3", sys.executable, WORKER,
                 ARGS.shim], out)
    check(p.returncode == 0, f"profile exit {p.returncode}: {p.stderr}")
    expected = ["profile_.gsys-rep", "profile_0.gsys-rep", "profile_1.gsys-rep",
                "profile_2.gsys-rep", "profile_77.gsys-rep"]
    check(names(out) == expected, f"reports {names(out)}, expected {expected} (no session left)")
    generated = [l for l in p.stderr.splitlines() if l.startswith("gsys: generated ")]
    check(len(generated) == 5, f"one generated line per report: {generated}")
    for name in expected:
        check(any(os.path.join(out, name) + ":" in l for l in generated), f"no line for {name}")
    if names(out) != expected:
        return out
    rep = {n: os.path.join(out, n) for n in expected}
    for rank in range(3):
        r = rep[f"profile_{rank}.gsys-rep"]
        check(nvtx(r, "step") == rank + 1, f"rank {rank}: {nvtx(r, 'step')} step ranges")
        check(nvtx(r, "after_change") == 1, f"rank {rank}: after_change stays with RANK={rank}")
        check(nvtx(r, "forked") == 0, f"rank {rank}: a forked range")
        check(len(pids(r)) == 1, f"rank {rank}: processes {pids(r)}")
        check(meta(r, "output_values") == f"RANK={rank}", f"rank {rank}: {meta(r, 'output_values')}")
    r77 = rep["profile_77.gsys-rep"]
    check(nvtx(r77, "forked") == 1 and nvtx(r77, "step") == 0 and len(pids(r77)) == 1,
          f"profile_77: forked {nvtx(r77, 'forked')}, step {nvtx(r77, 'step')}, {pids(r77)}")
    launcher = rep["profile_.gsys-rep"]
    target = int(meta(launcher, "target_pid"))
    check(pids(launcher) == {target}, f"profile_: {pids(launcher)}, the launcher is {target}")
    check(nvtx(launcher, "step") == 0, "the launcher's report has worker ranges")
    check(meta(launcher, "output_values") == "RANK=", meta(launcher, "output_values"))
    seen = [pid for n in expected for pid in pids(rep[n])]
    check(len(seen) == len(set(seen)) == 5, f"a process in two reports: {seen}")
    return out


def recipes(out, tmp):
    ranks = sorted(glob.glob(os.path.join(out, "profile_[0-9].gsys-rep")))
    runs = {"nvtx_sum": [], "nvtx_pace": ["--name", "step"], "osrt_sum": []}
    results = {}
    for recipe, extra in runs.items():
        d = os.path.join(tmp, recipe)
        p = subprocess.run([ARGS.gsys, "recipe", recipe, *extra, "--output", d, "--input", *ranks],
                           capture_output=True, text=True, timeout=120)
        check(p.returncode == 0, f"recipe {recipe}: {p.returncode} {p.stderr}")
        if p.returncode != 0:
            return
        with open(os.path.join(d, "files.csv")) as f:
            files = [row["File"] for row in csv.DictReader(f)]
        check(files == ["profile_0", "profile_1", "profile_2"], f"{recipe} files {files}")
        results[recipe] = d
    with open(os.path.join(results["nvtx_sum"], "rank_stats.csv")) as f:
        counts = {r["Rank"]: int(r["Count"]) for r in csv.DictReader(f) if r["Range"] == "step"}
    check(counts == {"0": 1, "1": 2, "2": 3}, f"nvtx_sum step counts {counts}")
    with open(os.path.join(results["nvtx_pace"], "rank_summary.csv")) as f:
        iters = {r["Rank"]: int(r["Iterations"]) for r in csv.DictReader(f)}
    check(iters == {"0": 1, "1": 2, "2": 3}, f"nvtx_pace iterations {iters}")
    with open(os.path.join(results["osrt_sum"], "rank_stats.csv")) as f:
        osrt_ranks = {r["Rank"] for r in csv.DictReader(f)}
    check(osrt_ranks == {"0", "1", "2"}, f"osrt_sum ranks {osrt_ranks}")


def stats_and_export(tmp):
    out = os.path.join(tmp, "stats")
    os.makedirs(out)
    p = profile([sys.executable, TORCHRUN, "--nproc_per_node=2", ARGS.prog, "nested", "{rank+1}"],
                out, options=("--stats=true", "--export=sqlite"))
    check(p.returncode == 0, f"--stats run: {p.returncode} {p.stderr}")
    want = ["profile_.gsys-rep", "profile_.sqlite", "profile_0.gsys-rep", "profile_0.sqlite",
            "profile_1.gsys-rep", "profile_1.sqlite"]
    check(names(out) == want, f"--export per report: {names(out)}")
    # nvtx_sum of each rank: "outer" with Count rank+1 (stats prints each report's tables).
    outer = [l.split() for l in p.stdout.splitlines() if l.rstrip().endswith(":outer")]
    check(sorted(int(cols[2]) for cols in outer) == [1, 2], f"stats outer rows {outer}")


def sigkilled_workers(tmp):
    out = os.path.join(tmp, "kill")
    os.makedirs(out)
    # Each worker's program is SIGKILLed 1 s after it started (its ranges flushed by then).
    script = '"$0" killable "$1" >/dev/null & pid=$!; sleep 1; kill -9 $pid; wait $pid'
    p = profile([sys.executable, TORCHRUN, "--nproc_per_node=2", "/bin/sh", "-c", script,
                 ARGS.prog, "{rank+1}"], out)
    check(p.returncode == 137, f"exit {p.returncode} (the launcher's 137): {p.stderr}")
    for rank in range(2):
        r = os.path.join(out, f"profile_{rank}.gsys-rep")
        check(os.path.exists(r) and nvtx(r, "before") == rank + 1,
              f"SIGKILLed rank {rank}: {names(out)} {p.stderr}")
        if os.path.exists(r):
            killed = q(r, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = "
                          "'processes_without_exit_flush'")
            check(killed == [(1,)], f"rank {rank}: the killed process is reported: {killed}")


def import_kept_session(tmp):
    out = os.path.join(tmp, "import")
    os.makedirs(out)
    p = profile([sys.executable, TORCHRUN, "--nproc_per_node=2", ARGS.prog, "nested", "{rank+1}"],
                out, env=env_without_ranks(GSYS_KEEP_SESSION="1"))
    check(p.returncode == 0, f"kept-session run: {p.returncode} {p.stderr}")
    before = {n: pids(os.path.join(out, n)) for n in names(out) if n.endswith(".gsys-rep")}
    for n in before:
        os.remove(os.path.join(out, n))
    p = subprocess.run([ARGS.gsys, "import", os.path.join(out, "profile_.gsys-session")],
                       capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"import: {p.returncode} {p.stderr}")
    after = {n: pids(os.path.join(out, n)) for n in names(out) if n.endswith(".gsys-rep")}
    check(sorted(before) == ["profile_.gsys-rep", "profile_0.gsys-rep", "profile_1.gsys-rep"] and
          after == before, f"gsys import splits the kept session as profile did: {before} {after}")


def set_for_gsys(tmp):
    out = os.path.join(tmp, "set")
    os.makedirs(out)
    p = profile([sys.executable, TORCHRUN, "--nproc_per_node=2", ARGS.prog, "nested", "2"], out,
                env=env_without_ranks(RANK="5"))
    check(p.returncode == 0 and names(out) == ["profile_5.gsys-rep"],
          f"RANK set for gsys: {p.returncode} {names(out)} {p.stderr}")
    if names(out) == ["profile_5.gsys-rep"]:
        r = os.path.join(out, "profile_5.gsys-rep")
        check(len(pids(r)) == 3 and nvtx(r, "outer") == 4, f"one report: {pids(r)} {nvtx(r, 'outer')}")


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--prog", required=True, help="gsys_test_nvtx")
    ap.add_argument("--shim", required=True, help="libgsys_test_nvtx_shim.so")
    ARGS = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys_ranks_") as tmp:
        out = workers_run(tmp)
        recipes(out, tmp)
        stats_and_export(tmp)
        sigkilled_workers(tmp)
        import_kept_session(tmp)
        set_for_gsys(tmp)
    print("FAILED" if FAILURES else "ok", len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
