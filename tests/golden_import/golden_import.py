#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Golden tier for gsys's own import (issue 21 item 6): `gsys import` of the committed raw
session (session/: progs/golden_workload.cc under `gsys profile -t nvtx,osrt`, written by
make_session.sh) is dumped table by table and compared with expected.txt. A change in what the
importer writes (a row, a value, a column, a table, an index) shows as a diff of that file:

  golden_import.py --gsys BIN --session DIR --expected FILE --format-header record.h [--update]

The dump holds every table of the report, empty ones included, with its declared columns, and
every row, sorted (the importer's insertion order is not part of the contract), values as
`column=value` with NULLs left out. Everything in a gsys report is a function of the session
directory except the values listed in VOLATILE, which describe the machine and the moment of the
import; they are replaced by a placeholder naming why, so the row itself is still checked.

Also checked, besides the dump:
- the session's streams are in the raw format version this gsys writes (kFormatVersion in
  src/format/record.h): when the format moves on, the session is regenerated, so this tier always
  covers the current writer (the old session can stay as a fixture of the old version);
- the dump is sensitive to what it must catch: a dropped NVTX range, a wrong end time, a lost
  thread name, each made on a copy of the report, change it.
"""
import argparse
import datetime
import difflib
import json
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import unittest

ARGS = None
REPORT = "golden.gsys-rep"  # the -o name: EXPORT_PARAM_OUTPUT_FILE holds it

# Values the import takes from the machine that runs it or from its clock, not from the session
# (the capture machine's cores, OS, kernel and time zone come from session.meta,
# format/host_facts.h, and are compared as they are):
# (table, column, row filter as (column, value) or None for every row) -> why. Each is replaced
# by "<volatile: why>"; test_import_is_repeatable imports again under another time zone.
VOLATILE = {
    ("META_DATA_EXPORT", "value", ("name", "EXPORT_TIME_UTC")): "the time of the import",
    ("META_DATA_EXPORT", "value", ("name", "EXPORT_PARAM_OUTPUT_PATH_ABS")):
        "the report's absolute path (a temporary folder)",
    ("META_DATA_EXPORT", "value", ("name", "EXPORT_ARCH")): "uname of the importing machine",
}


def fail(msg):
    print("golden_import: " + msg)
    sys.exit(1)


def import_session(session, out, env=None):
    proc = subprocess.run([ARGS.gsys, "import", session, "-o", out], capture_output=True,
                          text=True, timeout=120, env=env)
    if proc.returncode != 0 or not os.path.exists(out):
        fail("gsys import %s exited %d: %s" % (session, proc.returncode, proc.stderr.strip()))
    return proc


def value_text(v):
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, bytes):
        return "x'%s'" % v.hex()
    if isinstance(v, float):
        return repr(v)
    return str(v)


def sort_key(row):
    # NULL < numbers < text < blobs, as SQLite orders them; a total order for mixed columns.
    rank = {type(None): 0, int: 1, float: 1, str: 2, bytes: 3}
    return [(rank[type(v)], v if v is not None else 0) for v in row]


def dump(path):
    """The report as text lines (module docstring)."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    lines = ["user_version %d" % db.execute("PRAGMA user_version").fetchone()[0]]
    objects = db.execute("SELECT type, name, tbl_name, sql FROM sqlite_master "
                         "WHERE name NOT LIKE 'sqlite_%' ORDER BY type, name").fetchall()
    for kind, name, table, sql in objects:
        if kind in ("index", "view", "trigger"):
            lines.append("%s %s on %s: %s" % (kind, name, table, " ".join((sql or "").split())))
    for kind, table, _, _ in objects:
        if kind != "table":
            continue
        cols = db.execute("PRAGMA table_info(\"%s\")" % table).fetchall()
        names = [c[1] for c in cols]
        rows = db.execute("SELECT * FROM \"%s\"" % table).fetchall()
        lines.append("")
        lines.append("table %s: %d rows; %s" % (table, len(rows), ", ".join(
            "%s %s%s" % (c[1], c[2], " NOT NULL" if c[3] else "") for c in cols)))
        out = []
        for row in sorted(rows, key=sort_key):
            row = list(row)
            for (t, col, where), why in VOLATILE.items():
                if t == table and (where is None or row[names.index(where[0])] == where[1]):
                    row[names.index(col)] = "<volatile: %s>" % why
            out.append("  " + " ".join("%s=%s" % (n, value_text(v))
                                       for n, v in zip(names, row) if v is not None))
        lines += out
    db.close()
    return "\n".join(lines) + "\n"


def chunk_versions(session):
    """The format_version of every chunk header of every stream (format/chunk.h: u32 magic,
    u16 format_version, u16 header_size, ..., u32 payload_size at offset 32)."""
    versions = {}
    for name in sorted(os.listdir(session)):
        if not name.endswith(".gsysraw"):
            continue
        with open(os.path.join(session, name), "rb") as f:
            data = f.read()
        pos, seen = 0, set()
        while pos + 48 <= len(data):
            _, version, header_size = struct.unpack_from("<IHH", data, pos)
            payload = struct.unpack_from("<I", data, pos + 32)[0]
            seen.add(version)
            pos += header_size + payload
        versions[name] = seen
    return versions


class GoldenImport(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="gsys-golden-import-")
        # Import a copy: the importer must not need to write into the committed folder, and a
        # stray file it might leave there would otherwise end up in the repository.
        cls.session = os.path.join(cls.tmp, "golden.gsys-session")
        shutil.copytree(ARGS.session, cls.session)
        cls.report = os.path.join(cls.tmp, REPORT)
        import_session(cls.session, cls.report)
        cls.got = dump(cls.report)
        with open(ARGS.expected, encoding="utf-8") as f:
            cls.want = f.read()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def test_dump_matches_expected(self):
        if self.got != self.want:
            diff = "".join(difflib.unified_diff(
                self.want.splitlines(True), self.got.splitlines(True), "expected.txt",
                "gsys import", n=1))
            self.fail("the import differs from %s (after a deliberate change: "
                      "golden_import.py ... --update, then review the diff):\n%s"
                      % (ARGS.expected, diff))

    def test_import_is_repeatable(self):
        # A second import of the same session, later, into another folder and in another time
        # zone, dumps the same: VOLATILE lists every value that depends on when or where the
        # import ran.
        again = os.path.join(self.tmp, "again", REPORT)
        os.makedirs(os.path.dirname(again))
        import_session(self.session, again, env=dict(os.environ, TZ="UTC-14"))
        self.assertEqual(dump(again), self.got)

    def test_capture_machine_facts_come_from_the_session(self):
        # The committed session ran in a time zone 5 h 30 min east of UTC (make_session.sh) on
        # the machine its session.meta names: the report says so, wherever the import runs.
        meta = {}
        with open(os.path.join(ARGS.session, "session.meta"), encoding="utf-8") as f:
            for line in f.read().splitlines():
                k, _, v = line.partition("=")
                meta[k] = v
        self.assertEqual(meta.get("host_utc_offset_s"), "19800")
        db = sqlite3.connect(self.report)
        utc, local = db.execute(
            "SELECT utcTime, localTime FROM TARGET_INFO_SESSION_START_TIME").fetchone()
        env = dict(db.execute("SELECT name, value FROM TARGET_INFO_SYSTEM_ENV"))
        db.close()
        parse = lambda t: datetime.datetime.strptime(t, "%Y-%m-%dT%H:%M:%S")  # noqa: E731
        self.assertEqual((parse(local) - parse(utc)).total_seconds(), 19800)
        self.assertEqual(env["CpuCores"], meta["host_cpu_cores"])
        self.assertEqual(env["CpuArchitecture"], meta["host_cpu_architecture"])
        self.assertEqual(env["OsDescription"], meta["host_os_description"])
        self.assertEqual(env["SoftwareReleaseVersion"], meta["host_kernel_release"])

    def test_session_is_current_format(self):
        with open(ARGS.format_header, encoding="utf-8") as f:
            m = re.search(r"kFormatVersion\s*=\s*(\d+)", f.read())
        self.assertIsNotNone(m, "no kFormatVersion in %s" % ARGS.format_header)
        current = int(m.group(1))
        versions = chunk_versions(ARGS.session)
        self.assertGreaterEqual(len(versions), 2, "the session has a stream per process")
        for name, seen in versions.items():
            self.assertEqual(seen, {current},
                             "%s: chunks of format version %s, this gsys writes %d: run "
                             "tests/golden_import/make_session.sh" % (name, seen, current))
        # The importer read them as such (GSYS_META.format_version).
        self.assertIn('name="format_version" value="%d"' % current, self.got)

    def mutated(self, sql):
        path = os.path.join(self.tmp, "mutated.sqlite")
        shutil.copyfile(self.report, path)
        db = sqlite3.connect(path)
        changed = db.execute(sql).rowcount
        db.commit()
        db.close()
        self.assertEqual(changed, 1, sql)
        return dump(path)

    def test_dump_catches_a_dropped_range(self):
        self.assertNotEqual(self.mutated(
            "DELETE FROM NVTX_EVENTS WHERE rowid = (SELECT min(rowid) FROM NVTX_EVENTS "
            "WHERE text = 'in_worker')"), self.got)

    def test_dump_catches_a_wrong_end(self):
        self.assertNotEqual(self.mutated(
            "UPDATE NVTX_EVENTS SET end = end + 1 WHERE text = 'handoff'"), self.got)
        self.assertNotEqual(self.mutated(
            "UPDATE OSRT_API SET end = end - 1 WHERE rowid = (SELECT max(rowid) FROM OSRT_API)"),
            self.got)

    def test_dump_catches_a_lost_thread_name(self):
        self.assertNotEqual(self.mutated(
            "DELETE FROM ThreadNames WHERE nameId = (SELECT id FROM StringIds "
            "WHERE value = 'worker_nvtx')"), self.got)

    def test_expected_holds_the_workload(self):
        # What progs/golden_workload.cc does, spelled out: the expected file is not an echo of
        # whatever the importer printed once.
        for needle in ('text="outer"', 'text="inner"', 'text="handoff"', 'text="in_worker"',
                       'text="child"', 'text="GoldenDomain"', 'text="domain_mark"',
                       'text="unicode_\u00e9"', 'value="worker_nvtx"', 'value="main_nvtx"',
                       'value="pthread_mutex_lock"', 'value="read"', 'value="poll"'):
            self.assertIn(needle, self.want)
        self.assertIn("table PROCESSES: 2 rows", self.want)  # the fork: a second process


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--session", required=True)
    ap.add_argument("--expected", required=True)
    ap.add_argument("--format-header", required=True)
    ap.add_argument("--update", action="store_true",
                    help="rewrite the expected file from this gsys's import")
    ARGS, rest = ap.parse_known_args()
    if ARGS.update:
        tmp = tempfile.mkdtemp(prefix="gsys-golden-import-")
        try:
            session = os.path.join(tmp, "golden.gsys-session")
            shutil.copytree(ARGS.session, session)
            report = os.path.join(tmp, REPORT)
            import_session(session, report)
            with open(ARGS.expected, "w", encoding="utf-8") as f:
                f.write(dump(report))
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
        print("golden_import: wrote %s" % ARGS.expected)
        return 0
    result = unittest.main(argv=[sys.argv[0]] + rest, exit=False).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
