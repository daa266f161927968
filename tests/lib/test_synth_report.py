#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""synth_report (the synthetic-report builder of the Python tiers): each call lands in the
table and columns gsys reads, with gsys's identifiers, and the bulk level interns strings once.
Read back with plain SQL; the expected rows are written out by hand here."""
import os
import shutil
import sqlite3
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import synth_report  # noqa: E402
from synth_report import MS, Report  # noqa: E402

G100 = 100 << 24  # globalPid of pid 100


class SynthReportTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-synth-report-")
        self.path = os.path.join(self.tmp, "r.sqlite")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def query(self, sql):
        db = sqlite3.connect(self.path)
        try:
            return db.execute(sql).fetchall()
        finally:
            db.close()

    def test_kernels_launches_and_names(self):
        r = Report(utc=5)
        r.kernel(10, 20, "k", stream=3).launch(1, 2, 30, 40, "k", pid=200, mangled="_Zk")
        self.assertEqual(r.write(self.path), self.path)
        self.assertEqual(self.query(
            "SELECT k.start, k.end, k.streamId, k.globalPid, s.value, k.mangledName IS NULL "
            "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
            "ORDER BY k.start"),
            [(10, 20, 3, G100, "k", 1), (30, 40, 7, 200 << 24, "k", 0)])
        # The launch call is on the main thread of pid 200 and correlates with its kernel.
        self.assertEqual(self.query(
            "SELECT r.globalTid, s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
            "JOIN CUPTI_ACTIVITY_KIND_KERNEL k USING (correlationId) "
            "JOIN StringIds s ON s.id = r.nameId"),
            [((200 << 24) | 200, "cudaLaunchKernel_v7000")])
        self.assertEqual(self.query("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
                                    "JOIN StringIds s ON s.id = k.mangledName"), [("_Zk",)])
        self.assertEqual(self.query("SELECT count(*), count(DISTINCT value) FROM StringIds"),
                         [(3, 3)])  # "k" once
        self.assertEqual(self.query("SELECT pid, globalPid FROM PROCESSES ORDER BY pid"),
                         [(100, G100), (200, 200 << 24)])
        self.assertEqual(self.query("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"),
                         [(5,)])

    def test_nvtx_threads_domains_and_kinds(self):
        r = Report()
        r.nvtx(0, 10, "a").nvtx(5, None, "b", tid=101, end_tid=102,
                                 kind=synth_report.STARTEND)
        r.nvtx(1, 2, "c", domain="D").nvtx(3, 4, "d", domain="D")
        r.write(self.path)
        self.assertEqual(self.query(
            "SELECT start, end, eventType, text, globalTid - %d, endGlobalTid - %d, domainId "
            "FROM NVTX_EVENTS ORDER BY eventType DESC, start" % (G100, G100)),
            [(0, None, 75, "D", 100, None, 1),  # the domain, created once
             (5, None, 60, "b", 101, 102, 0),
             (0, 10, 59, "a", 100, None, 0), (1, 2, 59, "c", 100, None, 1),
             (3, 4, 59, "d", 100, None, 1)])

    def test_cpu_side_rows(self):
        r = Report()
        r.osrt(1, 2 * MS, "read", tid=101, ret=-1).thread_name("worker", tid=101)
        r.sample(7, [("leaf", "libc.so", 0x10), ("main", "app")], id=9, cpu=2, tid=101)
        r.sched(3, 1, True).sched(4, 1, False, state=2)
        r.library("CUBLAS_EVENTS", 5, 6, "cublasSgemm_v2")
        r.library("MPI_P2P_EVENTS", 7, 8, "MPI_Send", size=64, remoteRank=1)
        r.write(self.path)
        g101 = G100 | 101
        self.assertEqual(self.query(
            "SELECT o.start, o.end, o.eventClass, o.globalTid, s.value, o.returnValue "
            "FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId"),
            [(1, 2 * MS, 27, g101, "read", -1)])
        self.assertEqual(self.query("SELECT s.value, t.globalTid FROM ThreadNames t "
                                    "JOIN StringIds s ON s.id = t.nameId"), [("worker", g101)])
        self.assertEqual(self.query("SELECT id, start, cpu, globalTid FROM COMPOSITE_EVENTS"),
                         [(9, 7, 2, g101)])
        self.assertEqual(self.query(
            "SELECT c.stackDepth, f.value, m.value, c.originalIP FROM SAMPLING_CALLCHAINS c "
            "JOIN StringIds f ON f.id = c.symbol JOIN StringIds m ON m.id = c.module "
            "WHERE c.id = 9 ORDER BY c.stackDepth"),
            [(0, "leaf", "libc.so", 0x10), (1, "main", "app", None)])  # leaf first
        self.assertEqual(self.query("SELECT start, cpu, isSchedIn, globalTid, threadState "
                                    "FROM SCHED_EVENTS ORDER BY start"),
                         [(3, 1, 1, G100 | 100, 1), (4, 1, 0, G100 | 100, 2)])
        self.assertEqual(self.query("SELECT c.start, c.eventClass, s.value FROM CUBLAS_EVENTS c "
                                    "JOIN StringIds s ON s.id = c.nameId"),
                         [(5, 0, "cublasSgemm_v2")])
        self.assertEqual(self.query("SELECT m.end, m.size, m.remoteRank, s.value "
                                    "FROM MPI_P2P_EVENTS m JOIN StringIds s ON s.id = m.textId"),
                         [(8, 64, 1, "MPI_Send")])

    def test_bulk_level_and_primary_key(self):
        db = synth_report.create(self.path, first_string_id=1)
        self.assertEqual([db.sid("x"), db.sid("y"), db.sid("x")], [1, 2, 1])
        db.insert("COMPOSITE_EVENTS", ["id", "start", "cpuCycles"], [(1, 10, 0), (2, 20, 0)])
        db.insert("SAMPLING_CALLCHAINS", ["id", "symbol", "module", "stackDepth"],
                  [(1, 1, 2, 0), (1, 1, 2, 1)])
        db.process(7, "p")
        db.close()
        self.assertEqual(self.query("SELECT * FROM StringIds ORDER BY id"), [(1, "x"), (2, "y")])
        self.assertEqual(self.query("SELECT * FROM PROCESSES"), [(7 << 24, 7, "p")])

        def key_columns():
            return [c[1] for c in self.query("PRAGMA table_info(SAMPLING_CALLCHAINS)") if c[5]]
        self.assertEqual(key_columns(), ["id", "stackDepth"])  # the schema's (nsys's) key
        synth_report.without_primary_key(self.path, "SAMPLING_CALLCHAINS")
        self.assertEqual(key_columns(), [])
        self.assertEqual(self.query("SELECT id, stackDepth FROM SAMPLING_CALLCHAINS "
                                    "ORDER BY stackDepth"), [(1, 0), (1, 1)])
        db = synth_report.create(self.path)  # replaces the file
        db.close()
        self.assertEqual(self.query("SELECT count(*) FROM SAMPLING_CALLCHAINS"), [(0,)])


if __name__ == "__main__":
    unittest.main()
