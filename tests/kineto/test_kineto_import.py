#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""kineto.import: `gsys import` of torch.profiler traces and the verbs that read them directly
(issue 22 item 1), on the traces of a bare clone: the hand-made ones of tests/fixtures/kineto and
the recorded tests/fixtures/torch_profiler/rank0.pt.trace.json.gz. Expected values come from
kineto_scan.py's plain JSON reading of the same file, never from gsys's own output.
Also: bad and hostile input gives one line and a non-zero exit, never a crash; temporary reports
of the verbs are removed; a directory of per-rank traces is a recipe input."""
import argparse
import csv
import gzip
import io
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "lib"))
sys.path.insert(0, HERE)
import kineto_scan  # noqa: E402
import report_db  # noqa: E402

FIX = os.path.join(ROOT, "tests", "fixtures", "kineto")
TRACES = [os.path.join(FIX, "basic.json"), os.path.join(FIX, "old_style.json"),
          os.path.join(FIX, "nccl_2rank", "rank-0.pt.trace.json.gz"),
          os.path.join(FIX, "nccl_2rank", "rank-1.pt.trace.json.gz"),
          os.path.join(ROOT, "tests", "fixtures", "torch_profiler", "rank0.pt.trace.json.gz")]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL: " + what)


def run(gsys, args, env=None):
    return subprocess.run([gsys] + args, capture_output=True, text=True, env=env, timeout=300)


def compare(trace, report, label):
    want = kineto_scan.scan(trace)
    got = kineto_scan.from_report(report_db.connect(report))
    for key in want:
        check(want[key] == got[key], "%s: %s: trace has %r, report %r" % (
            label, key, want[key], got[key]))
    return want


def test_imports(gsys, tmp):
    for trace in TRACES:
        out = os.path.join(tmp, os.path.basename(trace) + ".gsys-rep")
        r = run(gsys, ["import", "-o", out, trace])
        check(r.returncode == 0, "import %s: exit %d: %s" % (trace, r.returncode, r.stderr))
        if r.returncode == 0:
            compare(trace, out, os.path.basename(trace))
    # The default output name: TRACE without .pt.trace.json.gz, beside it.
    src = os.path.join(tmp, "copy")
    os.makedirs(src)
    trace = os.path.join(src, "rank-0.pt.trace.json.gz")
    with open(TRACES[2], "rb") as a, open(trace, "wb") as b:
        b.write(a.read())
    r = run(gsys, ["import", trace])
    check(r.returncode == 0 and os.path.exists(os.path.join(src, "rank-0.gsys-rep")),
          "import without -o writes rank-0.gsys-rep: %s" % r.stderr)
    r = run(gsys, ["import", trace])
    check(r.returncode != 0 and "exists" in r.stderr, "an existing report is not replaced")


def test_basic_details(gsys, tmp):
    """What the plain scan does not cover: nesting, threads, devices, rank, counted events."""
    out = os.path.join(tmp, "basic.gsys-rep")
    run(gsys, ["import", "-f", "true", "-o", out, TRACES[0]])
    db = report_db.connect(out)
    trace = kineto_scan.load(TRACES[0])
    evs = kineto_scan.events(trace)
    # Every cpu_op lies inside the python_function range of its step, on the same thread.
    nested = db.execute(
        "SELECT count(*) FROM NVTX_EVENTS o JOIN NVTX_EVENTS p ON p.globalTid = o.globalTid AND "
        "p.category = 3 AND p.start <= o.start AND o.end <= p.end WHERE o.category = 1"
    ).fetchone()[0]
    inside = sum(1 for e in evs if e.get("cat") == "cpu_op" and e["tid"] == 4242)
    check(nested == inside,
          "cpu_ops nested in their python_function: %d, want %d" % (nested, inside))
    threads = {r[0] & 0xFFFFFF for r in db.execute("SELECT DISTINCT globalTid FROM NVTX_EVENTS "
                                                   "WHERE eventType = 59")}
    check(threads == {4242, 4250}, "threads %r" % threads)
    names = dict(db.execute("SELECT t.globalTid & 16777215, s.value FROM ThreadNames t JOIN "
                            "StringIds s ON s.id = t.nameId"))
    check(names.get(4250) == "pt_autograd_0", "thread names %r" % names)
    dev = trace["deviceProperties"][0]
    row = db.execute("SELECT name, smCount, totalMemory, computeMajor FROM TARGET_INFO_GPU "
                     "WHERE id = 0").fetchone()
    check(row == (dev["name"], dev["numSms"], dev["totalGlobalMem"], dev["computeMajor"]),
          "TARGET_INFO_GPU %r" % (row,))
    meta = dict(db.execute("SELECT name, value FROM GSYS_META"))
    check(meta.get("kineto_rank") == str(trace["distributedInfo"]["rank"]), "rank %r" % meta)
    # Kernels keep launch geometry; every kernel joins its launch call.
    k = [e for e in evs if e.get("cat") == "kernel" and e["name"].startswith("void gemm")][0]
    row = db.execute("SELECT gridX, gridY, gridZ, blockX, registersPerThread, staticSharedMemory "
                     "FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE correlationId = ?",
                     (k["args"]["correlation"],)).fetchone()
    a = k["args"]
    check(row == tuple(a["grid"]) + (a["block"][0], a["registers per thread"], a["shared memory"]),
          "kernel geometry %r" % (row,))
    joined = db.execute(
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON "
        "r.correlationId = k.correlationId AND (r.globalTid & ~16777215) = k.globalPid"
    ).fetchone()[0]
    check(joined == sum(1 for e in evs if e.get("cat") == "kernel"), "kernels joined %d" % joined)
    kinds = sorted(db.execute("SELECT copyKind, srcKind, dstKind FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                              "GROUP BY 1, 2, 3"))
    check(kinds == [(1, 1, 2), (2, 2, 0)], "memcpy kinds %r" % kinds)
    sync = db.execute("SELECT DISTINCT syncType FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"
                      ).fetchall()
    check(sync == [(3,)], "sync kinds %r" % sync)
    streams = {r[0] for r in db.execute("SELECT streamId FROM TARGET_INFO_CUDA_STREAM")}
    check(streams == {7, 13}, "streams %r" % streams)
    unmapped = sum(1 for e in evs if e.get("cat") == "gpu_user_annotation" or e.get("ph") == "i")
    diag = dict(db.execute("SELECT name, value FROM GSYS_DIAGNOSTICS"))
    check(diag.get("kineto_unmapped_events") == unmapped, "diagnostics %r" % diag)
    # The session starts at the earliest event (the profiler's span).
    first = min(kineto_scan.ns(e["ts"]) for e in evs if e.get("ph") != "M" and "ts" in e)
    start = kineto_scan.ns(min(e["ts"] for e in evs if e.get("cat") == "cpu_op"))
    got = db.execute("SELECT min(start) FROM NVTX_EVENTS WHERE eventType = 59 AND category = 1"
                     ).fetchone()[0]
    check(got == start - first, "first cpu_op at %r, want %d" % (got, start - first))


def test_verbs(gsys, tmp):
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "verbtmp"))
    os.makedirs(env["TMPDIR"])
    basic = TRACES[0]
    want = kineto_scan.scan(basic)["kernels"]
    r = run(gsys, ["stats", "-r", "cuda_gpu_kern_sum", "-f", "csv", basic], env)
    check(r.returncode == 0, "stats: %s" % r.stderr)
    check(kineto_scan.kern_sum_csv(r.stdout) == want, "stats on the trace: %r" % r.stdout)
    check("gsys: warning: trace '%s': " % basic in r.stderr and
          "kineto_unmapped_events" in r.stderr, "stats says what was not mapped: %r" % r.stderr)
    r = run(gsys, ["stats", "-r", "cuda_gpu_kern_sum", "-f", "csv", "-o", os.path.join(tmp, "s"),
                   basic], env)
    check(r.returncode == 0 and os.path.exists(os.path.join(tmp, "s_cuda_gpu_kern_sum.csv")),
          "stats -o: %s" % r.stderr)
    r = run(gsys, ["analyze", basic], env)
    check(r.returncode == 0, "analyze: %s" % r.stderr)
    page = os.path.join(tmp, "basic.html")
    r = run(gsys, ["summary", "-o", page, basic], env)
    check(r.returncode == 0 and os.path.getsize(page) > 1000, "summary: %s" % r.stderr)
    sq = os.path.join(tmp, "basic.sqlite")
    r = run(gsys, ["export", "--type", "sqlite", "-o", sq, basic], env)
    check(r.returncode == 0, "export sqlite: %s" % r.stderr)
    if r.returncode == 0:
        compare(basic, sq, "export --type sqlite")
    kdir = os.path.join(tmp, "basic_kineto")
    r = run(gsys, ["export", "--type", "kineto", "-o", kdir, basic], env)
    check(r.returncode == 0, "export kineto: %s" % r.stderr)
    if r.returncode == 0:  # the trace written back has the same kernels
        files = [os.path.join(kdir, f) for f in os.listdir(kdir)]
        check(len(files) == 1 and kineto_scan.scan(files[0])["kernels"] == want,
              "kineto round trip %r" % files)
    out = os.path.join(tmp, "recipe")
    r = run(gsys, ["recipe", "nccl_gpu_overlap_trace", "--input", os.path.join(FIX, "nccl_2rank"),
                   "--output", out], env)
    check(r.returncode == 0, "recipe: %s" % r.stderr)
    if r.returncode == 0:
        with open(os.path.join(out, "files.csv")) as f:
            ranks = [row["Rank"] for row in csv.DictReader(f)]
        check(ranks == ["0", "1"], "recipe ranks %r" % ranks)
        with open(os.path.join(out, "rank_trace.csv")) as f:
            n = sum(1 for _ in csv.DictReader(f))
        nccl = sum(kineto_scan.scan(t)["nccl_kernels"] for t in TRACES[2:4])
        check(n == nccl, "recipe NCCL kernels %d, want %d" % (n, nccl))
    left = os.listdir(env["TMPDIR"])
    check(left == [], "temporary reports left behind: %r" % left)


def test_bad_input(gsys, tmp):
    with open(TRACES[0], "rb") as f:
        good = f.read()
    cases = {
        "cut.json": good[:len(good) // 2],
        "cut.json.gz": gzip.compress(good)[:len(gzip.compress(good)) // 2],
        "no_trailer.json.gz": gzip.compress(good)[:-4],
        "garbage.json.gz": b"\x1f\x8b" + b"x" * 100,
        "empty.json": b"",
        "types.json": b'{"traceEvents": 5}',
        "deep.json": b'{"traceEvents": [' + b"[" * 200000 + b"]}",
        "huge.json": b'{"traceEvents": [{"ph": "X", "ts": 1e99999}]}',
        "binary.json": bytes(range(256)) * 4,
    }
    env = dict(os.environ, TMPDIR=os.path.join(tmp, "badtmp"))
    os.makedirs(env["TMPDIR"])
    for name, body in cases.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(body)
        for verb in (["import", "-o", os.path.join(tmp, "bad.gsys-rep")],
                     ["stats", "-r", "cuda_gpu_kern_sum"], ["export", "--type", "sqlite"]):
            r = run(gsys, verb + [path], env)
            lines = r.stderr.strip().splitlines()
            check(0 < r.returncode < 128, "%s %s: exit %d" % (verb[0], name, r.returncode))
            check(len(lines) == 1 and lines[0].startswith(verb[0] + ": '" + path + "'"),
                  "%s %s: one line expected: %r" % (verb[0], name, r.stderr))
        check(not os.path.exists(os.path.join(tmp, "bad.gsys-rep")), "no report from " + name)
    check(os.listdir(env["TMPDIR"]) == [], "temporary reports of bad input left behind")
    fifo = os.path.join(tmp, "fifo.json")
    os.mkfifo(fifo)
    r = run(gsys, ["import", fifo])
    check(r.returncode != 0 and "not a regular file" in r.stderr, "a FIFO: %r" % r.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        test_imports(args.gsys, tmp)
        test_basic_details(args.gsys, tmp)
        test_verbs(args.gsys, tmp)
        test_bad_input(args.gsys, tmp)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("kineto.import: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
