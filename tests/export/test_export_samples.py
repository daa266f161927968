#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CPU samples and thread states on the timeline (issue 23 item 1): every COMPOSITE_EVENTS row
with its SAMPLING_CALLCHAINS stack reaches `gsys export --type perfetto` as a PerfSample packet
(decoded with protoc and perfetto_trace.proto, stacks rebuilt from the interned frames) and
`--type chrome` as an instant event with a "stack" argument; every SCHED_EVENTS switch-in with
a later switch of its thread becomes a "Running" slice (perfetto: on the thread's "Thread state"
track; chrome: an async b/e pair); cuDNN, cuBLAS and MPI calls are slices on the thread
(perfetto: its "Library calls" track) with MPI message sizes. `--type kineto` leaves them out.

Reports: a synthetic one built here (tests/lib/synth_report.py) with known stacks, once with
nsys's (id, stackDepth) primary key and once without (reports written before gsys had it), and,
when ../shared is present, the nsys 2025.1 export that has samples.

  test_export_samples.py --gsys BIN --fixtures DIR
"""
import argparse
import collections
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "lib"))
from test_export import parse_text_proto  # noqa: E402
import synth_report  # noqa: E402  (tests/lib: reports in the canonical schema)

ARGS = None
HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite"
FUNCTIONS = ["main", "train_step", "forward", "matmul", "memcpy", "std::vector<int>::push_back",
             "__libc_start_main", "poll"]
MODULES = ["/usr/bin/app", "/lib/x86_64-linux-gnu/libc.so.6", "/opt/lib/libtorch.so"]


def add_samples(r, start, count=60, seed=3):
    """Adds `count` samples with random stacks (depth 0-6) on two threads (100, 101) of process
    100 to the synth_report.Report `r`; the test reads the truth back from the tables."""
    rng = random.Random(seed)
    order = list(range(1, count + 1))
    rng.shuffle(order)  # rows not in id order: lookups must go by id
    for sid in order:
        frames = [(rng.choice(FUNCTIONS), rng.choice(MODULES), 0x400000 + depth)
                  for depth in range(rng.randint(0, 6))]
        r.sample(start + sid * 1000, frames, id=sid, cpu=sid % 4, tid=100 + sid % 2)


def add_sched(r, start, seed=5):
    """Switches of two threads: runs of in/out, an out and an in at one timestamp, a trailing in
    with no out (not a slice), and an in right after an in (the first ends at the second)."""
    rng = random.Random(seed)
    rows = []
    for tid in (100, 101):
        t = start
        for _ in range(15):
            t += rng.randint(1, 500)
            rows.append((t, rng.randint(0, 3), True, tid, 1))
            t += rng.randint(1, 500)
            rows.append((t, 0, False, tid, rng.choice([1, 2])))
        rows.append((t, 2, True, tid, 1))           # in at the time of the last out
        rows.append((t + 100, 2, True, tid, 1))     # in after in
        rows.append((t + 200, 2, False, tid, 2))
        rows.append((t + 900, 1, True, tid, 1))     # never switched out
    rng.shuffle(rows)
    for t, cpu, switch_in, tid, state in rows:
        r.sched(t, cpu, switch_in, state=state, tid=tid)


LIBRARY = [("CUBLAS_EVENTS", "cublasSgemm_v2"), ("CUDNN_EVENTS", "cudnnConvolutionForward"),
           ("MPI_P2P_EVENTS", "MPI_Send")]


def add_library_calls(r, start):
    """Nested and sequential calls of three libraries on one thread (MPI with a message size)."""
    (cublas, sgemm), (cudnn, conv), (mpi, send) = LIBRARY
    for i in range(5):
        t = start + 100000 + i * 10000
        r.library(cublas, t, t + 5000, sgemm)
        r.library(cudnn, t + 1000, t + 2000, conv)  # inside the cuBLAS call
        r.library(mpi, t + 6000, t + 9000, send, commHandle=7, tag=3, remoteRank=1,
                  size=4096 * (i + 1), requestHandle=0)


def library_truth(path):
    """(start, end, tid, name, size or None) per library call row."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    rows = collections.Counter()
    for table, _ in LIBRARY:
        name_col = "textId" if table.startswith("MPI") else "nameId"
        size = "size" if table.startswith("MPI") else "NULL"
        for start, end, gtid, name, sz in db.execute(
                "SELECT e.start, e.end, e.globalTid, s.value, %s FROM %s e JOIN StringIds s "
                "ON s.id = e.%s" % (size, table, name_col)):
            rows[(start, end, gtid & 0xFFFFFF, name, sz)] += 1
    db.close()
    return rows


def perfetto_library_calls(path):
    """(start, end, tid, name, size or None) of the slices on "Library calls" tracks."""
    return collections.Counter((b, e, tid, name, args.get("size"))
                               for b, e, _, tid, name, args in perfetto_slices(path, "Library calls"))


def chrome_library_calls(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    rows = collections.Counter()
    for e in events:
        if e.get("cat") in ("cudnn", "cublas", "mpi"):
            assert e["ph"] == "X", e
            start = round(e["ts"] * 1000)
            rows[(start, start + round(e["dur"] * 1000), e["tid"], e["name"],
                  e["args"].get("size"))] += 1
    return rows


def sched_truth(path):
    """(start, end, pid, tid, cpu) per Running slice, computed from the rows in Python."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    by_thread = collections.defaultdict(list)
    for start, cpu, sched_in, gtid in db.execute(
            "SELECT start, cpu, isSchedIn, globalTid FROM SCHED_EVENTS"):
        by_thread[gtid].append((start, 1 if sched_in else 0, cpu))
    db.close()
    rows = collections.Counter()
    for gtid, switches in by_thread.items():
        switches.sort()
        for a, b in zip(switches, switches[1:]):
            if a[1]:
                rows[(a[0], b[0], (gtid >> 24) & 0xFFFFFF, gtid & 0xFFFFFF, a[2])] += 1
    return rows


def truth(path):
    """(start, pid, tid, cpu, ((function, module), ... root first)) per sample, from SQL."""
    db = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    rows = collections.Counter()
    for sid, start, cpu, gtid in db.execute(
            "SELECT id, start, cpu, globalTid FROM COMPOSITE_EVENTS"):
        frames = db.execute(
            "SELECT s.value, m.value FROM SAMPLING_CALLCHAINS c JOIN StringIds s ON s.id = c.symbol "
            "JOIN StringIds m ON m.id = c.module WHERE c.id = ? ORDER BY c.stackDepth DESC",
            (sid,)).fetchall()
        rows[(start, (gtid >> 24) & 0xFFFFFF, gtid & 0xFFFFFF, cpu, tuple(frames))] += 1
    db.close()
    return rows


def export(path, kind, out, tmp):
    target = os.path.join(tmp, out)
    p = subprocess.run([ARGS.gsys, "export", "--type", kind, "-f", "-o", target, path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise AssertionError("export %s failed: %s" % (kind, p.stderr))
    return target


def decode(path):
    with open(path, "rb") as f:
        text = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I", HERE,
                               "perfetto_trace.proto"], stdin=f, capture_output=True, text=True,
                              check=True).stdout
    return parse_text_proto(text)["packet"]


def perfetto_slices(path, track_prefix):
    """(begin, end, pid, tid, name, int args) of every slice on the tracks whose name starts with
    `track_prefix` (children of thread tracks), begins paired with ends per track."""
    packets = decode(path)
    tracks, names, arg_names = {}, {}, {}
    for p in packets:
        for td in p.get("track_descriptor", []):
            tracks[td["uuid"][0]] = td
        for d in p.get("interned_data", []):
            for e in d.get("event_names", []):
                names[e["iid"][0]] = e["name"][0]
            for e in d.get("debug_annotation_names", []):
                arg_names[e["iid"][0]] = e["name"][0]
    stacks, slices = collections.defaultdict(list), []
    for p in packets:
        for te in p.get("track_event", []):
            uuid = te["track_uuid"][0]
            if not tracks[uuid].get("name", [""])[0].startswith(track_prefix):
                continue
            ts = int(p["timestamp"][0])
            if te["type"][0] == "TYPE_SLICE_BEGIN":
                args = {arg_names[a["name_iid"][0]]: int(a["int_value"][0])
                        for a in te.get("debug_annotations", []) if "int_value" in a}
                stacks[uuid].append((ts, names[te["name_iid"][0]], args))
            elif te["type"][0] == "TYPE_SLICE_END":
                begin, name, args = stacks[uuid].pop()
                thread = tracks[tracks[uuid]["parent_uuid"][0]]["thread"][0]
                slices.append((begin, ts, int(thread["pid"][0]), int(thread["tid"][0]), name,
                               args))
    return slices


def perfetto_thread_states(path):
    """(start, end, pid, tid, cpu) of the slices on "Thread state" tracks (never overlapping)."""
    slices = perfetto_slices(path, "Thread state")
    by_track = collections.defaultdict(list)
    for b, e, pid, tid, _, _ in slices:
        by_track[(pid, tid)].append((b, e))
    for spans in by_track.values():
        spans.sort()
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), "overlapping thread states"
    return collections.Counter((b, e, pid, tid, args["cpu"]) for b, e, pid, tid, _, args in slices)


def chrome_thread_states(path):
    with open(path) as f:
        events = [e for e in json.load(f)["traceEvents"] if e.get("cat") == "thread_state"]
    begins = {e["id"]: e for e in events if e["ph"] == "b"}
    rows = collections.Counter()
    for e in events:
        if e["ph"] == "e":
            b = begins.pop(e["id"])
            rows[(round(b["ts"] * 1000), round(e["ts"] * 1000), b["pid"], b["tid"],
                  b["args"]["cpu"])] += 1
    assert not begins, "a thread-state begin without its end"
    return rows


def perfetto_samples(path):
    functions, paths, mappings, frames, stacks = {}, {}, {}, {}, {}
    rows = collections.Counter()
    for p in decode(path):
        # Interned entries come in or before the first packet that uses them.
        for d in p.get("interned_data", []):
            for e in d.get("function_names", []):
                functions[e["iid"][0]] = e["str"][0]
            for e in d.get("mapping_paths", []):
                paths[e["iid"][0]] = e["str"][0]
            for e in d.get("mappings", []):
                mappings[e["iid"][0]] = "/".join(paths[i] for i in e["path_string_ids"])
            for e in d.get("frames", []):
                frames[e["iid"][0]] = (functions[e["function_name_id"][0]],
                                       mappings[e["mapping_id"][0]])
            for e in d.get("callstacks", []):
                stacks[e["iid"][0]] = tuple(frames[i] for i in e.get("frame_ids", []))
        for s in p.get("perf_sample", []):
            cpu = int(s["cpu"][0]) if "cpu" in s else None
            rows[(int(p["timestamp"][0]), int(s["pid"][0]), int(s["tid"][0]), cpu,
                  stacks[s["callstack_iid"][0]])] += 1
    return rows


def chrome_samples(path):
    with open(path) as f:
        events = json.load(f)["traceEvents"]
    rows = collections.Counter()
    for e in events:
        if e.get("cat") != "cpu_sample":
            continue
        assert e["ph"] == "i" and e["s"] == "t", e
        lines = e["args"]["stack"].split("\n") if e["args"]["stack"] else []
        frames = tuple(tuple(line.split("  ", 1)) for line in reversed(lines))
        rows[(round(e["ts"] * 1000), e["pid"], e["tid"], e["args"].get("cpu"), frames)] += 1
    return rows


class SamplesTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gsys-export-samples-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def synthetic(self, primary_key):
        r = synth_report.Report()  # the canonical schema, no bench tool needed
        start = 1000000
        for i in range(20):
            t = start + i * 20000
            r.launch(t, t + 3000, t + 4000, t + 9000, "kernel_%d" % (i % 3))
        add_samples(r, start)
        add_sched(r, start)
        add_library_calls(r, start)
        path = r.write(os.path.join(self.tmp, "synthetic.sqlite"))
        if not primary_key:  # as reports written before gsys declared nsys's key
            synth_report.without_primary_key(path, "SAMPLING_CALLCHAINS")
        return path

    def check(self, path):
        want = truth(path)
        self.assertGreater(sum(want.values()), 0)
        self.assertTrue(any(k[4] for k in want), "no sample with a stack")
        got = perfetto_samples(export(path, "perfetto", "t.pftrace", self.tmp))
        self.assertEqual(got, want)
        got = chrome_samples(export(path, "chrome", "t.json", self.tmp))
        self.assertEqual(got, want)
        states = sched_truth(path)
        self.assertGreater(sum(states.values()), 0)  # every report here has switches
        self.assertEqual(perfetto_thread_states(os.path.join(self.tmp, "t.pftrace")), states)
        self.assertEqual(chrome_thread_states(os.path.join(self.tmp, "t.json")), states)
        calls = library_truth(path) if "synthetic" in path else collections.Counter()
        self.assertEqual(perfetto_library_calls(os.path.join(self.tmp, "t.pftrace")), calls)
        self.assertEqual(chrome_library_calls(os.path.join(self.tmp, "t.json")), calls)
        out = export(path, "kineto", "k", self.tmp)
        for name in os.listdir(out):
            with open(os.path.join(out, name)) as f:
                text = f.read()
                self.assertNotIn("cpu_sample", text)
                self.assertNotIn("thread_state", text)
                self.assertNotIn("cublasSgemm", text)

    def test_synthetic_with_primary_key(self):
        self.check(self.synthetic(True))

    def test_synthetic_without_index(self):
        self.check(self.synthetic(False))

    def test_nsys_export(self):
        path = os.path.join(ARGS.fixtures, FIXTURE)
        if not os.path.exists(path):
            self.skipTest("nsys fixture %s not found (optional: ../shared/fixtures/nsys)" % path)
        self.check(path)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    ARGS, rest = ap.parse_known_args()
    if shutil.which("protoc") is None:
        print("test_export_samples: protoc not found (tools/install_deps.sh installs "
              "protobuf-compiler)")
        return 1
    return 0 if unittest.main(argv=[sys.argv[0]] + rest, exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
