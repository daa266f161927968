#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""NVTX never-harm tests (docs/nvtx.md): gsys_test_nvtx_invalid calls every NVTX entry point
with NULL, invalid and oversized arguments, and registers 200 000 names. Each case runs the
program bare and under `gsys profile -t nvtx,osrt`, asserts the same exit code (0), stdout and
stderr (without gsys's lines), then checks what the report says about the calls.

usage: nvtx_invalid.py --build BUILD_DIR CASE
  invalid_args             every entry point with NULL/invalid arguments
  long_strings             strings over the 4096-byte cap: cut between UTF-8 characters, counted
  domains_200k             200 000 distinct domains, each created again (same handle)
  strings_categories_200k  100 000 registered strings (each twice) + 100 000 category names"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile
import time

ARGS = None
TMP = None
CAP = 4096


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def eq(actual, expected, what):
    if actual != expected:
        fail(f"{what}: got {actual!r}, expected {expected!r}")


def gsys():
    return os.path.join(ARGS.build, "bin", "gsys")


def prog():
    return os.path.join(ARGS.build, "tests", "reliability", "gsys_test_nvtx_invalid")


def strip_gsys(err):
    return "".join(l for l in err.splitlines(True) if not l.startswith("gsys"))


def run_both(*args, timeout=250):
    """Runs the program bare and under gsys; asserts P1 (exit code 0, same output) and returns
    the report path and the stdout."""
    cmd = [prog()] + list(args)
    t0 = time.monotonic()
    bare = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    t1 = time.monotonic()
    out = os.path.join(TMP, "r")
    p = subprocess.run([gsys(), "profile", "-t", "nvtx,osrt", "-o", out] + cmd,
                       capture_output=True, text=True, timeout=timeout)
    t2 = time.monotonic()
    print(f"{' '.join(args)}: bare {t1 - t0:.2f} s, under gsys {t2 - t1:.2f} s (not asserted)")
    eq(bare.returncode, 0, f"bare exit code (stderr: {bare.stderr})")
    eq(p.returncode, 0, f"exit code under gsys (stderr: {p.stderr})")
    eq(p.stdout, bare.stdout, "stdout under gsys")
    eq(strip_gsys(p.stderr), strip_gsys(bare.stderr), "stderr without gsys's lines")
    report = out + ".gsys-rep"
    if not os.path.exists(report):
        fail(f"no report ({p.stderr})")
    eq(one(report, "PRAGMA integrity_check"), "ok", "report integrity")
    s = subprocess.run([gsys(), "stats", "-r", "nvtx_sum", report], capture_output=True,
                       text=True)
    eq(s.returncode, 0, f"gsys stats on the report ({s.stderr})")
    return report, bare.stdout


def q(report, sql, raw=False):
    with sqlite3.connect(f"file:{report}?mode=ro", uri=True) as db:
        if raw:
            db.text_factory = bytes
        return db.execute(sql).fetchall()


def one(report, sql):
    rows = q(report, sql)
    return rows[0][0] if rows else None


def diag(report, name):
    return one(report, f"SELECT value FROM GSYS_DIAGNOSTICS WHERE name = '{name}'") or 0


NAME = "coalesce(text, (SELECT value FROM StringIds WHERE id = textId))"


# --- invalid_args ----------------------------------------------------------------------------

def case_invalid_args():
    r, stdout = run_both("invalid")
    groups = [l[:-3] for l in stdout.splitlines() if l.endswith(" ok")]
    eq(len(groups), 12, f"groups the program got through ({stdout!r})")
    # Each group is followed by one valid range "after:GROUP": capture kept working.
    bounds = {}
    for g in groups:
        rows = q(r, f"SELECT start FROM NVTX_EVENTS WHERE eventType = 59 AND text = 'after:{g}'")
        eq(len(rows), 1, f"sentinel range after group {g}")
        bounds[g] = rows[0][0]

    def between(g_before, g, where):
        lo = bounds[g_before] if g_before else 0
        return one(r, f"SELECT count(*) FROM NVTX_EVENTS WHERE start > {lo} AND "
                      f"start < {bounds[g]} AND {where}")

    # NULL messages: unnamed events; both pushes counted as pushes (their pops matched).
    for etype, what in ((34, "marks"), (60, "start/end ranges"), (59, "push/pop ranges")):
        eq(between("initialize", "null_messages", f"eventType = {etype} AND text IS NULL AND "
                   "textId IS NULL"), 2, f"unnamed {what} from NULL messages")
    # Pops of nothing and ends of ids never returned record nothing.
    eq(between("null_messages", "unmatched", "1"), 0, "events from unmatched pops/ends")
    eq(diag(r, "nvtx_unmatched_pops"), 0, "nvtx_unmatched_pops")
    eq(diag(r, "nvtx_unmatched_range_ends"), 0, "nvtx_unmatched_range_ends")
    # Bogus domain handles are the default domain; NULL names record nothing.
    eq(between("null_names", "domains", "text = 'bogus domain' AND domainId = 0"), 4 * 6,
       "events on bogus domain handles, in the default domain")
    eq(between("null_names", "domains", "text = 'bogus domain' AND domainId != 0"), 0,
       "events on bogus domain handles elsewhere")
    eq(between("null_names", "domains", "eventType = 33"), 1,
       "category rows (NULL names none, the same name once)")
    eq(one(r, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 33 AND text IS NULL"), 0,
       "unnamed categories")
    # NULL attributes: 2 x 6 unnamed events.
    eq(between("domains", "null_attributes", "text IS NULL AND textId IS NULL"), 12,
       "unnamed events from NULL attributes")
    # Unknown/NULL message types: unnamed; unknown color and payload types: none recorded.
    eq(between("null_attributes", "message_types", "text IS NULL AND textId IS NULL"), 8 * 6,
       "unnamed events from NULL messages and unknown message types")
    eq(between("null_attributes", "message_types",
               "text = 'weird types' AND color IS NULL AND uint64Value IS NULL AND "
               "int64Value IS NULL AND doubleValue IS NULL"), 12,
       "events with unknown color/payload types (no color, no payload)")
    # Registered handles never returned: unnamed, and not "unknown registered strings".
    eq(between("message_types", "registered_handles", "text IS NULL AND textId IS NULL"), 5 * 6,
       "unnamed events from bogus registered handles")
    eq(diag(r, "nvtx_unknown_registered_strings"), 0, "nvtx_unknown_registered_strings")
    # `size` is respected: a struct too short for the message is unnamed (and was not read
    # past its end, which would have crashed); odd versions with a full size are named.
    eq(between("registered_handles", "sizes_versions", "text = 'short struct'"), 0,
       "named events from structs too short for their message")
    eq(between("registered_handles", "sizes_versions", "text IS NULL AND textId IS NULL"),
       9 * 6, "unnamed events from short structs")
    eq(between("registered_handles", "sizes_versions", "text = 'odd version'"), 10 * 6,
       "events with odd versions")
    # Wide code points that are no characters become U+FFFD.
    odd = "a" + "\ufffd" * 5 + "z"
    eq(between("sizes_versions", "wide", f"eventType IN (34, 59, 60) AND {NAME} = '{odd}'"),
       1 + 1 + 6,
       "wide messages with U+FFFD for non-characters")
    eq(one(r, f"SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75 AND text = '{odd}'"), 1,
       "the wide-named domain")
    eq(one(r, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75"), 3,
       "domains (gsys.invalid, the wide name, the empty name)")
    eq(one(r, "SELECT count(*) FROM GSYS_DIAGNOSTICS WHERE severity != 'info'"), 0,
       "data-loss diagnostics")


# --- long_strings ----------------------------------------------------------------------------

def case_long_strings():
    r, _ = run_both("long")

    def texts(where):
        rows = q(r, f"SELECT {NAME} FROM NVTX_EVENTS WHERE {where}", raw=True)
        out = []
        for (t,) in rows:
            try:
                t.decode("utf-8")
            except UnicodeDecodeError as e:
                fail(f"invalid UTF-8 in the report ({where}): {e}")
            out.append(t)
        return out

    def expect(where, prefix_len, fill, what):
        rows = texts(where)
        eq(len(rows), 1, f"{what}: rows")
        eq(len(rows[0]), prefix_len, f"{what}: bytes kept (cap {CAP})")
        eq(rows[0], fill * prefix_len, f"{what}: text")

    e = "\u00e9".encode()
    expect("eventType = 59 AND text LIKE 'a%'", 4095, b"a", "push, 2-byte char across the cap")
    expect("eventType = 60", 4094, b"b", "start/end, 3-byte char across the cap")
    expect("eventType = 34", 4093, b"c", "mark, 4-byte char across the cap")
    rows = texts("eventType = 59 AND text LIKE 'd%'")
    eq(rows, [b"d" * 4094 + e], "a string of exactly the cap, kept whole")
    expect("eventType = 75", 4095, b"a", "domain name")
    expect("eventType = 33", 4093, b"c", "category name")
    rows = texts("eventType = 59 AND textId IS NOT NULL")
    eq([len(t) for t in rows], [4094], "registered string")
    rows = texts(f"eventType = 59 AND text LIKE '{chr(0xe9)}%'")
    eq(rows, [e * (CAP // 2)], "wide string (U+00E9 x 5000)")
    names = q(r, "SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId",
              raw=True)
    eq([len(n) for (n,) in names if n.startswith(b"aaaa")], [4095], "thread name")
    # 8 strings were cut; the domain created a second time is not recorded again.
    eq(diag(r, "nvtx_strings_truncated"), 8, "nvtx_strings_truncated")
    eq(one(r, "SELECT severity FROM GSYS_DIAGNOSTICS WHERE name = 'nvtx_strings_truncated'"),
       "data_loss", "severity of nvtx_strings_truncated")


# --- registry scale --------------------------------------------------------------------------

def case_domains_200k():
    n = 200_000
    r, stdout = run_both("domains", str(n))
    eq(stdout, f"domains {n}: same handle {n}, same in the second module 201 of 201\n",
       "program output (bare: NULL handles, trivially equal)")
    eq(one(r, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 75"), n, "domain rows")
    eq(one(r, "SELECT count(DISTINCT domainId) FROM NVTX_EVENTS WHERE eventType = 75"), n,
       "distinct domain ids")
    last = one(r, "SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'd199999'")
    eq(one(r, "SELECT domainId FROM NVTX_EVENTS WHERE eventType = 59 AND "
              "text = 'in the last domain'"), last, "the range's domain")


def case_strings_categories_200k():
    n = 100_000
    r, stdout = run_both("strings", str(n))
    eq(stdout, f"strings {n}: same handle {n}, second module same\n", "program output")
    eq(one(r, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 33"), n, "category rows")
    eq(one(r, "SELECT count(*) FROM StringIds WHERE value LIKE 's0%'"), n,
       "registered strings (each once)")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("case")
    ARGS = ap.parse_args()
    fn = globals().get("case_" + ARGS.case)
    if fn is None:
        fail(f"unknown case {ARGS.case}")
    with tempfile.TemporaryDirectory(prefix="gsys_nvtx_") as tmp:
        TMP = tmp
        fn()
    print("PASS")


if __name__ == "__main__":
    main()
