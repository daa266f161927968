#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Valgrind memcheck over the CLI (issue 8): `gsys stats`, `analyze` and `export` on the nsys
fixtures, and `gsys import` of a session made of the raw-stream seed corpus. Fails on any
memcheck error (invalid read/write, use of uninitialised values, invalid free) and on definite
leaks.

usage: valgrind_cli.py --gsys GSYS --fixtures DIR [--fault-target PROG]   (77 = no valgrind)"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

VALGRIND = ["valgrind", "--tool=memcheck", "--error-exitcode=99", "--leak-check=full",
            "--errors-for-leak-kinds=definite", "--show-leak-kinds=definite",
            "--track-origins=no", "--quiet"]

FIXTURES = ["nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite", "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    args = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("SKIP: valgrind not installed (tools/install_deps.sh installs it)")
        return 77
    tmp = tempfile.mkdtemp(prefix="gsys_valgrind_")
    runs = []
    # The nsys exports are optional (not in the repository): without them only the import runs,
    # and the test reports SKIPPED rather than passed.
    have_fixtures = os.path.isdir(args.fixtures)
    for name in FIXTURES if have_fixtures else []:
        f = os.path.join(args.fixtures, name)
        runs.append(["stats", "-r", "nvtx_sum,osrt_sum,cuda_api_sum,cuda_gpu_kern_sum", f])
        runs.append(["analyze", f])
    f = os.path.join(args.fixtures, FIXTURES[0])
    for kind in ("perfetto", "chrome", "csv") if have_fixtures else []:
        runs.append(["export", "--type", kind, "-o", os.path.join(tmp, "out." + kind), f])
    # gsys import of a session made of the raw streams in the fuzz seed corpus.
    seeds = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fuzz", "corpus",
                         "import_fuzzer")
    session = os.path.join(tmp, "s.gsys-session")
    os.makedirs(session)
    for i, name in enumerate(sorted(os.listdir(seeds))):
        if name.endswith(".gsysraw"):
            shutil.copy(os.path.join(seeds, name), os.path.join(session, f"{100 + i}-{i}.gsysraw"))
    runs.append(["import", session, "-o", os.path.join(tmp, "imported.gsys-rep")])
    failures = []
    try:
        for run in runs:
            p = subprocess.run(VALGRIND + [args.gsys] + run, capture_output=True, text=True,
                               timeout=600)
            label = "gsys " + " ".join(a if not a.startswith("/") else os.path.basename(a)
                                       for a in run)
            if p.returncode == 99:
                failures.append(f"{label}: memcheck errors\n{p.stderr[-4000:]}")
            elif p.returncode not in (0, 1):
                failures.append(f"{label}: exit {p.returncode}\n{p.stderr[-2000:]}")
            else:
                print(f"clean: {label} (exit {p.returncode})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL:", f)
    if failures:
        return 1
    if not have_fixtures:
        print("SKIPPED: stats/analyze/export runs: nsys fixtures not found: %s (optional: "
              "../shared/fixtures/nsys beside the checkout, see tests/README.md)"
              % os.path.abspath(args.fixtures))
        return 77
    return 0


if __name__ == "__main__":
    sys.exit(main())
