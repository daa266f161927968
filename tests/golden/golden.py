#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Golden (diff) tests: every stats report in every format on every nsys fixture.

  golden.py --gsys BIN --fixtures DIR --expected DIR [--update] [--fixture NAME]

Each case runs `gsys stats -r REPORT -f FORMAT -o - FIXTURE` (console lines included) and compares stdout with
expected/<fixture>/<report>.<format>. Outputs larger than LARGE_BYTES are stored as a
.sha256 file (hash, line count and the first lines) to keep the repository small.
"""
import argparse
import hashlib
import os
import subprocess
import sys

FORMATS = ["column", "table", "csv", "tsv", "json", "hdoc", "htable"]
LARGE_BYTES = 64 * 1024
HEAD_LINES = 20


def report_names(gsys):
    out = subprocess.run([gsys, "stats", "--help-reports"], capture_output=True, text=True,
                         check=True).stdout
    names = []
    for line in out.splitlines():
        word = line.strip().split(" ")[0] if line.strip() else ""
        if word and word.replace("_", "").isalnum() and word.islower() and "_" in word:
            names.append(word)
    return sorted(set(names))


def run_case(gsys, fixture, report, fmt):
    # Run beside the fixture with its bare name so the console lines (which name the input)
    # are the same on every machine.
    proc = subprocess.run([os.path.abspath(gsys), "stats", "-r", report, "-f", fmt, "-o", "-",
                           os.path.basename(fixture)],
                          capture_output=True, cwd=os.path.dirname(os.path.abspath(fixture)))
    if proc.returncode != 0:
        return None, proc.stderr.decode(errors="replace")
    return proc.stdout, None


def digest_record(data):
    text = data.decode(errors="replace")
    lines = text.splitlines()
    head = "\n".join(lines[:HEAD_LINES])
    return "sha256 %s\nlines %d\nbytes %d\n--- first %d lines ---\n%s\n" % (
        hashlib.sha256(data).hexdigest(), len(lines), len(data), HEAD_LINES, head)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--fixture", help="only this fixture (file name)")
    args = ap.parse_args()

    fixtures = sorted(f for f in os.listdir(args.fixtures) if f.endswith(".sqlite"))
    if args.fixture:
        fixtures = [f for f in fixtures if f == args.fixture]
    if not fixtures:
        print("golden: no fixtures found in %s" % args.fixtures)
        return 1
    reports = report_names(args.gsys)
    if len(reports) < 20:
        print("golden: expected the full report list, got %r" % reports)
        return 1
    passed = failed = 0
    for fixture in fixtures:
        exp_dir = os.path.join(args.expected, fixture[:-len(".sqlite")])
        os.makedirs(exp_dir, exist_ok=True) if args.update else None
        for report in reports:
            for fmt in FORMATS:
                name = "%s.%s" % (report, fmt)
                out, err = run_case(args.gsys, os.path.join(args.fixtures, fixture), report, fmt)
                if out is None:
                    print("FAIL %s/%s: gsys failed: %s" % (fixture, name, err.strip()))
                    failed += 1
                    continue
                plain = os.path.join(exp_dir, name)
                hashed = plain + ".sha256"
                if args.update:
                    for stale in (plain, hashed):
                        if os.path.exists(stale):
                            os.remove(stale)
                    if len(out) > LARGE_BYTES:
                        with open(hashed, "w") as f:
                            f.write(digest_record(out))
                    else:
                        with open(plain, "wb") as f:
                            f.write(out)
                    passed += 1
                    continue
                if os.path.exists(plain):
                    with open(plain, "rb") as f:
                        ok = f.read() == out
                elif os.path.exists(hashed):
                    with open(hashed) as f:
                        ok = f.readline().split()[1] == hashlib.sha256(out).hexdigest()
                else:
                    print("FAIL %s/%s: no expected file" % (fixture, name))
                    failed += 1
                    continue
                if ok:
                    passed += 1
                else:
                    failed += 1
                    print("FAIL %s/%s: output differs (rerun with --update after checking)" %
                          (fixture, name))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
