#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""-t cublas,cudnn without a GPU (issue 10 item 1).

1. Coverage: the wrappers generated at build time (libapi_summary.txt) against the exported
   functions of the installed libcublas/libcublasLt/libcudnn (ELF dynamic symbol table): every
   exported function that a public header declares has a wrapper; the rest are named and checked
   to be absent from the headers. Prints the counts.
2. Calls: gsys_test_libapi_direct (linked to the libraries) and gsys_test_libapi_dlopen (loads a
   library that uses them with dlopen(RTLD_LOCAL) by bare name through its RUNPATH, as PyTorch
   does) under `gsys profile -t ...`: exact rows per function in CUBLAS_EVENTS / CUDNN_EVENTS,
   per thread, and `gsys stats -r cudnn_api_sum,cublas_api_sum` prints them.
3. Off: without cublas/cudnn in -t the tables stay empty and nothing is patched.
"""
import argparse, csv, glob, io, os, re, sqlite3, subprocess, sys, tempfile
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import report_db  # noqa: E402  (tests/lib: absent tables read as empty)

FAILURES = []


def check(cond, msg):
    if not cond:
        FAILURES.append(msg)
        print("FAIL:", msg)


def coverage(args):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "capture",
                       "libapi", "gen_libapi.py")
    with tempfile.TemporaryDirectory() as out:
        r = subprocess.run([sys.executable, src, "--include-dir", args.include_dir, "--out-dir", out,
                            "--exports", *args.libs], capture_output=True, text=True)
        check(r.returncode == 0, "generator failed: " + r.stderr)
        built = open(args.summary).read()
        fresh = open(os.path.join(out, "libapi_summary.txt")).read()
        check(built == fresh, "the build's generated table differs from the headers:\n%s\n%s" % (built, fresh))
    print("wrappers generated:", " ".join(built.split()))
    headers = ""
    for h in glob.glob(os.path.join(args.include_dir, "cublas*.h")) + glob.glob(os.path.join(args.include_dir, "cudnn*.h")):
        headers += open(h, errors="replace").read()
    for line in r.stdout.splitlines():
        print(line.split(": ")[0] + ": " + line.split(": ")[1])
        m = re.match(r"(\S+): (\d+) exported .* (\d+) wrapped, (\d+) without a public prototype(?:: (.*))?", line)
        check(m is not None, "unexpected generator line: " + line)
        if not m:
            continue
        exported, wrapped, missing = int(m.group(2)), int(m.group(3)), int(m.group(4))
        check(exported > 0 and wrapped > 0, m.group(1) + ": nothing exported or wrapped")
        check(wrapped + missing == exported, m.group(1) + ": counts do not add up")
        for name in (m.group(5) or "").split():
            check(re.search(r"\b%s\s*\(" % re.escape(name), headers) is None,
                  "%s is declared in a public header but has no wrapper" % name)


def profile(args, trace, prog, argv, tmp, name):
    report = os.path.join(tmp, name + ".gsys-rep")
    exe = os.path.join(args.build, "tests", "capture", prog)
    r = subprocess.run([os.path.join(args.build, "bin", "gsys"), "profile", "-t", trace, "-f", "true",
                        "-o", report, exe, *argv], capture_output=True, text=True, timeout=100)
    check(r.returncode == 0, "%s %s exited %d: %s" % (prog, argv, r.returncode, r.stderr[-1500:]))
    return report_db.connect(report), report, r.stderr


def counts(db, table):
    return dict(db.execute("SELECT s.value, count(*) FROM %s AS e JOIN StringIds AS s ON s.id = e.nameId "
                           "GROUP BY s.value" % table).fetchall())


def calls(args, tmp):
    n = 7
    db, report, err = profile(args, "cublas,cudnn", "gsys_test_libapi_direct", ["direct", str(n)], tmp, "direct")
    got_b, got_d = counts(db, "CUBLAS_EVENTS"), counts(db, "CUDNN_EVENTS")
    check(got_b == {"cublasGetProperty": n, "cublasGetStatusString": n, "cublasLtGetVersion": 1},
          "direct: CUBLAS_EVENTS %s" % got_b)
    check(got_d == {"cudnnGetVersion": n, "cudnnGetErrorString": n}, "direct: CUDNN_EVENTS %s" % got_d)
    check(db.execute("SELECT count(*) FROM CUBLAS_EVENTS WHERE eventClass != 29 OR end < start").fetchone()[0] == 0,
          "direct: cuBLAS rows with a wrong eventClass or end < start")
    check(db.execute("SELECT count(*) FROM CUDNN_EVENTS WHERE eventClass != 28 OR end < start").fetchone()[0] == 0,
          "direct: cuDNN rows with a wrong eventClass or end < start")
    pid = db.execute("SELECT pid FROM PROCESSES").fetchall()
    tids = db.execute("SELECT DISTINCT globalTid >> 24 & 16777215 FROM CUBLAS_EVENTS").fetchall()
    check(len(pid) == 1 and tids == pid, "direct: rows not on the target process %s %s" % (pid, tids))
    check("library calls: %d cuBLAS, %d cuDNN" % (2 * n + 1, 2 * n) in err, "direct: no summary line: " + err)
    # gsys stats prints both reports with the exact call counts.
    r = subprocess.run([os.path.join(args.build, "bin", "gsys"), "stats", "-r", "cudnn_api_sum,cublas_api_sum",
                        "--format", "csv", report], capture_output=True, text=True)
    check(r.returncode == 0, "stats failed: " + r.stderr)
    rows = {}
    for block in r.stdout.split("\n\n"):
        lines = [l for l in block.splitlines() if "," in l]
        if lines and lines[0].startswith("Time (%)"):
            for row in csv.DictReader(io.StringIO("\n".join(lines))):
                rows[row["Name"]] = int(row["Num Calls"])
    check(rows == {"cublasGetProperty": n, "cublasGetStatusString": n, "cublasLtGetVersion": 1,
                   "cudnnGetVersion": n, "cudnnGetErrorString": n}, "stats rows: %s" % rows)
    print("direct: CUBLAS_EVENTS", got_b, "CUDNN_EVENTS", got_d)

    # The PyTorch pattern: the libraries arrive with a dlopen(RTLD_LOCAL) of a library using them.
    n, threads = 4, 3
    db, _, _ = profile(args, "cublas,cudnn", "gsys_test_libapi_dlopen", ["dlopen", str(n), str(threads)], tmp, "dlopen")
    got_b, got_d = counts(db, "CUBLAS_EVENTS"), counts(db, "CUDNN_EVENTS")
    check(got_b == {"cublasGetProperty": n * threads, "cublasGetStatusString": n * threads,
                    "cublasLtGetVersion": threads}, "dlopen: CUBLAS_EVENTS %s" % got_b)
    check(got_d == {"cudnnGetVersion": n * threads, "cudnnGetErrorString": n * threads}, "dlopen: CUDNN_EVENTS %s" % got_d)
    per_thread = db.execute("SELECT count(*) FROM CUDNN_EVENTS GROUP BY globalTid").fetchall()
    check(sorted(per_thread) == [(2 * n,)] * threads, "dlopen: cuDNN rows per thread %s" % per_thread)
    print("dlopen: CUBLAS_EVENTS", got_b, "CUDNN_EVENTS", got_d, "threads", len(per_thread))

    # One library only, and none.
    db, _, _ = profile(args, "cudnn", "gsys_test_libapi_direct", ["direct", "3"], tmp, "cudnn_only")
    check(counts(db, "CUBLAS_EVENTS") == {} and sum(counts(db, "CUDNN_EVENTS").values()) == 6,
          "-t cudnn: %s %s" % (counts(db, "CUBLAS_EVENTS"), counts(db, "CUDNN_EVENTS")))
    db, _, _ = profile(args, "nvtx,osrt", "gsys_test_libapi_dlopen", ["dlopen", "3", "2"], tmp, "off")
    check(counts(db, "CUBLAS_EVENTS") == {} and counts(db, "CUDNN_EVENTS") == {}, "trace off: rows recorded")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--summary", required=True)
    ap.add_argument("--include-dir", required=True)
    ap.add_argument("--libs", nargs="+", required=True)
    args = ap.parse_args()
    args.libs = [os.path.realpath(l) for l in args.libs]
    coverage(args)
    with tempfile.TemporaryDirectory(prefix="gsys-libapi-") as tmp:
        calls(args, tmp)
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
