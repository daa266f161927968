#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`gsys export --type kineto` on the project's corpus, checked with the json module only (runs in
a bare clone): one file per process with CUDA work, HTA's rank line, Kineto's names and
categories, GPU pids that no host pid can equal, launch -> GPU work correlation pairs, External
ids that name the enclosing NVTX range, and deviceProperties. Every expectation is computed from
the report's own tables.

  check_kineto_structure.py --gsys BIN
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

import kineto_corpus as kc

ARGS = None
HTA_RANK = re.compile(r'"rank":\s+(\d+)')  # hta/common/trace_file.py, line by line
NSYS_SUFFIX = re.compile(r"_v\d{4,}$")
CATS = {"cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy", "gpu_memset", "user_annotation",
        "os_runtime", "ac2g"}


def cuda_processes(db):
    """pid -> globalPid of processes with CUDA API calls or GPU work."""
    rows = db.execute(
        "SELECT globalTid >> 24 & 16777215, globalTid & ~16777215 FROM CUPTI_ACTIVITY_KIND_RUNTIME "
        "UNION SELECT globalPid >> 24 & 16777215, globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL "
        "UNION SELECT globalPid >> 24 & 16777215, globalPid FROM CUPTI_ACTIVITY_KIND_MEMCPY "
        "UNION SELECT globalPid >> 24 & 16777215, globalPid FROM CUPTI_ACTIVITY_KIND_MEMSET")
    return dict(rows.fetchall())


class Structure(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-kineto-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def check_capture(self, capture, source):
        report = kc.unpack(capture, self.tmp, source)
        traces = kc.export(ARGS.gsys, report, os.path.join(self.tmp, capture + "_kineto"))
        db = kc.db(report)
        procs = cuda_processes(db)
        self.assertEqual(len(traces), len(procs))
        ranks = sorted(t["distributedInfo"]["rank"] for t in traces.values())
        self.assertEqual(ranks, list(range(len(procs))))  # no MPI or RANK in the corpus
        host_pids = {p for (p,) in db.execute("SELECT pid FROM PROCESSES")}
        for name, trace in traces.items():
            with self.subTest(capture=capture, source=source, file=name):
                self.check_file(db, procs, host_pids, name, trace, len(procs))

    def check_file(self, db, procs, host_pids, name, trace, world):
        rank = trace["distributedInfo"]["rank"]
        self.assertEqual(trace["distributedInfo"]["world_size"], world)
        self.assertEqual(trace["schemaVersion"], 1)
        self.assertEqual(trace["traceName"], name)
        self.assertEqual(trace["displayTimeUnit"], "ms")
        pid = int(name.split(".")[1])
        self.assertTrue(name.startswith("rank-%d." % rank), name)
        gpid = procs[pid]
        events = trace["traceEvents"]
        host = [e for e in events if e.get("pid") == pid]
        gpu = [e for e in events if e.get("pid") != pid]
        # GPU tracks: pid 2^24 + device, never a host pid of the report.
        devices = {e["args"]["device"] for e in gpu if e.get("ph") == "X"}
        self.assertEqual({e["pid"] for e in gpu}, {kc.GPU_PID_BASE + d for d in devices})
        self.assertFalse({e["pid"] for e in gpu} & host_pids)
        self.assertTrue(all(e["pid"] >= 1 << 22 for e in gpu))  # above Linux's pid_max
        self.assertTrue({e.get("cat") for e in events if e["ph"] != "M"} <= CATS)
        self.check_api(db, gpid, host)
        self.check_gpu(db, gpid, gpu)
        self.check_flows(events)
        self.check_external_ids(events)
        self.check_devices(db, trace["deviceProperties"])

    def check_api(self, db, gpid, host):
        expected = collections.Counter()
        for (n,) in db.execute(
                "SELECT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
                "WHERE r.globalTid & ~16777215 = ?", (gpid,)):
            expected[NSYS_SUFFIX.sub("", n)] += 1
        got = collections.Counter(e["name"] for e in host
                                  if e.get("cat") in ("cuda_runtime", "cuda_driver"))
        self.assertEqual(got, expected)
        self.assertFalse([n for n in got if NSYS_SUFFIX.search(n)])
        ranges = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 70) AND "
                            "globalTid & ~16777215 = ?", (gpid,)).fetchone()[0]
        self.assertEqual(sum(1 for e in host if e.get("cat") == "user_annotation"
                             and e["ph"] == "X"), ranges)

    def check_gpu(self, db, gpid, gpu):
        for table, cat in (("KERNEL", "kernel"), ("MEMCPY", "gpu_memcpy"), ("MEMSET", "gpu_memset")):
            n, total = db.execute("SELECT count(*), sum(end - start) FROM CUPTI_ACTIVITY_KIND_%s "
                                  "WHERE globalPid = ?" % table, (gpid,)).fetchone()
            got = [e for e in gpu if e.get("cat") == cat]
            self.assertEqual(len(got), n, cat)
            self.assertAlmostEqual(sum(e["dur"] for e in got) * 1000, total or 0, delta=len(got))
            if table != "KERNEL":
                (nbytes,) = db.execute("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_%s WHERE "
                                       "globalPid = ?" % table, (gpid,)).fetchone()
                self.assertEqual(sum(e["args"]["bytes"] for e in got), nbytes or 0)
        for e in gpu:
            if e.get("cat") == "kernel":
                self.assertEqual(len(e["args"]["grid"]), 3)
                self.assertEqual(len(e["args"]["block"]), 3)
                for key in ("registers per thread", "shared memory", "stream", "device",
                            "correlation"):
                    self.assertIn(key, e["args"])
                self.assertEqual(e["tid"], e["args"]["stream"])

    def check_flows(self, events):
        s = collections.Counter(e["id"] for e in events if e["ph"] == "s")
        f = [e for e in events if e["ph"] == "f"]
        self.assertTrue(all(e["cat"] == "ac2g" and e["bp"] == "e" for e in f))
        self.assertEqual(len(s), sum(s.values()))  # one arrow start per launch
        by_corr = {e["args"]["correlation"]: e for e in events
                   if e["ph"] == "X" and e["cat"] in ("cuda_runtime", "cuda_driver")}
        for e in f:
            self.assertIn(e["id"], s)  # every GPU arrow end has its launch
            self.assertIn(e["id"], by_corr)
        gpu = [e for e in events if e["ph"] == "X" and e["cat"] in ("kernel", "gpu_memcpy",
                                                                      "gpu_memset")]
        for e in gpu:
            corr = e["args"].get("correlation")
            if corr is not None:
                self.assertIn(corr, by_corr)  # the call that launched it is in the same file

    def check_external_ids(self, events):
        ranges = {e["args"]["External id"]: e for e in events
                  if e["ph"] == "X" and e["cat"] == "user_annotation"}
        self.assertEqual(len(ranges), sum(1 for e in events if e["ph"] == "X"
                                          and e["cat"] == "user_annotation"))  # unique ids
        calls = {}
        for e in events:
            if e["ph"] != "X" or e["cat"] not in ("cuda_runtime", "cuda_driver"):
                continue
            ext = e["args"].get("External id")
            if ext is None:
                continue
            r = ranges[ext]  # the innermost range open on the call's thread encloses it
            self.assertEqual((r["tid"], r["pid"]), (e["tid"], e["pid"]))
            self.assertLessEqual(r["ts"], e["ts"])
            self.assertGreaterEqual(round((r["ts"] + r["dur"] - e["ts"] - e["dur"]) * 1000), 0)
            calls[e["args"]["correlation"]] = ext
        for e in events:
            if e["ph"] == "X" and e["cat"] in ("kernel", "gpu_memcpy", "gpu_memset"):
                self.assertEqual(e["args"].get("External id"),
                                 calls.get(e["args"].get("correlation")))

    def check_devices(self, db, props):
        rows = db.execute("SELECT id, name, smCount, totalMemory FROM TARGET_INFO_GPU "
                          "ORDER BY id").fetchall()
        self.assertEqual([(p["id"], p["name"], p["numSms"], p["totalGlobalMem"]) for p in props],
                         rows)

    def test_gsys_reports(self):
        for capture in kc.CAPTURES:
            self.check_capture(capture, "gsys")

    def test_nsys_exports(self):
        # The same programs captured by nsys 2025.3.1: an nsys export converts the same way.
        for capture in kc.CAPTURES:
            self.check_capture(capture, "nsys")

    def test_hta_rank_line(self):
        # HTA reads the rank with a regex, line by line, before parsing: it must find each file's.
        report = kc.unpack("two_process", self.tmp)
        out = os.path.join(self.tmp, "k")
        traces = kc.export(ARGS.gsys, report, out)
        self.assertEqual(len(traces), 2)
        for name, trace in traces.items():
            with open(os.path.join(out, name), encoding="utf-8") as f:
                found = next(HTA_RANK.search(line) for line in f if HTA_RANK.search(line))
            self.assertEqual(int(found.group(1)), trace["distributedInfo"]["rank"])

    def ranks_of(self, report):
        traces = kc.export(ARGS.gsys, report, os.path.join(self.tmp, "r%d" % len(os.listdir(self.tmp))))
        return sorted((n.split(".")[0], t["distributedInfo"]["world_size"],
                       t["distributedInfo"]["gsys_rank_source"]) for n, t in traces.items())

    def test_rank_from_report_split_and_environment(self):
        # docs/pytorch.md "Ranks": -o x_%q{RANK} stores the split values; torchrun -> gsys profile
        # per rank leaves RANK in the stored launch environment. The split wins.
        report = kc.unpack("copies_streams", self.tmp)
        db = kc.db(report)
        db.execute("DELETE FROM GSYS_META WHERE name IN ('output_values', 'environment')")
        db.execute("INSERT INTO GSYS_META VALUES ('environment', 'PATH=/bin\nRANK=5\nWORLD_SIZE=8')")
        db.commit()
        self.assertEqual(self.ranks_of(report), [("rank-5", 8, "environment")])
        db.execute("INSERT INTO GSYS_META VALUES ('output_values', 'RANK=3')")
        db.commit()
        self.assertEqual(self.ranks_of(report), [("rank-3", 8, "environment")])

    def test_rank_from_mpi(self):
        report = kc.unpack("two_process", self.tmp)
        db = kc.db(report)
        (first, second) = [g for (g,) in db.execute("SELECT globalPid FROM PROCESSES ORDER BY pid")]
        db.execute("CREATE TABLE IF NOT EXISTS main.MPI_RANKS (globalTid INTEGER NOT NULL, "
                   "rank INTEGER NOT NULL)")
        db.executemany("INSERT INTO main.MPI_RANKS VALUES (?, ?)",
                       [(first + 1, 1), (second + 2, 0)])
        db.commit()
        pids = [g >> 24 & 0xFFFFFF for g in (first, second)]
        out = os.path.join(self.tmp, "m")
        traces = kc.export(ARGS.gsys, report, out)
        self.assertEqual(sorted(traces), sorted(["rank-1.%d.pt.trace.json" % pids[0],
                                                 "rank-0.%d.pt.trace.json" % pids[1]]))
        self.assertTrue(all(t["distributedInfo"]["gsys_rank_source"] == "mpi"
                            for t in traces.values()))

    def test_torchrun_dumb_init_is_not_gpu_1(self):
        # The case issue 22 saw: a real 2-GPU torchrun nsys export with dumb-init as pid 1.
        fixture = os.path.join(ARGS.nsys_fixtures,
                               "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite")
        if not os.path.exists(fixture):
            self.skipTest("nsys fixture not found: %s" % fixture)
        chrome = os.path.join(self.tmp, "t.json")
        subprocess.run([ARGS.gsys, "export", "--type", "chrome", "-o", chrome, fixture],
                       check=True, capture_output=True)
        with open(chrome, encoding="utf-8") as f:
            events = json.load(f)["traceEvents"]
        names = {e["pid"]: e["args"]["name"] for e in events
                 if e["ph"] == "M" and e["name"] == "process_name"}
        self.assertEqual(names[1], "dumb-init")
        self.assertEqual({e["pid"] for e in events if e.get("cat") == "kernel"},
                         {kc.GPU_PID_BASE, kc.GPU_PID_BASE + 1})
        self.assertTrue(names[kc.GPU_PID_BASE + 1].startswith("GPU 1"))
        traces = kc.export(ARGS.gsys, fixture, os.path.join(self.tmp, "k"))
        self.assertEqual(sorted(t["distributedInfo"]["rank"] for t in traces.values()), [0, 1])
        for t in traces.values():
            self.assertFalse([e for e in t["traceEvents"] if e["pid"] == 1])

    def test_host_pid_equal_to_device_id(self):
        # Issue 22: with GPU N on pid N, a host process of pid 0 (device 0's number) shared its
        # track with the GPU. Rewrite two_process's first process to pid 0 and export both ways.
        report = kc.unpack("two_process", self.tmp)
        db = kc.db(report)
        old = db.execute("SELECT min(pid) FROM PROCESSES").fetchone()[0]
        shift = old << 24
        for table, col in db.execute(
                "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
                "WHERE m.type = 'table' AND p.name IN ('globalTid', 'globalPid')").fetchall():
            db.execute("UPDATE %s SET %s = %s - ? WHERE %s >> 24 & 16777215 = ?"
                       % (table, col, col, col), (shift, old))
        db.execute("UPDATE PROCESSES SET pid = 0 WHERE pid = ?", (old,))
        db.commit()
        db.close()
        traces = kc.export(ARGS.gsys, report, os.path.join(self.tmp, "k"))
        rank0 = next(t for n, t in traces.items() if n.startswith("rank-0.0."))
        on_zero = {e["cat"] for e in rank0["traceEvents"] if e["pid"] == 0 and e["ph"] == "X"}
        self.assertIn("cuda_runtime", on_zero)
        self.assertFalse(on_zero & {"kernel", "gpu_memcpy", "gpu_memset"})
        chrome = os.path.join(self.tmp, "c.json")
        subprocess.run([ARGS.gsys, "export", "--type", "chrome", "-o", chrome, report], check=True,
                       capture_output=True)
        with open(chrome, encoding="utf-8") as f:
            events = json.load(f)["traceEvents"]
        on_zero = {e.get("cat") for e in events if e["pid"] == 0 and e["ph"] == "X"}
        self.assertIn("cuda_runtime", on_zero)
        self.assertFalse(on_zero & {"kernel", "gpu_memcpy", "gpu_memset"})
        gpu_pids = {e["pid"] for e in events if e.get("cat") == "kernel"}
        self.assertEqual(gpu_pids, {kc.GPU_PID_BASE})


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--nsys-fixtures", default=os.path.join(kc.CORPUS, "..", "..", "..", "..",
                                                            "shared", "fixtures", "nsys"))
    ARGS, rest = ap.parse_known_args()
    return 0 if unittest.main(argv=[sys.argv[0]] + rest, exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
