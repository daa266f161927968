#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""GPU cases of -t cuda,cublas,cudnn (issue 10 item 1), run by the lead on the H200.

  gemm_conv: progs/libapi_gemm_conv REPS under `gsys profile -t cuda,cublas,cudnn`:
     exact CUBLAS_EVENTS/CUDNN_EVENTS counts (cublasCreate_v2 1, cublasSgemm_v2 REPS,
     cublasDestroy_v2 1, cudnnCreate 1, cudnnConvolutionForward REPS, cudnnDestroy 1), every SGEMM
     and every convolution call has at least one kernel attributed to it in GSYS_LIBRARY_KERNELS,
     each attributed kernel's launch lies inside its call on the same thread, and
     `gsys stats -r cudnn_api_sum,cublas_api_sum,cuda_gpu_kern_sum` prints the counts.
  pytorch: pytorch_convnet.py ITERS: one cuDNN convolution call per pass (cudnnBackendExecute with
     cuDNN 9's graph API, else cudnnConvolutionForward), at least one cuBLAS GEMM call per pass, and
     the pass's conv and GEMM kernels attributed to cuDNN and cuBLAS calls.
Exits 77 (ctest SKIP_RETURN_CODE) with a reason when there is no GPU, torch or cuDNN.
"""
import argparse, os, re, shutil, sqlite3, subprocess, sys, tempfile
import sys
import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import report_db  # noqa: E402  (tests/lib: absent tables read as empty)

SKIP = 77
FAILURES = []


def check(cond, msg):
    print(("ok:   " if cond else "FAIL: ") + msg)
    if not cond:
        FAILURES.append(msg)


def skip_reason(args, target):
    smi = shutil.which("nvidia-smi")
    if not smi or "GPU" not in subprocess.run([smi, "-L"], capture_output=True, text=True).stdout:
        return "no NVIDIA GPU visible (nvidia-smi -L)"
    if target[0].endswith(".py"):
        r = subprocess.run(["python3", "-c", "import torch; assert torch.cuda.is_available()"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            return "python3 has no torch with CUDA"
    else:
        ldd = subprocess.run(["ldd", target[0]], capture_output=True, text=True).stdout
        if "not found" in ldd:
            return "libraries missing for %s: %s" % (target[0], [l for l in ldd.splitlines() if "not found" in l])
    return None


def profile(args, target, tmp):
    report = os.path.join(tmp, "report.gsys-rep")
    cmd = [args.gsys, "profile", "-t", "cuda,nvtx,osrt,cublas,cudnn", "-f", "true", "-o", report, "--", *target]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    print("\n".join(l for l in r.stderr.splitlines() if l.startswith("gsys:")))
    check(r.returncode == 0, "gsys profile exited %d %s" % (r.returncode, r.stderr[-1500:] if r.returncode else ""))
    if not os.path.exists(report):
        print(r.stderr[-3000:])
        sys.exit(1)
    return report_db.connect(report), report


def counts(db, table):
    return dict(db.execute("SELECT s.value, count(*) FROM %s e JOIN StringIds s ON s.id = e.nameId GROUP BY 1" % table))


def kernels_per_call(db, table, cls, name):
    """{call rowid: attributed kernels} for the calls named `name`, plus calls with none."""
    rows = db.execute(
        "SELECT c.rowid, (SELECT count(*) FROM GSYS_LIBRARY_KERNELS g WHERE g.eventClass = ? AND g.callId = c.rowid) "
        "FROM %s c JOIN StringIds s ON s.id = c.nameId WHERE s.value = ?" % table, (cls, name)).fetchall()
    return dict(rows)


def nesting_violations(db, table, cls):
    """Attributed kernels whose launch call is not inside the library call on the same thread."""
    return db.execute(
        "SELECT count(*) FROM GSYS_LIBRARY_KERNELS g JOIN %s c ON c.rowid = g.callId "
        "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId "
        "  AND (r.globalTid & -16777216) = g.globalPid "
        "WHERE g.eventClass = ? AND (r.globalTid != c.globalTid OR r.start < c.start OR r.end > c.end)" % table,
        (cls,)).fetchone()[0]


def case_gemm_conv(args, tmp):
    reps = 20
    target = [os.path.join(args.bin_dir, "libapi_gemm_conv"), str(reps)]
    if (why := skip_reason(args, target)):
        print("SKIPPED:", why)
        return SKIP
    db, report = profile(args, target, tmp)
    b, d = counts(db, "CUBLAS_EVENTS"), counts(db, "CUDNN_EVENTS")
    print("CUBLAS_EVENTS", b, "\nCUDNN_EVENTS", d)
    for name, want in (("cublasCreate_v2", 1), ("cublasSgemm_v2", reps), ("cublasDestroy_v2", 1)):
        check(b.get(name) == want, "%s calls: %s, want %d" % (name, b.get(name), want))
    for name, want in (("cudnnCreate", 1), ("cudnnConvolutionForward", reps), ("cudnnDestroy", 1),
                       ("cudnnSetTensor4dDescriptor", 2)):
        check(d.get(name) == want, "%s calls: %s, want %d" % (name, d.get(name), want))
    gemm = kernels_per_call(db, "CUBLAS_EVENTS", 29, "cublasSgemm_v2")
    conv = kernels_per_call(db, "CUDNN_EVENTS", 28, "cudnnConvolutionForward")
    check(len(gemm) == reps and min(gemm.values()) >= 1, "every SGEMM has kernels: %s" % sorted(gemm.values()))
    check(len(conv) == reps and min(conv.values()) >= 1, "every convolution has kernels: %s" % sorted(conv.values()))
    check(nesting_violations(db, "CUBLAS_EVENTS", 29) == 0, "cuBLAS attribution nests launch inside call")
    check(nesting_violations(db, "CUDNN_EVENTS", 28) == 0, "cuDNN attribution nests launch inside call")
    # Kernels of the program launched outside any library call: only none expected (memsets are
    # not kernels); every kernel is attributed.
    total = db.execute("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL").fetchone()[0]
    attributed = db.execute("SELECT count(DISTINCT globalPid || ':' || correlationId) FROM GSYS_LIBRARY_KERNELS").fetchone()[0]
    check(total == attributed, "all %d kernels attributed (got %d)" % (total, attributed))
    r = subprocess.run([args.gsys, "stats", "-r", "cudnn_api_sum,cublas_api_sum,cuda_gpu_kern_sum", report],
                       capture_output=True, text=True)
    print(r.stdout)
    check(r.returncode == 0, "gsys stats exit %d" % r.returncode)
    check(re.search(r"\b%d\s+\S+.*cublasSgemm_v2" % reps, r.stdout) is not None, "cublas_api_sum shows %d SGEMMs" % reps)
    check(re.search(r"\b%d\s+\S+.*cudnnConvolutionForward" % reps, r.stdout) is not None,
          "cudnn_api_sum shows %d convolutions" % reps)
    return 0


def case_pytorch(args, tmp):
    iters = 10
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pytorch_convnet.py")
    target = ["python3", script, str(iters)]
    if (why := skip_reason(args, [script])):
        print("SKIPPED:", why)
        return SKIP
    db, report = profile(args, target, tmp)
    b, d = counts(db, "CUBLAS_EVENTS"), counts(db, "CUDNN_EVENTS")
    print("CUBLAS_EVENTS", b, "\nCUDNN_EVENTS", d)
    conv_name = "cudnnBackendExecute" if "cudnnBackendExecute" in d else "cudnnConvolutionForward"
    check(d.get(conv_name) == iters, "%s calls: %s, want %d (one per pass)" % (conv_name, d.get(conv_name), iters))
    gemm_names = [n for n in b if re.search(r"gemm|Gemm|Matmul", n) and "Heuristic" not in n and "Algo" not in n]
    gemm_calls = sum(b[n] for n in gemm_names)
    check(gemm_calls >= iters, "cuBLAS GEMM calls %s (%d) >= %d" % (gemm_names, gemm_calls, iters))
    conv = kernels_per_call(db, "CUDNN_EVENTS", 28, conv_name)
    check(len(conv) == iters and min(conv.values() or [0]) >= 1, "every %s has kernels: %s" % (conv_name, sorted(conv.values())))
    lib_kernels = db.execute("SELECT eventClass, count(*) FROM GSYS_LIBRARY_KERNELS GROUP BY 1").fetchall()
    print("attributed kernels by class:", lib_kernels)
    check(dict(lib_kernels).get(29, 0) >= iters, "cuBLAS kernels attributed >= %d" % iters)
    check(nesting_violations(db, "CUBLAS_EVENTS", 29) == 0 and nesting_violations(db, "CUDNN_EVENTS", 28) == 0,
          "attribution nests launch inside call")
    r = subprocess.run([args.gsys, "stats", "-r", "cudnn_api_sum,cublas_api_sum,cuda_gpu_kern_sum", report],
                       capture_output=True, text=True)
    print(r.stdout[:6000])
    check(r.returncode == 0, "gsys stats exit %d" % r.returncode)
    return 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--case", required=True, choices=["gemm_conv", "pytorch"])
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--bin-dir", default="")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys-libapi-gpu-") as tmp:
        rc = {"gemm_conv": case_gemm_conv, "pytorch": case_pytorch}[args.case](args, tmp)
    if rc == SKIP:
        return SKIP
    print("%d failure(s)" % len(FAILURES) if FAILURES else "all checks passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())
