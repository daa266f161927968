#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Golden (diff) tests: every stats report in every format on every nsys fixture.

  golden.py --gsys BIN --fixtures DIR --expected DIR [--update] [--fixture NAME]

Each case is the console output of `gsys stats -r REPORT -f FORMAT -o - FIXTURE`, compared with
expected/<fixture>/<report>.<format>: stdout and stderr together from the first "Processing ["
line on (csv and tsv put nsys's console lines on stderr and the table on stdout), and for json
stdout alone (one JSON document). Outputs larger than LARGE_BYTES are
stored as a .sha256 file (hash, line count and the first lines) to keep the repository small.

All cases of a fixture but the json ones (each runs alone: several JSON reports to the console
are one document) run in one gsys process (`-r R1,R1,.. -f column,table,.. -o -,-,..`, one
report per format, as nsys pairs them) and its stdout is cut at each "Processing [" line: a
process per case cost ~80 ms of start-up each under ASan (280 cases per fixture). A case whose
piece differs is run again alone, so the failure says whether the report or the multi-report
run is wrong; if the batch fails or gives the wrong number of pieces, every case runs alone.
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


def console_run(gsys, fixture, args, merged):
    # Run beside the fixture with its bare name so the console lines (which name the input)
    # are the same on every machine.
    return subprocess.run([os.path.abspath(gsys), "stats"] + args + [os.path.basename(fixture)],
                          stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merged else subprocess.PIPE,
                          cwd=os.path.dirname(os.path.abspath(fixture)))


def from_first_processing(out):
    """The console output from the first "Processing [" line on (data warnings come before)."""
    if out.startswith(b"Processing ["):
        return out
    at = out.find(b"\nProcessing [")
    return out[at + 1:] if at >= 0 else out


def run_case(gsys, fixture, report, fmt):
    merged = fmt != "json"
    proc = console_run(gsys, fixture, ["-r", report, "-f", fmt, "-o", "-"], merged)
    if proc.returncode != 0:
        return None, (proc.stdout if merged else proc.stderr).decode(errors="replace")
    return (from_first_processing(proc.stdout) if merged else proc.stdout), None


def run_batch(gsys, fixture, cases):
    """stdout pieces of one `gsys stats` run over every (report, format) case, or None."""
    proc = console_run(gsys, fixture, ["-r", ",".join(report for report, _ in cases),
                                       "-f", ",".join(fmt for _, fmt in cases),
                                       "-o", ",".join("-" for _ in cases)], True)
    if proc.returncode != 0:
        return None
    out = from_first_processing(proc.stdout)
    starts = [0] if out.startswith(b"Processing [") else []
    pos = out.find(b"\nProcessing [")
    while pos != -1:
        starts.append(pos + 1)
        pos = out.find(b"\nProcessing [", pos + 1)
    if len(starts) != len(cases) or starts[0] != 0:
        return None
    pieces = [out[begin:end] for begin, end in zip(starts, starts[1:] + [len(out)])]
    # In a multi-report run each csv/tsv table after the first starts with the empty line that
    # separates it from the one before; run alone it has none.
    return [p.replace(b"):\n\n\n", b"):\n\n", 1) if fmt in ("csv", "tsv") else p
            for p, (_, fmt) in zip(pieces, cases)]


def digest_record(data):
    text = data.decode(errors="replace")
    lines = text.splitlines()
    head = "\n".join(lines[:HEAD_LINES])
    return "sha256 %s\nlines %d\nbytes %d\n--- first %d lines ---\n%s\n" % (
        hashlib.sha256(data).hexdigest(), len(lines), len(data), HEAD_LINES, head)


SKIPPED = 77  # ctest SKIP_RETURN_CODE
NOTE = "(optional: ../shared/fixtures/nsys beside the checkout, see tests/README.md)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--update", action="store_true")
    ap.add_argument("--fixture", help="only this fixture (file name)")
    args = ap.parse_args()

    # The nsys exports are not in the repository: without them there is nothing to compare.
    if not os.path.isdir(args.fixtures):
        print("SKIPPED: nsys fixtures not found: %s %s" % (os.path.abspath(args.fixtures), NOTE))
        return SKIPPED
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
        fixture_path = os.path.join(args.fixtures, fixture)
        cases = [(report, fmt) for report in reports for fmt in FORMATS]
        batched = [case for case in cases if case[1] != "json"]
        pieces = run_batch(args.gsys, fixture_path, batched)
        if pieces is None:
            print("golden: %s: the multi-report run failed; running each case alone" % fixture)
        piece_of = dict(zip(batched, pieces or []))
        for report, fmt in cases:
            name = "%s.%s" % (report, fmt)
            if (report, fmt) not in piece_of:
                out, err = run_case(args.gsys, fixture_path, report, fmt)
            else:
                out, err = piece_of[(report, fmt)], None
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
                continue
            failed += 1
            alone = ""
            if (report, fmt) in piece_of:
                single, _ = run_case(args.gsys, fixture_path, report, fmt)
                alone = (" (the same when run alone)" if single == out else
                         " (run alone it gives another output than in the multi-report run)")
            print("FAIL %s/%s: output differs%s (rerun with --update after checking)" %
                  (fixture, name, alone))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
