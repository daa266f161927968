#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`gsys export --type perfetto -o OUT A B`: several reports (ranks) merged into one trace.
Each report is exported alone and merged; the merged trace must hold every event of both, one
trusted sequence per report, distinct track uuids, GPU tracks named after the report, and the
later report shifted by the difference of the two session starts (TARGET_INFO_SESSION_START_TIME).

  test_export_merge.py --gsys BIN --fixtures DIR
"""
import argparse
import collections
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import unittest

from test_export import HERE, parse_text_proto

ARGS = None
A = "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite"     # the earlier session start
B = "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite"  # starts later (utcEpochNs)


def utc(path):
    return sqlite3.connect(path).execute(
        "SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME").fetchone()[0]


class MergeTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="gsys-merge-")
        cls.a = os.path.join(ARGS.fixtures, A)
        cls.b = os.path.join(ARGS.fixtures, B)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    def export(self, name, *reports):
        out = os.path.join(self.tmp, name)
        proc = subprocess.run([ARGS.gsys, "export", "--type", "perfetto", "-f", "-o", out, *reports],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(out, "rb") as f:
            text = subprocess.run(["protoc", "--decode=perfetto.protos.Trace", "-I", HERE,
                                   "perfetto_trace.proto"], stdin=f, capture_output=True,
                                  text=True, check=True).stdout
        return parse_text_proto(text)["packet"]

    @staticmethod
    def events(packets):
        """(sequence id, timestamp) of every track event; track descriptors by uuid."""
        evs, tracks = [], {}
        for p in packets:
            for td in p.get("track_descriptor", []):
                tracks[td["uuid"][0]] = td
            for _ in p.get("track_event", []):
                evs.append((p["trusted_packet_sequence_id"][0], int(p["timestamp"][0])))
        return evs, tracks

    def test_merged_trace_holds_both_reports_aligned(self):
        ea, ta = self.events(self.export("a.pftrace", self.a))
        eb, tb = self.events(self.export("b.pftrace", self.b))
        em, tm = self.events(self.export("m.pftrace", self.a, self.b))
        by_seq = collections.defaultdict(list)
        for seq, ts in em:
            by_seq[seq].append(ts)
        self.assertEqual(sorted(by_seq), ["1", "2"])
        self.assertEqual(len(by_seq["1"]), len(ea))
        self.assertEqual(len(by_seq["2"]), len(eb))
        self.assertEqual(len(tm), len(ta) + len(tb), "every track of both, no uuid shared")
        shift = utc(self.b) - utc(self.a)
        self.assertGreater(shift, 0)
        self.assertEqual(sorted(by_seq["1"]), sorted(ts for _, ts in ea))
        self.assertEqual(sorted(by_seq["2"]), sorted(ts + shift for _, ts in eb))
        gpu_names = sorted(t["name"][0] for t in tm.values()
                           if "name" in t and t["name"][0].split(": ")[-1].startswith("GPU "))
        self.assertTrue(any(n.startswith("nsys2024") for n in gpu_names), gpu_names)
        self.assertTrue(any(n.startswith("nsys2022") for n in gpu_names), gpu_names)

    def test_merge_needs_output_and_perfetto(self):
        proc = subprocess.run([ARGS.gsys, "export", "--type", "perfetto", self.a, self.b],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("needs -o", proc.stderr)
        proc = subprocess.run([ARGS.gsys, "export", "--type", "chrome", "-o",
                               os.path.join(self.tmp, "x.json"), self.a, self.b],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertIn("only perfetto merges", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "x.json")))


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    ARGS, rest = ap.parse_known_args()
    # Every case reads the nsys exports, which are not in the repository.
    if not os.path.isdir(ARGS.fixtures):
        print("SKIPPED: nsys fixtures not found: %s (optional: ../shared/fixtures/nsys beside "
              "the checkout, see tests/README.md)" % os.path.abspath(ARGS.fixtures))
        return 77  # ctest SKIP_RETURN_CODE
    if shutil.which("protoc") is None:
        print("test_export_merge: protoc not found (tools/install_deps.sh installs protobuf-compiler)")
        return 1
    return 0 if unittest.main(argv=[sys.argv[0]] + rest, exit=False).result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
