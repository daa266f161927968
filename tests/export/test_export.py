#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every `gsys export` type on one nsys fixture, checked against the report's own rows:
perfetto decoded with `protoc --decode` (perfetto_trace.proto), chrome parsed as JSON, jsonlines
and csv counted per table, sqlite compared table by table.

  test_export.py --gsys BIN --fixtures DIR --fixture NAME.sqlite
"""
import argparse
import collections
import csv
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

csv.field_size_limit(sys.maxsize)

ARGS = None
HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCH_NAME = "(lower({n}) LIKE '%launch%' OR lower({n}) LIKE '%memcpy%' OR lower({n}) LIKE '%memset%')"
LIBRARY_TABLES = ["CUDNN_EVENTS", "CUBLAS_EVENTS", "MPI_P2P_EVENTS", "MPI_COLLECTIVES_EVENTS",
                  "MPI_START_WAIT_EVENTS", "MPI_OTHER_EVENTS"]
GPU_TABLES = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"]


def parse_text_proto(text):
    """protoc's text output -> nested dicts of lists."""
    root, stack = collections.defaultdict(list), []
    cur = root
    for line in text.splitlines():
        line = line.strip()
        if line.endswith("{"):
            child = collections.defaultdict(list)
            cur[line[:-1].strip()].append(child)
            stack.append(cur)
            cur = child
        elif line == "}":
            cur = stack.pop()
        elif line:
            key, value = line.split(":", 1)
            value = value.strip()
            cur[key].append(json.loads(value) if value.startswith('"') else value)
    return root


class ExportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="gsys-export-")
        cls.report = os.path.join(ARGS.fixtures, ARGS.fixture)
        cls.db = sqlite3.connect("file:%s?mode=ro" % cls.report, uri=True)
        cls.tables = {r[0] for r in cls.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    @classmethod
    def tearDownClass(cls):
        cls.db.close()
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def export(self, kind, name):
        out = os.path.join(self.tmp, name)
        proc = subprocess.run([ARGS.gsys, "export", "--type", kind, "-f", "-o", out, self.report],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        return out, proc.stderr

    def count(self, table, where=""):
        if table not in self.tables:
            return 0
        return self.db.execute("SELECT count(*) FROM %s %s" % (table, where)).fetchone()[0]

    def columns(self, table):
        return {r[1] for r in self.db.execute("PRAGMA table_info(%s)" % table)}

    def expected_events(self):
        n = {"api": self.count("CUPTI_ACTIVITY_KIND_RUNTIME"), "osrt": self.count("OSRT_API"),
             "nvtx": self.count("NVTX_EVENTS", "WHERE eventType IN (34, 59, 60, 70, 71)"),
             "marks": self.count("NVTX_EVENTS", "WHERE eventType = 34")}
        n["gpu"] = sum(self.count(t) for t in GPU_TABLES)
        n["library"] = sum(self.count(t) for t in LIBRARY_TABLES)
        n["total"] = n["api"] + n["osrt"] + n["nvtx"] + n["gpu"] + n["library"]
        # CPU samples: PerfSample packets in perfetto, instants in chrome (test_export_samples.py
        # checks their stacks).
        n["samples"] = self.count("COMPOSITE_EVENTS")
        n["thread_states"] = self.thread_state_slices()
        return n

    def thread_state_slices(self):
        """Switch-ins followed by another switch of the same thread (out first at equal times):
        the "Running" slices the timeline formats show."""
        if "SCHED_EVENTS" not in self.tables:
            return 0
        by_thread = collections.defaultdict(list)
        for gtid, start, sched_in in self.db.execute(
                "SELECT globalTid, start, isSchedIn FROM SCHED_EVENTS"):
            by_thread[gtid].append((start, 1 if sched_in else 0))
        n = 0
        for switches in by_thread.values():
            switches.sort()
            n += sum(1 for k in range(len(switches) - 1) if switches[k][1])
        return n

    def expected_flows(self):
        """API launch/copy/memset calls, and distinct (process, correlation) pairs they share
        with GPU rows."""
        if "CUPTI_ACTIVITY_KIND_RUNTIME" not in self.tables:
            return 0, 0
        starts = self.db.execute(
            "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId "
            "WHERE r.correlationId IS NOT NULL AND r.correlationId != 0 AND " +
            LAUNCH_NAME.format(n="s.value")).fetchone()[0]
        pairs = set()
        for t in GPU_TABLES:
            if t not in self.tables or "globalPid" not in self.columns(t):
                continue
            pairs |= set(self.db.execute(
                "SELECT DISTINCT g.globalPid, g.correlationId FROM %s g JOIN "
                "CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = g.correlationId AND "
                "(r.globalTid & ~0xFFFFFF) = g.globalPid JOIN StringIds s ON s.id = r.nameId "
                "WHERE g.correlationId != 0 AND %s" % (t, LAUNCH_NAME.format(n="s.value"))))
        return starts, len(pairs)

    def test_perfetto(self):
        out, _ = self.export("perfetto", "t.pftrace")
        with open(out, "rb") as f:
            text = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I", HERE,
                                   "perfetto_trace.proto"], stdin=f, capture_output=True,
                                  text=True, check=True).stdout
        packets = parse_text_proto(text)["packet"]
        tracks, names, cats = {}, {}, {}
        types = collections.Counter()
        flow_starts, flow_ends, on_gpu_tracks, api_on_api_tracks = [], [], 0, 0
        for p in packets:
            for td in p.get("track_descriptor", []):
                tracks[td["uuid"][0]] = td
            for idata in p.get("interned_data", []):
                for e in idata.get("event_names", []):
                    names[e["iid"][0]] = e["name"][0]
                for e in idata.get("event_categories", []):
                    cats[e["iid"][0]] = e["name"][0]
        def root(uuid):
            while "parent_uuid" in tracks[uuid]:
                uuid = tracks[uuid]["parent_uuid"][0]
            return tracks[uuid]
        last_ts = 0
        for p in packets:
            for te in p.get("track_event", []):
                ts = int(p["timestamp"][0])
                self.assertGreaterEqual(ts, last_ts, "packets are written in time order")
                last_ts = ts
                kind = te["type"][0]
                types[kind] += 1
                self.assertIn(te["track_uuid"][0], tracks)
                if kind == "TYPE_SLICE_END":
                    continue
                cat = cats[te["category_iids"][0]]
                track = tracks[te["track_uuid"][0]]
                if cat in ("kernel", "gpu_memcpy", "gpu_memset"):
                    self.assertTrue(track["name"][0].startswith("Stream "), track)
                    self.assertTrue(root(te["track_uuid"][0])["name"][0].startswith("GPU "))
                    on_gpu_tracks += 1
                elif cat in ("cuda_runtime", "cuda_driver"):
                    self.assertTrue(track["name"][0].startswith("CUDA API"), track)
                    self.assertIn("thread", tracks[track["parent_uuid"][0]])
                    api_on_api_tracks += 1
                flow_starts += te.get("flow_ids", [])
                flow_ends += te.get("terminating_flow_ids", [])
        n = self.expected_events()
        self.assertEqual(types["TYPE_SLICE_BEGIN"] + types["TYPE_INSTANT"],
                         n["total"] + n["thread_states"])
        self.assertEqual(sum(len(p.get("perf_sample", [])) for p in packets), n["samples"])
        self.assertEqual(types["TYPE_INSTANT"], n["marks"])
        self.assertEqual(types["TYPE_SLICE_END"], types["TYPE_SLICE_BEGIN"])
        self.assertEqual(on_gpu_tracks, n["gpu"])
        self.assertEqual(api_on_api_tracks, n["api"])
        starts, pairs = self.expected_flows()
        self.assertEqual(len(flow_starts), starts)
        self.assertEqual(len(set(flow_starts) & set(flow_ends)), pairs)

    def test_chrome(self):
        out, _ = self.export("chrome", "t.json")
        with open(out) as f:
            trace = json.load(f)
        events = trace["traceEvents"]
        ph = collections.Counter(e["ph"] for e in events)
        n = self.expected_events()
        async_ranges = self.count("NVTX_EVENTS", "WHERE eventType IN (60, 71)")
        self.assertEqual(ph["X"] + ph["i"] + ph["b"], n["total"] + n["samples"] + n["thread_states"])
        self.assertEqual(ph["b"], async_ranges + n["thread_states"])
        self.assertEqual(ph["e"], async_ranges + n["thread_states"])
        gpu = [e for e in events if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
        self.assertEqual(len(gpu), n["gpu"])
        for e in gpu:
            for key in ("ts", "dur", "pid", "tid", "name", "args"):
                self.assertIn(key, e)
            if e["cat"] == "kernel":
                self.assertEqual(len(e["args"]["grid"]), 3)
                self.assertEqual(len(e["args"]["block"]), 3)
                self.assertIn("registers per thread", e["args"])
        starts, pairs = self.expected_flows()
        s = {e["id"] for e in events if e["ph"] == "s"}
        f = {e["id"] for e in events if e["ph"] == "f"}
        self.assertEqual(ph["s"], starts)
        self.assertEqual(len(s & f), pairs)
        self.assertTrue(all(e.get("cat") == "ac2g" for e in events if e["ph"] in "sf"))

    def test_jsonlines(self):
        out, _ = self.export("jsonlines", "t.jsonl")
        per_table = collections.Counter()
        with open(out) as f:
            for line in f:
                per_table[json.loads(line)["table"]] += 1
        for table in self.tables:
            if table.startswith("sqlite_"):
                continue
            self.assertEqual(per_table[table], self.count(table), table)

    def test_csv(self):
        out, _ = self.export("csv", "t_csv")
        files = set(os.listdir(out))
        for table in self.tables:
            if table.startswith("sqlite_"):
                continue
            self.assertIn(table + ".csv", files)
            with open(os.path.join(out, table + ".csv"), newline="", errors="surrogateescape") as f:
                rows = list(csv.reader(f))
            self.assertEqual(rows[0], [r[1] for r in self.db.execute("PRAGMA table_info(%s)" % table)])
            self.assertEqual(len(rows) - 1, self.count(table), table)

    def test_sqlite(self):
        out, _ = self.export("sqlite", "t.sqlite")
        copy = sqlite3.connect(out)
        copied = {r[0] for r in copy.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        want = {t for t in self.tables if not t.upper().startswith("GSYS_")}
        self.assertEqual(copied, want)
        for table in want:
            self.assertEqual(copy.execute("SELECT count(*) FROM %s" % table).fetchone()[0],
                             self.count(table), table)
        copy.close()


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--fixture", required=True)
    ARGS, rest = ap.parse_known_args()
    # Every case reads the nsys exports, which are not in the repository.
    if not os.path.isdir(ARGS.fixtures):
        print("SKIPPED: nsys fixtures not found: %s (optional: ../shared/fixtures/nsys beside "
              "the checkout, see tests/README.md)" % os.path.abspath(ARGS.fixtures))
        return 77  # ctest SKIP_RETURN_CODE
    if shutil.which("protoc") is None:
        print("test_export: protoc not found (tools/install_deps.sh installs protobuf-compiler)")
        return 1
    return 0 if unittest.main(argv=[sys.argv[0]] + rest, exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
