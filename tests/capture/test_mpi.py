#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""-t mpi without a GPU (issue 10 item 5): tests/capture/progs/mpi_calls.c on 2 localhost ranks.

1. Per-rank reports: `mpirun -np 2 gsys profile -t mpi -o rank_%q{OMPI_COMM_WORLD_RANK} prog`:
   every row of MPI_P2P/COLLECTIVES/START_WAIT/OTHER_EVENTS per function per rank, with sizes,
   peers, tags, roots and request handles; MPI_RANKS; `gsys stats -r mpi_event_sum` counts.
   The same through mpi_loader, which dlopens the calls' library with RTLD_LOCAL (libmpi outside
   the global scope, as under a Python extension linked to libmpi).
2. Tree form: `gsys profile -t mpi mpirun -np 2 prog`: one report, the same rows per rank.
3. Off: without mpi in -t, or with libgsys-mpi.so preloaded but no gsys, nothing is recorded and
   the program's results are unchanged; `-t mpi` on a program without MPI says nothing alarming.
Exits 77 (ctest: skipped) with the reason when mpirun or the program is missing.
"""
import argparse, collections, csv, io, os, shutil, sqlite3, subprocess, sys, tempfile
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import report_db  # noqa: E402  (tests/lib: absent tables read as empty)

FAILURES = []
MPIRUN = shutil.which("mpirun")


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL:", msg)


N = None
# rank -> function -> sorted rows. p2p: (tag, remoteRank, size, has request);
# collectives: (rootRank, size, recvSize, has request); start-wait: (has request,); other: ().
def expected(rank):
    peer = 1 - rank
    e = {
        "MPI_Irecv": [(11, peer, 80, 1)] * 2 + [(13, peer, 16, 1)],
        "MPI_Isend": [(11, peer, 80, 1)] * 2 + [(13, peer, 16, 1)],
        "MPI_Sendrecv": [(21, peer, 16, 0)],
        "MPI_Barrier": [(N, N, N, 0)] * 2,
        "MPI_Ibarrier": [(N, N, N, 1)],
        "MPI_Allreduce": [(N, 4, 4, 0)] * 4,
        "MPI_Iallreduce": [(N, 8, 8, 1)],
        "MPI_Allgather": [(N, 8, 16, 0)],
        "MPI_Allgatherv": [(N, 4 * (rank + 1), 12, 0)],
        "MPI_Alltoall": [(N, 8, 8, 0)],
        "MPI_Alltoallv": [(N, 12 + 8 * rank, 12 + 8 * rank, 0)],
        "MPI_Reduce_scatter": [(N, 12, 4 * (rank + 1), 0)],
        "MPI_Reduce_scatter_block": [(N, 16, 8, 0)],
        "MPI_Scan": [(N, 4, 4, 0)],
        "MPI_Exscan": [(N, 4, 4, 0)],
        "MPI_Wait": [(1,)] * 4,
        "MPI_Waitall": [(1,)],
        "MPI_Init": [()], "MPI_Finalize": [()], "MPI_Comm_rank": [()], "MPI_Comm_size": [()],
        "MPI_Comm_dup": [()], "MPI_Comm_split": [()], "MPI_Comm_free": [()] * 2,
    }
    if rank == 0:
        e.update({"MPI_Send": [(7, 1, 400, 0)] * 3, "MPI_Bcast": [(0, 32, N, 0)],
                  "MPI_Reduce": [(1, 24, N, 0)], "MPI_Gather": [(0, 12, 24, 0)],
                  "MPI_Gatherv": [(1, 8, N, 0)], "MPI_Scatter": [(0, 16, 8, 0)],
                  "MPI_Scatterv": [(1, N, 12, 0)]})
    else:
        e.update({"MPI_Recv": [(7, 0, 400, 0)] * 3, "MPI_Bcast": [(0, N, 32, 0)],
                  "MPI_Reduce": [(1, 24, 24, 0)], "MPI_Gather": [(0, 12, N, 0)],
                  "MPI_Gatherv": [(1, 4, 12, 0)], "MPI_Scatter": [(0, N, 8, 0)],
                  "MPI_Scatterv": [(1, 16, 4, 0)]})
    return {k: sorted(v, key=repr) for k, v in e.items()}


TABLES = {  # table -> columns after the name
    "MPI_P2P_EVENTS": "tag, remoteRank, size, requestHandle IS NOT NULL",
    "MPI_COLLECTIVES_EVENTS": "rootRank, size, recvSize, requestHandle IS NOT NULL",
    "MPI_START_WAIT_EVENTS": "requestHandle IS NOT NULL",
    "MPI_OTHER_EVENTS": None,
}


def rows_by_rank(db):
    """rank -> function -> sorted rows, ranks found through MPI_RANKS (by process)."""
    ranks = dict(db.execute("SELECT globalTid >> 24, rank FROM MPI_RANKS"))
    out = collections.defaultdict(lambda: collections.defaultdict(list))
    for table, cols in TABLES.items():
        sel = "s.value, e.globalTid >> 24" + (", " + cols if cols else "")
        for row in db.execute("SELECT %s FROM %s e JOIN StringIds s ON s.id = e.textId" % (sel, table)):
            out[ranks.get(row[1], -1)][row[0]].append(tuple(row[2:]))
    return {r: {k: sorted(v, key=repr) for k, v in f.items()} for r, f in out.items()}


def compare(label, got, want):
    for name in sorted(set(got) | set(want)):
        check(got.get(name) == want.get(name),
              "%s %s: got %s, want %s" % (label, name, got.get(name), want.get(name)))


def check_comm(label, db):
    # Every call on MPI_COMM_WORLD carries the same non-zero handle within a process.
    for pid, n in db.execute("SELECT globalTid >> 24, count(DISTINCT commHandle) FROM "
                             "(SELECT globalTid, commHandle FROM MPI_P2P_EVENTS UNION ALL "
                             " SELECT globalTid, commHandle FROM MPI_COLLECTIVES_EVENTS) GROUP BY 1"):
        check(n == 1, "%s: pid %d used %d communicator handles, want 1" % (label, pid, n))
    check(db.execute("SELECT count(*) FROM MPI_P2P_EVENTS WHERE commHandle IS NULL OR commHandle = 0"
                     ).fetchone()[0] == 0, label + ": p2p rows without a communicator")


def mpi_env():
    env = dict(os.environ, OMPI_MCA_btl_vader_single_copy_mechanism="none",
               OMPI_MCA_rmaps_base_oversubscribe="1")
    # Under the ASan build gsys is instrumented; Open MPI's allocations outlive MPI_Finalize.
    env["ASAN_OPTIONS"] = ":".join(filter(None, [env.get("ASAN_OPTIONS", ""), "detect_leaks=0"]))
    return env


def run(cmd, label, env=None):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=180, env=env or mpi_env())
    check(r.returncode == 0, "%s exited %d: %s" % (label, r.returncode, (r.stdout + r.stderr)[-2000:]))
    return r


MPIRUN_ARGS = ["--allow-run-as-root", "--oversubscribe", "-np", "2"]


def per_rank(args, tmp, prog, prefix):
    r = run([MPIRUN, *MPIRUN_ARGS, args.gsys, "profile", "-t", "mpi", "-o",
             os.path.join(tmp, prefix + "_%q{OMPI_COMM_WORLD_RANK}"), prog], prefix + " profile")
    check(r.stdout.count("ok") == 2, prefix + ": program output: " + r.stdout)
    check(r.stderr.count("45 MPI") == 2, prefix + ": summary lines: " + r.stderr)
    for rank in (0, 1):
        path = os.path.join(tmp, "%s_%d.gsys-rep" % (prefix, rank))
        if not os.path.exists(path):
            check(False, "missing " + path)
            continue
        db = report_db.connect(path)
        check([row[0] for row in db.execute("SELECT rank FROM MPI_RANKS")] == [rank],
              "%s_%d: MPI_RANKS" % (prefix, rank))
        got = rows_by_rank(db)
        check(set(got) == {rank}, "%s_%d: rows of ranks %s" % (prefix, rank, sorted(got)))
        compare("%s_%d" % (prefix, rank), got.get(rank, {}), expected(rank))
        check_comm("%s_%d" % (prefix, rank), db)
        stats = subprocess.run([args.gsys, "stats", "-q", "-r", "mpi_event_sum", "-f", "csv", path],
                               capture_output=True, text=True, timeout=60)
        check(stats.returncode == 0, "stats exited %d: %s" % (stats.returncode, stats.stderr))
        body = stats.stdout[stats.stdout.find("Time (%)"):]
        counts = {(row["Source"], row["Name"]): int(row["Instances"]) for row in csv.DictReader(io.StringIO(body))}
        want = {("p2p", "MPI_Send" if rank == 0 else "MPI_Recv"): 3, ("p2p", "MPI_Isend"): 3,
                ("collectives", "MPI_Allreduce"): 4, ("start-wait", "MPI_Wait"): 4,
                ("other", "MPI_Comm_free"): 2, ("other", "MPI_Init"): 1}
        for key, n in want.items():
            check(counts.get(key) == n, "%s_%d mpi_event_sum %s: %s, want %d" % (prefix, rank, key, counts.get(key), n))
        check(len(counts) == len(expected(rank)), "%s_%d mpi_event_sum: %d rows, want %d"
              % (prefix, rank, len(counts), len(expected(rank))))
    print("%s reports: %d functions on rank 0, %d on rank 1, exact"
          % (prefix, len(expected(0)), len(expected(1))))


def tree(args, tmp):
    path = os.path.join(tmp, "tree.gsys-rep")
    r = run([args.gsys, "profile", "-t", "mpi", "-o", path, MPIRUN, *MPIRUN_ARGS, args.prog], "tree profile")
    check(r.stdout.count("ok") == 2, "tree: program output: " + r.stdout)
    check("90 MPI" in r.stderr, "tree: summary: " + r.stderr)
    db = report_db.connect(path)
    check(sorted(row[0] for row in db.execute("SELECT rank FROM MPI_RANKS")) == [0, 1], "tree: MPI_RANKS")
    got = rows_by_rank(db)
    for rank in (0, 1):
        compare("tree rank %d" % rank, got.get(rank, {}), expected(rank))
    check(set(got) == {0, 1}, "tree: rows of ranks %s" % sorted(got))
    check_comm("tree", db)
    trace = subprocess.run([args.gsys, "stats", "-q", "-r", "mpi_event_trace", "-f", "csv", path],
                           capture_output=True, text=True, timeout=60)
    body = trace.stdout[trace.stdout.find("Start (ns)"):]
    rows = list(csv.DictReader(io.StringIO(body)))
    sends = [row for row in rows if row["Event"] == "MPI_Send"]
    check(len(sends) == 3 and all(row["Rank"] == "0" and row["PeerRank"] == "1" and row["Tag"] == "7"
                                  for row in sends), "tree mpi_event_trace MPI_Send rows: %s" % sends)
    print("tree report: both ranks exact, %d mpi_event_trace rows" % len(rows))


def off(args, tmp):
    path = os.path.join(tmp, "off.gsys-rep")
    r = run([MPIRUN, *MPIRUN_ARGS, args.gsys, "profile", "-t", "osrt", "-o",
             os.path.join(tmp, "off_%q{OMPI_COMM_WORLD_RANK}"), args.prog], "-t osrt profile")
    check(r.stdout.count("ok") == 2, "off: program output: " + r.stdout)
    for rank in (0, 1):
        db = report_db.connect(os.path.join(tmp, "off_%d.gsys-rep" % rank))
        n = sum(db.execute("SELECT count(*) FROM " + t).fetchone()[0] for t in list(TABLES) + ["MPI_RANKS"])
        check(n == 0, "off_%d: %d MPI rows without -t mpi" % (rank, n))
    env = mpi_env()
    env["LD_PRELOAD"] = args.mpi_library  # the wrappers alone, no gsys: forward only
    r = run([MPIRUN, *MPIRUN_ARGS, args.prog], "preloaded without gsys", env)
    check(r.stdout.count("ok") == 2, "preloaded without gsys: " + r.stdout + r.stderr)
    r = run([args.gsys, "profile", "-t", "mpi,osrt", "-o", path, "/bin/sh", "-c", "echo plain"], "non-MPI target")
    check("plain" in r.stdout, "non-MPI target output: " + r.stdout)
    # Without the report's path: a temp dir name may contain "mpi" ("/tmp/tmpi...").
    alarming = [l for l in r.stderr.replace(tmp, "TMP").splitlines()
                if any(w in l.lower() for w in ("error", "warning", "mpi"))]
    check(not alarming, "non-MPI target: stderr says %s" % alarming)
    db = report_db.connect(path)
    check(db.execute("SELECT count(*) FROM MPI_OTHER_EVENTS").fetchone()[0] == 0, "non-MPI target: MPI rows")
    bad = subprocess.run([args.gsys, "profile", "-t", "mpi", "--mpi-impl", "lam", "/bin/true"],
                         capture_output=True, text=True, timeout=60)
    check(bad.returncode == 2 and "bad --mpi-impl 'lam' (expected openmpi or mpich)" in bad.stderr,
          "--mpi-impl lam: rc %d, %s" % (bad.returncode, bad.stderr))
    print("off: no MPI rows without -t mpi; preloaded alone and on a non-MPI target: quiet")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--mpi-library", required=True)
    ap.add_argument("--prog", default="")
    ap.add_argument("--loader", default="")
    args = ap.parse_args()
    if not MPIRUN:
        print("SKIPPED: mpirun not found (install openmpi-bin and libopenmpi-dev)")
        return 77
    if not all(p and os.path.exists(p) for p in (args.prog, args.loader)):
        print("SKIPPED: the MPI test programs were not built (CMake found no MPI C compiler/headers; "
              "install libopenmpi-dev)")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        per_rank(args, tmp, args.prog, "rank")
        per_rank(args, tmp, args.loader, "dlopen_local")
        tree(args, tmp)
        off(args, tmp)
    print("%d failures" % len(FAILURES))
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
