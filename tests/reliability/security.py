#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Security checks (issue 8, docs/reliability.md):
  secrets      values of secret-looking environment variables (in gsys's environment, and set
               with -e) appear nowhere: not in the report, the kept session, gsys's output, the
               capture library's log (GSYS_LOG=1) or an export
  q_traversal  an -o pattern whose %q{} value climbs out ('../../x') is refused before the
               target starts
  no_shell     no source file under src/ calls system(), popen() or a shell; the stats '@CMD'
               output runs CMD split on spaces, without a shell (';' is a plain argument)

usage: security.py --build BUILD_DIR CASE"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARGS = None
TMP = None
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src")
SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMIK7MDENGbPxRfiCYzz9secret1",
    "AWS_SESSION_TOKEN": "FwoGZXIvYXdzEXAMPLEsessiontoken22",
    "GITHUB_TOKEN": "ghp_EXAMPLEexampleEXAMPLE333",
    "HF_TOKEN": "hf_EXAMPLEhuggingface444",
}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def gsys():
    return os.path.join(ARGS.build, "bin", "gsys")


def prog():
    return os.path.join(ARGS.build, "tests", "reliability", "gsys_fault_target")


def files_under(path):
    for root, _, names in os.walk(path):
        for n in names:
            yield os.path.join(root, n)


def case_secrets():
    env = dict(os.environ, GSYS_KEEP_SESSION="1", GSYS_LOG="1", **SECRETS)
    extra = "DB_PASSWORD=pw_EXAMPLE_database_555"
    p = subprocess.run([gsys(), "profile", "-o", "r", "-e", extra, "--export=chrome",
                        prog(), "nested", "5"], capture_output=True, text=True, env=env,
                       timeout=60)
    if p.returncode != 0:
        fail(f"profile failed: {p.stderr}")
    values = list(SECRETS.values()) + [extra.split("=", 1)[1]]
    places = {"gsys stdout": p.stdout.encode(), "gsys stderr": p.stderr.encode()}
    for f in files_under(TMP):
        with open(f, "rb") as fh:
            places[os.path.relpath(f, TMP)] = fh.read()
    if "r.gsys-rep" not in places or not any(k.endswith(".gsysraw") for k in places):
        fail(f"expected a report and a kept session, found {sorted(places)}")
    for where, data in places.items():
        for v in values:
            if v.encode() in data:
                fail(f"secret value {v[:6]}... found in {where}")
    s = subprocess.run([gsys(), "stats", "r.gsys-rep"], capture_output=True, text=True, env=env)
    for v in values:
        if v in s.stdout or v in s.stderr:
            fail("secret value in gsys stats output")
    print(f"checked {len(places)} outputs for {len(values)} secret values")


def case_q_traversal():
    marker = os.path.join(TMP, "target-ran")
    os.makedirs(os.path.join(TMP, "out"))
    env = dict(os.environ, X="../../etc/gsys-escape")
    p = subprocess.run([gsys(), "profile", "-o", "out/%q{X}", "/bin/sh", "-c", f"touch {marker}"],
                       capture_output=True, text=True, env=env, timeout=60)
    if p.returncode != 2 or "'..'" not in p.stderr or len(p.stderr.strip().splitlines()) != 1:
        fail(f"expected a one-line usage error (exit 2), got {p.returncode}: {p.stderr!r}")
    if os.path.exists(marker):
        fail("the target ran although the output name was refused")
    # A value with dots and slashes that climbs nothing is fine.
    env = dict(os.environ, X="run..1")
    p = subprocess.run([gsys(), "profile", "-o", "out/%q{X}", "true"], capture_output=True,
                       text=True, env=env, timeout=60)
    if p.returncode != 0 or not os.path.exists(os.path.join(TMP, "out", "run..1.gsys-rep")):
        fail(f"out/%q{{X}} with X=run..1: {p.returncode} {p.stderr}")


def case_no_shell():
    banned = re.compile(r"(?<![\w])(system|popen)\s*\(|\"/bin/sh\"|\"sh\"\s*,\s*\"-c\"")
    hits = []
    for f in files_under(SRC):
        if not f.endswith((".cc", ".h")) or f.endswith("_test.cc"):
            continue
        with open(f, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                code = line.split("//")[0]
                if banned.search(code):
                    hits.append(f"{os.path.relpath(f, SRC)}:{n}: {line.strip()}")
    if hits:
        fail("shell or system() use in src/:\n" + "\n".join(hits))
    # '@CMD' output of stats: words split on spaces, no shell; ';' reaches the command as text.
    fixture = os.path.join(ARGS.fixtures, "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite")
    marker = os.path.join(TMP, "shell-ran")
    p = subprocess.run([gsys(), "stats", "-r", "nvtx_sum", "-o", f"@cat ; touch {marker}",
                        fixture], capture_output=True, text=True, timeout=60)
    if os.path.exists(marker):
        fail("the '@' output command went through a shell")
    print(f"stats @cmd exit {p.returncode} (cat rejects ';' as a file: no shell)")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--fixtures", default=os.path.join(SRC, "..", "..", "shared", "fixtures", "nsys"))
    ap.add_argument("case")
    ARGS = ap.parse_args()
    ARGS.build = os.path.abspath(ARGS.build)
    ARGS.fixtures = os.path.abspath(ARGS.fixtures)
    TMP = tempfile.mkdtemp(prefix="gsys_security_")
    try:
        os.chdir(TMP)
        globals()["case_" + ARGS.case]()
    finally:
        os.chdir("/")
        shutil.rmtree(TMP, ignore_errors=True)
    print("ok:", ARGS.case)


if __name__ == "__main__":
    main()
