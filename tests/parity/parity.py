#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The parity tier (tests/parity/README.md): gsys's `stats` and `analyze` on every capture of the
project's own nsys corpus, byte for byte against what nsys 2025.3.1 printed on the same file.

  parity.py --gsys BIN --corpus DIR --capture NAME [--source nsys|gsys] [--show N]

A capture directory holds nsys's export (nsys.sqlite.xz) and gsys's report of the same program
(gsys.gsys-rep.xz), each with nsys's outputs on it (nsys-on-nsys/, nsys-on-gsys/): one CSV per
stats report and analyze rule, the run's console lines, and the default console text of
`nsys stats FILE` and `nsys analyze FILE`. gsys is run the same way, beside a copy of the file
with its bare name. Console lines name nsys's script path (`with [/opt/.../reports/nvtx_sum.py]`)
where gsys names the report (`with [nvtx_sum]`); that is the one rewrite made before comparing.

A difference fails unless ALLOWED names it; every ALLOWED entry names the row of
docs/differences-from-nsys.md that explains it (checked to exist) and is itself checked: an entry
that no longer matches a difference fails too, so the list cannot go stale.
"""
import argparse
import difflib
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DOC = os.path.join(os.path.dirname(os.path.dirname(HERE)), "docs", "differences-from-nsys.md")
SOURCES = {"nsys": ("nsys.sqlite.xz", "nsys-on-nsys"), "gsys": ("gsys.gsys-rep.xz", "nsys-on-gsys")}

# (capture regex, source regex, output file regex) -> the phrase of docs/differences-from-nsys.md
# that documents the difference. Empty: every output equals nsys's.
ALLOWED = []

SCRIPT_PATH = re.compile(r"with \[[^\]]*/(?:reports|rules)/([A-Za-z0-9_]+)\.py\]")


def normalise(text):
    lines = [SCRIPT_PATH.sub(r"with [\1]", line) for line in text.splitlines(keepends=True)]
    # make_corpus.sh appends the exit status of each nsys run.
    if lines and lines[-1].startswith("rc="):
        lines = lines[:-1]
    return "".join(lines)


RUN_LINE = re.compile(r"^Processing \[[^\]]*\] with \[[^\]]*/([A-Za-z0-9_]+)\.py\](?:\([^)]*\))? "
                      r"to \[[a-z]+/r_([^\]]*)\.csv\]")


def items_of(run_text):
    """The `-r` items of nsys's run, in its order, from its console lines: the output file
    r_<report>[_<arg>].csv gives the argument (cuda_gpu_kern_sum:base)."""
    out = []
    for line in run_text.splitlines():
        m = RUN_LINE.match(line)
        if m:
            report, stem = m.groups()
            arg = stem[len(report) + 1:]
            out.append(report + (":" + arg if arg else ""))
    return out


def run(gsys, cwd, *args):
    p = subprocess.run([gsys, *args], cwd=cwd, capture_output=True, timeout=600)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def compare(results, key, want, got):
    if want == got:
        return
    diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                             "nsys", "gsys", n=1))[:40])
    results.append((key, diff or f"(bytes differ: nsys {len(want)} B, gsys {len(got)} B)\n"))


def read(path):
    with open(path, encoding="utf-8", errors="replace", newline="") as f:
        return f.read()


def check_source(gsys, capture_dir, capture, source, results):
    packed, client = SOURCES[source]
    want_dir = os.path.join(capture_dir, client)
    if not os.path.exists(os.path.join(capture_dir, packed)):
        results.append((f"{source}:{packed}", "missing from the corpus\n"))
        return
    with tempfile.TemporaryDirectory(prefix="gsys-parity-") as tmp:
        name = capture + ".sqlite"
        with lzma.open(os.path.join(capture_dir, packed)) as f, open(os.path.join(tmp, name), "wb") as out:
            shutil.copyfileobj(f, out)
        for verb, sub in (("stats", "stats"), ("analyze", "analyze")):
            os.mkdir(os.path.join(tmp, sub))
            want_files = sorted(os.listdir(os.path.join(want_dir, sub)))
            items = items_of(read(os.path.join(want_dir, verb + "_run.txt")))
            while True:
                # csv:raw: gsys's default csv prefixes formula-like text with ' (a documented
                # difference, pinned by tests/reliability/hostile_reports.py csv_formulas).
                rc, out, err = run(gsys, tmp, verb, "-r", ",".join(items), "-f", "csv:raw", "-o",
                                   sub + "/r", "--force-overwrite", "true", name)
                unknown = re.search(r"unknown (?:report|rule) '([^']+)'", err)
                if rc == 0 or not unknown or unknown.group(1) not in items:
                    break
                # Each report gsys lacks is one failure; the others are still compared.
                results.append((f"{source}:{verb} -r {unknown.group(1)}", "unknown to gsys\n"))
                items = [i for i in items if i != unknown.group(1)]
            if rc != 0:
                results.append((f"{source}:{verb} -f csv", f"exit {rc}: {err.strip()[:400]}\n"))
                continue
            compare(results, f"{source}:{verb}_run.txt",
                    normalise(read(os.path.join(want_dir, verb + "_run.txt"))), out)
            for f in want_files:
                got_path = os.path.join(tmp, sub, f)
                got = read(got_path) if os.path.exists(got_path) else "(no file)\n"
                compare(results, f"{source}:{sub}/{f}", read(os.path.join(want_dir, sub, f)), got)
            extra = sorted(set(os.listdir(os.path.join(tmp, sub))) - set(want_files))
            if extra:
                results.append((f"{source}:{sub}/", f"files nsys did not write: {extra}\n"))
            rc, out, err = run(gsys, tmp, verb, name)
            compare(results, f"{source}:{verb}_console.txt",
                    normalise(read(os.path.join(want_dir, verb + "_console.txt"))), out)


def documented(phrase):
    with open(DOC, encoding="utf-8") as f:
        return phrase in f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--capture", required=True)
    ap.add_argument("--source", choices=sorted(SOURCES), action="append")
    ap.add_argument("--show", type=int, default=6, help="differences shown in full")
    args = ap.parse_args()
    gsys = os.path.abspath(args.gsys)
    capture_dir = os.path.join(args.corpus, args.capture)
    results = []
    for source in args.source or sorted(SOURCES):
        check_source(gsys, capture_dir, args.capture, source, results)
    failures, used = [], set()
    for key, diff in results:
        source, _, output = key.partition(":")
        rule = next((i for i, (c, s, o, _) in enumerate(ALLOWED)
                     if re.fullmatch(c, args.capture) and re.fullmatch(s, source)
                     and re.fullmatch(o, output)), None)
        if rule is None:
            failures.append((key, diff))
        else:
            used.add(rule)
    for i, (c, s, o, phrase) in enumerate(ALLOWED):
        if not documented(phrase):
            failures.append((f"ALLOWED[{i}]", f"docs/differences-from-nsys.md lacks {phrase!r}\n"))
        applies = re.fullmatch(c, args.capture) and (not args.source or any(
            re.fullmatch(s, x) for x in args.source))
        if applies and i not in used:
            failures.append((f"ALLOWED[{i}]", f"matches no difference any more: {(c, s, o)}\n"))
    for key, diff in failures[: args.show]:
        print(f"FAIL {args.capture} {key}\n{diff}", end="")
    for key, _ in failures[args.show:]:
        print(f"FAIL {args.capture} {key}")
    print(f"{args.capture}: {len(failures)} difference(s) not allowed, {len(used)} allowed rule(s) used")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
