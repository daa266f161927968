#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""GPU case (issue 10): Python frames at kernel launches PyTorch makes with the GIL released.

Runs pytorch_python_frames.py under `gsys profile -t cuda,nvtx,osrt --python-backtrace=cuda
--cudabacktrace=all:0` (every call gets its stacks, not only those past the default 1 µs
threshold, so counts are exact) and checks:
  * every kernel's launch call carries Python frames (none is left without)
  * the 10 relu kernels: exactly the script's small_relu < main < <module> frames, at their lines
  * the GEMM kernels: innermost script frame big_matmul at its line, then main, then <module>
  * the nn.Linear kernels: torch/nn/modules/linear.py's forward innermost, then module.py's call
    wrappers, then Block.forward at its line
  * `gsys stats -r cuda_api_callers`: the top site (by GPU time) is the matmul line
Exits 77 (ctest SKIP_RETURN_CODE) with the reason when there is no GPU or no torch.
Usage: run_python_frames.py --gsys BUILD/bin/gsys
"""
import argparse
import csv
import io
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
from run_case import KERNEL_NAMES, SKIP, Case, gpu_present  # noqa: E402

SCRIPT = os.path.join(HERE, "pytorch_python_frames.py")


def markers():
    lines = {}
    with open(SCRIPT) as f:
        for i, text in enumerate(f, 1):
            m = re.search(r"# (LINE_\w+)", text)
            if m:
                lines[m.group(1)] = i
    return lines


def stacks(c):
    """Kernel short name -> list of its launch's Python stacks, each [(file, line, function)]."""
    rows = c.q(f"""
        SELECT k.rid, k.short, f.value, p.line, fn.value
        FROM ({KERNEL_NAMES}) k
        JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId
          AND (r.globalTid & ~0xFFFFFF) = k.globalPid
        LEFT JOIN GSYS_PYTHON_CALLCHAINS p ON p.id = r.callchainId
        LEFT JOIN StringIds f ON f.id = p.fileId
        LEFT JOIN StringIds fn ON fn.id = p.functionId
        ORDER BY k.rid, p.stackDepth""")
    by_kernel = {}
    for rid, short, file, line, fn in rows:
        frames = by_kernel.setdefault(rid, (short, []))[1]
        if file is not None:
            frames.append((file, line, fn))
    return list(by_kernel.values())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--bin-dir", default="")
    args = ap.parse_args()
    reason = gpu_present()
    if reason:
        print(f"SKIPPED: {reason}")
        return SKIP
    if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode:
        print(f"SKIPPED: {sys.executable} has no torch")
        return SKIP
    at = markers()
    c = Case(args, "python_frames")
    print(f"case python_frames (session {c.dir}, {sys.version.split()[0]})")
    c.run([sys.executable, SCRIPT], ["--python-backtrace=cuda", "--cudabacktrace=all:0"])
    c.eq("program ran to the end", "expect ok" in c.stdout, True)
    check_report(c, at, args.gsys)
    if c.failures:
        print(f"FAILED: {len(c.failures)} check(s)")
        return 1
    print("PASSED")
    return 0


def check_report(c, at, gsys):
    """The checks of the module docstring on the report `c.report` (open as `c.db`)."""
    kernels = stacks(c)
    print(f"  kernels: {len(kernels)}")
    c.eq("at least 43 kernels (3 randn, 10 GEMM, 10 relu, 10+ linear)", len(kernels) >= 43, True)
    bare = [short for short, frames in kernels if not frames]
    c.eq("kernels whose launch has no Python frames", bare, [])

    def script_frames(frames):
        return [(line, fn) for file, line, fn in frames if file == SCRIPT]

    main_frames = [(at["LINE_MAIN"], "<module>")]
    relu = [f for _, f in kernels if script_frames(f)[:1] == [(at["LINE_RELU"], "small_relu")]]
    c.eq("relu kernels", len(relu), 10)
    want = [(SCRIPT, at["LINE_RELU"], "small_relu"), (SCRIPT, at["LINE_CALL_RELU"], "main"),
            (SCRIPT, at["LINE_MAIN"], "<module>")]
    c.eq("relu launches: exactly the script's frames", all(f == want for f in relu), True)
    if relu and relu[0] != want:
        print("    e.g.", relu[0])
    gemm = [f for _, f in kernels if script_frames(f)[:1] == [(at["LINE_MATMUL"], "big_matmul")]]
    c.eq("GEMM kernels >= 10", len(gemm) >= 10, True)
    want = [(at["LINE_MATMUL"], "big_matmul"), (at["LINE_CALL_MATMUL"], "main")] + main_frames
    c.eq("GEMM launches: big_matmul < main < <module>",
         all(script_frames(f) == want for f in gemm), True)
    fwd = (at["LINE_LINEAR"], "Block.forward" if sys.version_info >= (3, 11) else "forward")
    linear = [f for _, f in kernels if script_frames(f)[:1] == [fwd]]
    c.eq("nn.Linear kernels >= 10", len(linear) >= 10, True)
    c.eq("nn.Linear launches: linear.py's forward innermost, module.py between, then the script",
         all(f[0][0].endswith("torch/nn/modules/linear.py") and "forward" in f[0][2] and
             any(x[0].endswith("torch/nn/modules/module.py") for x in f) and
             script_frames(f) == [fwd, (at["LINE_CALL_BLOCK"], "main")] + main_frames
             for f in linear), True)
    if linear:
        print("    nn.Linear launch stack:", [f"{os.path.basename(a)}:{b} {fn}"
                                              for a, b, fn in linear[0]])
    r = subprocess.run([gsys, "stats", "-r", "cuda_api_callers", "-f", "csv", c.report],
                       capture_output=True, text=True)
    print(r.stdout[:1200], r.stderr[-300:])
    rows = [row for row in csv.reader(io.StringIO(r.stdout)) if len(row) >= 5]
    header = rows[0] if rows else []
    site = header.index("Python Site") if "Python Site" in header else 4
    body = [row for row in rows[1:] if row and row[0][:1].isdigit()]
    c.eq("cuda_api_callers: top site is the matmul line",
         bool(body) and body[0][site] == f"{SCRIPT}:{at['LINE_MATMUL']} big_matmul", True)
    relu_site = f"{SCRIPT}:{at['LINE_RELU']} small_relu"
    ops = header.index("GPU Ops") if "GPU Ops" in header else 2
    c.eq("cuda_api_callers: the relu site launched 10 GPU ops",
         sum(int(row[ops]) for row in body if row[site] == relu_site), 10)


if __name__ == "__main__":
    sys.exit(main())
