#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hostile reports for the verbs that read them (issue 17, items 7 and 10; docs/reliability.md P6,
P13). Each case builds a small report that is valid SQLite in the canonical schema
(src/report/schema.sql, through tests/lib/synth_report.py) but holds values a sound capture never
writes, and checks that gsys ends, says what it cannot trust, and invents nothing:

  extreme_span          a kernel from INT64_MIN to INT64_MAX: summary (it hung), stats, analyze,
                        recipe and the timeline exports end and succeed
  repeated_correlation  600 kernels and 600 API calls of one process sharing correlation id 1:
                        nvtx_kern_sum / cuda_kern_exec_trace count 600 kernels, not 600 x 600
                        (the join was quadratic: 41 s on a 600 KB report), and a warning says so
  damaged_export        a report whose free-space accounting is damaged (PRAGMA quick_check
                        fails, every row still reads): export -t sqlite exits non-zero with one
                        line and writes nothing (it exited 0 and copied it)
  data_warnings         kernels that end before they start, a kernel name missing from StringIds,
                        an NVTX range that ends before it starts, memory copies of a negative
                        size: stats, analyze, summary, recipe and export each print one warning
                        line per kind; a sound report none
  untimed_rows          kernels, a CUDA API call and an NVTX range whose start or end is NULL, text
                        or a real (a schema without NOT NULL): stats, analyze, summary, recipe
                        and export each print one warning line per table (they were shown as 0
                        or as text without a word); NVTX marks without an end are no problem
  csv_formulas          kernel names starting with = + - @: stats -f csv and -f tsv, export -t
                        csv and recipe's CSVs prefix them with ' (numbers, also negative ones,
                        unchanged), recipe diff reads them back as the names they are;
                        -f csv:raw, -f tsv:raw and --csv-raw write them as they are
  schema_statements     a report whose sqlite_master text for a table carries more statements
                        (COMMIT; ATTACH another database of the user's; DROP TABLE there): export
                        -t sqlite refuses it with one line and leaves that database alone (it ran
                        them: the other database lost its table); a sound report still exports
  computed_columns      a report whose StringIds.value is a virtual generated column building a
                        20 MB string per read (a 600 KB file kept export -t csv busy for minutes
                        at 800 MB and growing): stats, analyze, summary, recipe and every export
                        refuse it with one line, write nothing
  diff_special_files    recipe output directories given to `recipe diff` whose files.csv or
                        all_stats.csv is a FIFO, a link to /dev/zero or a directory: diff ends with
                        one line naming the file, exit non-zero, no output (it waited for a writer
                        or read /dev/zero until memory ran out); a link to a real file still reads
  swapped_report        a report name in a shared directory that keeps flipping between a real
                        report and a FIFO: no `gsys stats` hangs (the name was checked, then
                        opened again by the header check and by SQLite: a FIFO swapped in between
                        made the open wait for a writer for good, 1 run in 4 to 30)

A generous timeout catches hangs; nothing is timed.

usage: hostile_reports.py --build BUILD_DIR CASE"""
import argparse
import csv
import io
import os
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import synth_report  # noqa: E402  (tests/lib: reports in the canonical schema)

ARGS = None
TMP = None
INT64_MIN, INT64_MAX = -2**63, 2**63 - 1


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def gsys(*args, timeout=120):
    try:
        return subprocess.run([os.path.join(ARGS.build, "bin", "gsys")] + list(args),
                              capture_output=True, text=True, timeout=timeout, cwd=TMP)
    except subprocess.TimeoutExpired:
        fail(f"gsys {' '.join(args)} did not end within {timeout} s")


def ok(p, what):
    if p.returncode != 0:
        fail(f"{what} exited {p.returncode}: {p.stderr.strip()}")
    return p


def warnings(p):
    return [line for line in p.stderr.splitlines() if line.startswith("gsys: warning: ")]


def report(name, build, edit=None):
    path = os.path.join(TMP, name + ".gsys-rep")
    build(synth_report.Report()).write(path)
    if edit:
        db = sqlite3.connect(path)
        for sql in edit:
            db.execute(sql)
        db.commit()
        db.close()
    return path


def csv_rows(text, first_column):
    """The CSV table of a `-f csv` console output: from its header (the line that starts with
    `first_column`) to the next empty line."""
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith(first_column + ",")), None)
    if start is None:
        fail(f"no CSV table starting with {first_column!r} in {text!r}")
    end = next((i for i in range(start, len(lines)) if not lines[i]), len(lines))
    return list(csv.reader(io.StringIO("\n".join(lines[start:end]))))


def case_extreme_span():
    path = report("span", lambda r: r.kernel(0, 10, "k2").memcpy(20, 30, 4096)
                  .api(-5, 0, "cudaLaunchKernel"),
                  ["INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL",
                   f"UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = {INT64_MIN}, end = {INT64_MAX}"
                   " WHERE rowid = 2"])
    page = os.path.join(TMP, "span.html")
    ok(gsys("summary", "-o", page, path, timeout=60), "summary")
    with open(page) as f:
        if "GPU utilization" not in f.read():
            fail("the summary page has no GPU utilization section")
    ok(gsys("stats", "-r", "cuda_gpu_kern_sum,cuda_gpu_trace,cuda_kern_exec_sum,nvtx_gpu_proj_sum",
            path, timeout=60), "stats")
    ok(gsys("analyze", "-r", "all", path, timeout=60), "analyze")
    for t in ("chrome", "perfetto"):
        ok(gsys("export", "-t", t, "-o", os.path.join(TMP, "span." + t), path, timeout=60),
           "export -t " + t)
    for recipe in ("cuda_gpu_time_util_map", "cuda_gpu_kern_pace", "nccl_gpu_overlap_trace"):
        args = ["recipe", recipe, "--input", path, "--output", os.path.join(TMP, recipe)]
        if recipe == "cuda_gpu_kern_pace":
            args += ["--name", "k2"]
        p = gsys(*args, timeout=60)
        if p.returncode not in (0, 2) or p.stderr.count("\n") > 3:
            fail(f"recipe {recipe}: exit {p.returncode}: {p.stderr}")
    print("a kernel from INT64_MIN to INT64_MAX: summary, stats, analyze, export, recipes ended")


N = 600


def case_repeated_correlation():
    def build(r):
        for i in range(N):
            r.kernel(100000 + i * 100, 100040 + i * 100, "kern%d" % (i % 4))  # < its launch
            r.api(99900 + i * 100, 99950 + i * 100, "cudaLaunchKernel")
        return r.nvtx(0, 10**9, "all")
    path = report("corr", build, ["UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET correlationId = 1",
                                  "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET correlationId = 1"])
    p = ok(gsys("stats", "-r", "nvtx_kern_sum", "-f", "csv", path, timeout=300), "nvtx_kern_sum")
    rows = csv_rows(p.stdout, "NVTX Range")
    col = rows[0].index("Kern Inst")
    total = sum(int(r[col]) for r in rows[1:])
    if total != N:
        fail(f"nvtx_kern_sum counts {total} kernel instances, the report holds {N}")
    want = f"{N - 1} CUDA API calls repeat the correlation id"
    if not any(want in w for w in warnings(p)):
        fail(f"no warning about the repeated ids: {p.stderr!r}")
    p = ok(gsys("stats", "-r", "cuda_kern_exec_trace", "-f", "csv", path, timeout=300),
           "cuda_kern_exec_trace")
    traced = len(csv_rows(p.stdout, "API Start (ns)")) - 1
    if traced != N:
        fail(f"cuda_kern_exec_trace has {traced} rows, the report holds {N} kernels")
    p = ok(gsys("analyze", "-r", "launch_bound:min=1:threshold=0", "-f", "csv", path,
                timeout=300), "analyze launch_bound")
    rows = csv_rows(p.stdout, "Short")
    launches = sum(int(r[rows[0].index("Launches")]) for r in rows[1:])
    if launches != N:
        fail(f"launch_bound counts {launches} launches, the report holds {N}")
    print(f"{N} kernels on one repeated correlation id: counted {N}, warned")


def corrupt_free_space(path):
    """Damages the fragmented-bytes count of a StringIds leaf page: quick_check fails, rows read."""
    db = sqlite3.connect(path)
    page_size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with open(path, "r+b") as f:
        data = bytearray(f.read())
        for off in range(page_size, len(data), page_size):
            if data[off] == 0x0D and b"kernel_2" in data[off:off + page_size]:
                f.seek(off + 7)
                f.write(bytes([(data[off + 7] + 5) % 256]))
                return
    fail("no StringIds leaf page found to damage")


def case_damaged_export():
    path = report("damaged", lambda r: [r.kernel(1000 + 10 * i, 1005 + 10 * i, "kernel_%d" % i)
                                         for i in range(3000)] and r)
    corrupt_free_space(path)
    check = sqlite3.connect(path).execute("PRAGMA quick_check").fetchone()[0]
    if check == "ok":
        fail("the damage did not make quick_check fail (test setup)")
    out = os.path.join(TMP, "damaged.sqlite")
    p = gsys("export", "-t", "sqlite", "-o", out, path, timeout=60)
    if p.returncode == 0:
        fail("export -t sqlite of a damaged report exited 0")
    if p.stderr.count("\n") != 1 or "damaged" not in p.stderr:
        fail(f"not one clear line: {p.stderr!r}")
    left = [f for f in os.listdir(TMP) if f.startswith("damaged.sqlite")]
    if left:
        fail(f"export left output behind: {left}")
    print("export -t sqlite of a damaged report: one line, exit", p.returncode, ", no output")


def sound(r):
    for i in range(5):
        r.kernel(1000 + i * 100, 1050 + i * 100, "k%d" % i)
        r.api(990 + i * 100, 995 + i * 100, "cudaLaunchKernel")
    return r.nvtx(900, 2000, "outer")


def run_every_verb(path, tag):
    """stderr warning lines of stats, analyze, summary, recipe and export on `path`, per verb."""
    out = {}
    out["stats"] = ok(gsys("stats", "-r", "cuda_gpu_kern_sum,nvtx_sum", path), "stats")
    out["analyze"] = ok(gsys("analyze", path), "analyze")
    out["summary"] = ok(gsys("summary", "-o", os.path.join(TMP, tag + ".html"), path), "summary")
    out["recipe"] = ok(gsys("recipe", "cuda_gpu_kern_sum", "--input", path, "--output",
                            os.path.join(TMP, tag + "_recipe")), "recipe")
    out["export"] = ok(gsys("export", "-t", "csv", "-o", os.path.join(TMP, tag + "_csv"), path),
                       "export")
    return {verb: warnings(p) for verb, p in out.items()}


def case_data_warnings():
    clean = run_every_verb(report("sound", sound), "sound")
    for verb, lines in clean.items():
        if lines:
            fail(f"{verb} warns about a sound report: {lines}")
    path = report("hostile", sound, [
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 7 WHERE rowid <= 3",
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 999, shortName = 999 WHERE rowid = 5",
        "UPDATE NVTX_EVENTS SET end = start - 1"])
    want = ["gsys: warning: report 'hostile.gsys-rep': 3 kernels end before they start "
            "(shown as they are)",
            "gsys: warning: report 'hostile.gsys-rep': 1 kernel names a string id that StringIds "
            "lacks (shown with an empty or [unknown string ID] name)",
            "gsys: warning: report 'hostile.gsys-rep': 1 NVTX event ends before it starts "
            "(shown as it is)"]
    for verb, lines in run_every_verb("hostile.gsys-rep", "hostile").items():
        if lines != want:
            fail(f"{verb} warned {lines}, want {want}")
    p = ok(gsys("stats", "-r", "cuda_gpu_kern_sum", "-f", "csv", "hostile.gsys-rep"), "stats")
    rows = csv_rows(p.stdout, "Time (%)")
    if str(-7) not in [r[rows[0].index("Min (ns)")] for r in rows[1:]]:
        fail(f"the negative durations are not shown as they are: {rows}")
    # Byte counts below 0 were summed into the memory reports' sizes as data, without a word.
    sizes = report("sizes", sound, [
        "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId, streamId, "
        "correlationId, globalPid, bytes, copyKind) VALUES "
        "(10, 20, 0, 1, 7, 900, 100 << 24, -1, 1),"
        " (30, 40, 0, 1, 7, 901, 100 << 24, -9223372036854775807 - 1, 1),"
        " (50, 60, 0, 1, 7, 902, 100 << 24, 64, 1)"])
    got = warnings(ok(gsys("stats", "-r", "cuda_gpu_mem_size_sum", sizes), "stats on sizes"))
    want_sizes = [f"gsys: warning: report '{sizes}': 2 memory copies have a negative size "
                  "(shown as they are)"]
    if got != want_sizes:
        fail(f"stats on negative memory copy sizes warned {got}, want {want_sizes}")
    # StringIds with a hole (ids not dense: the check looks each id up instead of testing the
    # range): an id in the hole is missing, one past it is not.
    holes = report("holes", sound, [
        "INSERT INTO StringIds(id, value) VALUES (1000000, 'far')",
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 500000 WHERE rowid = 5",
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET demangledName = 1000000 WHERE rowid = 6"])
    got = warnings(ok(gsys("stats", "-r", "cuda_gpu_kern_sum", holes), "stats on holes"))
    if got != [want[1].replace("hostile.gsys-rep", holes)]:
        fail(f"stats on a report with StringIds holes warned {got}, want {want[1]!r}")
    # The summary page shows the same lines in its banner (escaped), the sound page none.
    page = open(os.path.join(TMP, "hostile.html"), encoding="utf-8").read()
    banner = page.split('<section class="warnings"', 1)
    if len(banner) != 2 or "3 kernels end before they start" not in banner[1].split("</section>")[0]:
        fail("the hostile report's summary page has no data-warnings banner")
    if 'class="warnings"' in open(os.path.join(TMP, "sound.html"), encoding="utf-8").read():
        fail("the sound report's summary page has a data-warnings banner")
    recipe_page = open(os.path.join(TMP, "hostile_recipe", "cuda_gpu_kern_sum.html"),
                       encoding="utf-8").read()
    if "NVTX event ends before it starts" not in recipe_page.split('class="warnings"', 1)[-1]:
        fail("the hostile report's recipe page has no data-warnings banner")
    # nsys's notes about its own capture (DIAGNOSTIC_EVENT of an nsys export): errors and the
    # warnings that say data was not collected, each text once, one line, in nsys's order;
    # not its informational rows nor its other warnings.
    notes = report("nsys_notes", sound, [
        "CREATE TABLE DIAGNOSTIC_EVENT (timestamp INTEGER, timestampType INTEGER, source INTEGER,"
        " severity INTEGER, text TEXT NOT NULL, globalPid INTEGER)",
        "INSERT INTO DIAGNOSTIC_EVENT VALUES (1, 0, 1, 1, 'Profiling has started.', 0),"
        " (2, 0, 3, 2, 'No NVTX events collected. Does the process use NVTX?', 0),"
        " (3, 0, 2, 2, 'Unable to collect CPU samples.' || char(10) || 'Try  this.', 0),"
        " (4, 0, 1, 3, 'CUPTI error ' || char(27) || '[31m7.', 0),"
        " (5, 0, 1, 3, 'CUPTI error ' || char(27) || '[31m7.', 0)"])
    want_notes = ["gsys: warning: report 'nsys_notes.gsys-rep': nsys noted about its capture: "
                  "Unable to collect CPU samples. Try this",
                  "gsys: warning: report 'nsys_notes.gsys-rep': nsys noted about its capture: "
                  "CUPTI error \\e[31m7"]
    for verb, lines in run_every_verb("nsys_notes.gsys-rep", "nsys_notes").items():
        if lines != want_notes:
            fail(f"{verb} on nsys's notes warned {lines}, want {want_notes}")
    # A DIAGNOSTIC_EVENT that cannot be read (a view without its columns) hides nothing else.
    broken = report("broken_notes", sound, [
        "CREATE VIEW DIAGNOSTIC_EVENT AS SELECT 1 AS x",
        "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 7 WHERE rowid = 1"])
    got = warnings(ok(gsys("stats", "-r", "cuda_gpu_kern_sum", broken), "stats on broken notes"))
    if len(got) != 1 or "1 kernel ends before it starts" not in got[0]:
        fail(f"an unreadable DIAGNOSTIC_EVENT changed the other warnings: {got}")
    print("data warnings: one line per kind in every verb and in the summary page's banner, "
          "nsys's notes on its capture included, none for a sound report")


def case_untimed_rows():
    path = report("untimed", lambda r: sound(r).nvtx(1500, None, "mark", kind=synth_report.MARK), [
        "PRAGMA writable_schema = ON",
        "UPDATE sqlite_master SET sql = replace(sql, 'NOT NULL', '') WHERE type = 'table'"])
    db = sqlite3.connect(path)
    for sql in ("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = NULL WHERE rowid = 1",
                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = 'soon' WHERE rowid = 2",
                "UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET start = 1e300 WHERE rowid = 3",
                "UPDATE CUPTI_ACTIVITY_KIND_RUNTIME SET end = NULL WHERE rowid = 1",
                "UPDATE NVTX_EVENTS SET start = NULL WHERE text = 'outer'"):
        db.execute(sql)
    db.commit()
    db.close()
    tail = "a start or end that is missing or not an integer (shown as {})"
    want = ["gsys: warning: report 'untimed.gsys-rep': 3 kernels have " + tail.format("they are"),
            "gsys: warning: report 'untimed.gsys-rep': 1 CUDA API call has " + tail.format("it is"),
            "gsys: warning: report 'untimed.gsys-rep': 1 NVTX event has " + tail.format("it is")]
    for verb, lines in run_every_verb("untimed.gsys-rep", "untimed").items():
        extra = [line for line in lines if "missing or not an integer" not in line]
        lines = [line for line in lines if line not in extra]
        if lines != want:
            fail(f"{verb} warned {lines}, want {want}")
    print("rows without integer times: one warning line per table in every verb")


NAMES = ['=HYPERLINK("http://x","y")', "+cmd", "-2+3+cmd|' /C calc'!A0", "@SUM(A1)", "-5", "plain"]


def case_csv_formulas():
    def build(r):
        for i, name in enumerate(NAMES):
            r.kernel(1000 + i * 100, 1050 + i * 100, name)
        return r
    path = report("formulas", build, ["UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET end = start - 5 "
                                      "WHERE rowid = 6"])
    safe = {n: ("'" + n if n[0] in "=+-@" and n != "-5" else n) for n in NAMES}
    for fmt, expect in (("csv", safe), ("csv:raw", {n: n for n in NAMES})):
        p = ok(gsys("stats", "-r", "cuda_gpu_kern_sum", "-f", fmt, path), "stats -f " + fmt)
        rows = csv_rows(p.stdout, "Time (%)")
        names = sorted(r[rows[0].index("Name")] for r in rows[1:])
        if names != sorted(expect.values()):
            fail(f"-f {fmt}: names {names}, want {sorted(expect.values())}")
        mins = [r[rows[0].index("Min (ns)")] for r in rows[1:]]
        if "-5" not in mins:
            fail(f"-f {fmt}: the numeric cell -5 changed: {mins}")
    for flags, expect in (([], safe), (["--csv-raw"], {n: n for n in NAMES})):
        out = os.path.join(TMP, "formulas_csv" + "".join(flags))
        ok(gsys("export", "-t", "csv", "-o", out, *flags, path), "export -t csv " + " ".join(flags))
        with open(os.path.join(out, "StringIds.csv"), newline="") as f:
            values = [row[1] for row in list(csv.reader(f))[1:]]
        if sorted(values) != sorted(expect.values()):
            fail(f"export {flags}: StringIds values {values}, want {sorted(expect.values())}")
        with open(os.path.join(out, "CUPTI_ACTIVITY_KIND_KERNEL.csv"), newline="") as f:
            rows = list(csv.reader(f))
        if any(cell.startswith("'") for row in rows for cell in row):
            fail(f"export {flags}: an integer cell was prefixed")
    for fmt, expect in (("tsv", safe), ("tsv:raw", {n: n for n in NAMES})):
        p = ok(gsys("stats", "-r", "cuda_gpu_kern_sum", "-f", fmt, path), "stats -f " + fmt)
        lines = p.stdout.splitlines()
        head = next(i for i, line in enumerate(lines) if line.startswith("Time (%)\t"))
        rows = [line.split("\t") for line in lines[head:] if "\t" in line]
        names = sorted(r[rows[0].index("Name")] for r in rows[1:])
        if names != sorted(expect.values()):
            fail(f"-f {fmt}: names {names}, want {sorted(expect.values())}")
    # The recipe leaves out kernels that end before they start, so it reads a report without one.
    sound = report("formulas_sound", build)
    for flags, expect in (([], safe), (["--csv-raw"], {n: n for n in NAMES})):
        out = os.path.join(TMP, "formulas_recipe" + "".join(flags))
        ok(gsys("recipe", "cuda_gpu_kern_sum", "-q", "--output", out, *flags, sound),
           "recipe " + " ".join(flags))
        with open(os.path.join(out, "all_stats.csv"), newline="") as f:
            rows = list(csv.reader(f))
        names = sorted(r[rows[0].index("Name")] for r in rows[1:])
        if names != sorted(expect.values()):
            fail(f"recipe {flags}: names {names}, want {sorted(expect.values())}")
        if any(cell.startswith("'") for r in rows[1:] for cell in r[1:]):
            fail(f"recipe {flags}: a numeric cell was prefixed: {rows}")
    # diff reads a neutralised output as the names it holds: against the raw output every
    # kernel is the same, none added or removed.
    out = os.path.join(TMP, "formulas_diff")
    ok(gsys("recipe", "diff", "-q", "--output", out, os.path.join(TMP, "formulas_recipe"),
            os.path.join(TMP, "formulas_recipe--csv-raw")), "recipe diff")
    with open(os.path.join(out, "diff.csv"), newline="") as f:
        rows = list(csv.reader(f))
    status = sorted((r[rows[0].index("Name")], r[rows[0].index("Status")]) for r in rows[1:])
    if status != sorted((n, "same") for n in safe.values()):
        fail(f"recipe diff of neutralised vs raw output: {status}")
    print("csv/tsv: formula-like names prefixed with ', numbers unchanged, raw modes as they are,"
          " recipe diff reads them back")


def case_diff_special_files():
    def build(r):
        r.kernel(1000, 1050, "k")
        return r
    path = report("diffsrc", build)
    good = os.path.join(TMP, "good")
    ok(gsys("recipe", "cuda_gpu_kern_sum", "-q", "--output", good, path), "recipe")
    for name in ("files.csv", "all_stats.csv"):
        for kind in ("fifo", "zero", "dir"):
            bad = os.path.join(TMP, f"bad_{kind}_{name}")
            subprocess.run(["cp", "-r", good, bad], check=True)
            target = os.path.join(bad, name)
            os.unlink(target)
            {"fifo": os.mkfifo, "dir": os.mkdir,
             "zero": lambda t: os.symlink("/dev/zero", t)}[kind](target)
            out = os.path.join(TMP, f"out_{kind}_{name}")
            p = gsys("recipe", "diff", "-q", "--output", out, good, bad, timeout=60)
            lines = [line for line in p.stderr.splitlines() if line.strip()]
            if p.returncode == 0 or len(lines) != 1 or "not a regular file" not in p.stderr \
                    or name not in p.stderr or os.path.exists(out):
                fail(f"diff with {kind} {name}: {p.returncode} {p.stderr!r}")
    linked = os.path.join(TMP, "linked")
    subprocess.run(["cp", "-r", good, linked], check=True)
    os.rename(os.path.join(linked, "all_stats.csv"), os.path.join(TMP, "real.csv"))
    os.symlink(os.path.join(TMP, "real.csv"), os.path.join(linked, "all_stats.csv"))
    ok(gsys("recipe", "diff", "-q", "--output", os.path.join(TMP, "out_linked"), good, linked),
       "recipe diff through a link to a real file")
    print("recipe diff: FIFO, /dev/zero and directory files refused with one line; links read")


def case_swapped_report():
    def build(r):
        r.kernel(1000, 1050, "k")
        return r
    real = report("swapsrc", build)
    name = os.path.join(TMP, "swapped.gsys-rep")
    flipper = os.fork()
    if flipper == 0:
        try:
            while True:
                os.link(real, name + ".r")
                os.mkfifo(name + ".f")
                os.rename(name + ".r", name)
                os.rename(name + ".f", name)
        finally:
            os._exit(0)
    seen = set()
    try:
        for _ in range(60):
            p = gsys("stats", "-r", "cuda_gpu_kern_sum", name, timeout=60)
            seen.add(p.returncode)
            if p.returncode != 0 and "not a regular file" not in p.stderr \
                    and "cannot be opened" not in p.stderr:
                fail(f"stats on a flipping name: {p.returncode} {p.stderr!r}")
    finally:
        os.kill(flipper, 9)
        os.waitpid(flipper, 0)
    print(f"60 stats runs on a name flipping between a report and a FIFO ended (exit codes "
          f"{sorted(seen)})")


def case_schema_statements():
    victim = os.path.join(TMP, "victim.db")
    db = sqlite3.connect(victim)
    db.execute("CREATE TABLE precious (x)")
    db.execute("INSERT INTO precious VALUES ('keep me')")
    db.commit()
    db.close()
    path = report("schema", sound)
    out = os.path.join(TMP, "schema.sqlite")
    ok(gsys("export", "-t", "sqlite", "-o", out, path), "export -t sqlite of a sound report")
    os.unlink(out)
    db = sqlite3.connect(path)
    (sql,) = db.execute("SELECT sql FROM sqlite_master WHERE name = 'StringIds'").fetchone()
    evil = (sql + f"; COMMIT; ATTACH DATABASE '{victim}' AS e; DROP TABLE e.precious; "
            "CREATE TABLE e.owned (x); DETACH DATABASE e; BEGIN")
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = ? WHERE name = 'StringIds'", (evil,))
    db.commit()
    db.close()
    if sqlite3.connect(path).execute("PRAGMA quick_check").fetchone()[0] != "ok":
        fail("the crafted report does not pass quick_check (test setup)")
    p = gsys("export", "-t", "sqlite", "-o", out, path, timeout=60)
    tables = sorted(r[0] for r in sqlite3.connect(victim).execute(
        "SELECT name FROM sqlite_master"))
    if tables != ["precious"]:
        fail(f"export ran the report's statements: the other database now holds {tables}")
    if p.returncode == 0 or p.stderr.count("\n") != 1 or "more than one statement" not in p.stderr:
        fail(f"expected one line refusing the schema, got {p.returncode}: {p.stderr!r}")
    left = [f for f in os.listdir(TMP) if f.startswith("schema.sqlite")]
    if left:
        fail(f"export left output behind: {left}")
    print("export -t sqlite: a report's extra schema statements refused, unrun")


def case_computed_columns():
    path = report("computed", sound, [
        "ALTER TABLE StringIds RENAME TO StringIdsStored",
        "CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT GENERATED ALWAYS AS "
        "(printf('%.*c', 20000000, 'x')) VIRTUAL)",
        "INSERT INTO StringIds (id) SELECT id FROM StringIdsStored",
        "DROP TABLE StringIdsStored"])
    runs = {"stats": ["stats", "-r", "cuda_gpu_kern_sum", path], "analyze": ["analyze", path],
            "summary": ["summary", "-o", os.path.join(TMP, "computed.html"), path],
            "recipe": ["recipe", "cuda_gpu_kern_sum", "--input", path, "--output",
                       os.path.join(TMP, "computed_recipe")]}
    for t in ("csv", "jsonlines", "chrome", "perfetto", "sqlite"):
        runs["export -t " + t] = ["export", "-t", t, "-o", os.path.join(TMP, "computed." + t),
                                  path]
    for what, args in runs.items():
        p = gsys(*args, timeout=300)
        lines = [line for line in p.stderr.splitlines() if line.strip()]
        if (p.returncode == 0 or len(lines) != 1
                or "computed column ('StringIds.value')" not in p.stderr):
            fail(f"{what}: expected a one-line refusal, got {p.returncode}: {p.stderr[:500]!r}")
    left = sorted(f for f in os.listdir(TMP) if f.startswith("computed") and f != "computed.gsys-rep")
    if left:
        fail(f"outputs written for a refused report: {left}")
    print(f"a computed StringIds column: {len(runs)} verbs refuse it in one line")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("case")
    ARGS = ap.parse_args()
    ARGS.build = os.path.abspath(ARGS.build)
    with tempfile.TemporaryDirectory(prefix="gsys-hostile-reports-") as tmp:
        TMP = tmp
        fn = globals().get("case_" + ARGS.case)
        if fn is None:
            fail(f"unknown case {ARGS.case}")
        fn()


if __name__ == "__main__":
    main()
