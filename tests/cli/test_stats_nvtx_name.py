#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Known answers for the `:nvtx-name` report argument (cuda_gpu_kern_sum, cuda_gpu_trace,
cuda_kern_exec_sum, cuda_gpu_sum): each kernel is named "<innermost NVTX range>/<kernel>", the
range being the latest-starting (then earliest-ending) push/pop or start/end range that begins
and ends on the launching thread and contains the launch API call. One synthetic report holds one
launch per rule, so each expected name is worked out by hand below."""

import csv
import io
import os
import sys

from cli_harness import CliTestCase, gsys, main

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from synth_report import PUSHPOP, STARTEND, Report  # noqa: E402  (tests/lib)

PID, TID, OTHER_TID = 100, 100, 101


# NVTX ranges on the launching thread unless `tid`/`end_tid` say otherwise. Times in ns.
RANGES = [
    # (start, end, type, text, tid, end_tid)
    (0, 100, PUSHPOP, "outer", TID, None),
    (10, 50, PUSHPOP, "inner", TID, None),
    (150, 260, STARTEND, "startend", TID, None),
    (140, 270, STARTEND, "ends_elsewhere", TID, OTHER_TID),   # ends on another thread: never
    (300, None, PUSHPOP, "never_popped", TID, None),          # no end: never
    (400, 450, PUSHPOP, "too_short", TID, None),
    (500, 600, PUSHPOP, "same_start_long", TID, None),
    (500, 550, PUSHPOP, "same_start_short", TID, None),
    (700, 800, PUSHPOP, "other_thread", OTHER_TID, None),
]

# (launch call start, end, kernel name, expected :nvtx-name, pid)
LAUNCHES = [
    (20, 30, "k_inner", "inner/k_inner", PID),                 # innermost of two nested ranges
    (60, 70, "k_after_inner", "outer/k_after_inner", PID),     # inner ended: its parent
    (200, 210, "k_startend", "startend/k_startend", PID),      # start/end range counts
    (310, 320, "k_unended", "k_unended", PID),                 # only an unended range: none
    (440, 460, "k_overlap", "k_overlap", PID),                 # call outlives the range
    (510, 520, "k_tie", "same_start_short/k_tie", PID),        # same start: earliest end
    (710, 720, "k_thread", "k_thread", PID),                   # range on another thread
    (20, 30, "k_other_pid", "k_other_pid", 200),               # same times, other process
]


def write_report(path):
    r = Report()
    for start, end, kind, text, tid, end_tid in RANGES:
        r.nvtx(start, end, text, pid=PID, tid=tid, end_tid=end_tid, kind=kind)
    for i, (start, end, name, _, pid) in enumerate(LAUNCHES):
        r.launch(start, end, 1000 + 10 * i, 1005 + 10 * i, name, pid=pid, mangled="_Z" + name)
    r.write(path)


class NvtxNameTest(CliTestCase):
    def setUp(self):
        super().setUp()
        self.report = os.path.join(self.tmp, "nvtx_name.sqlite")
        write_report(self.report)

    def rows(self, report):
        proc = gsys("stats", "-q", "-r", report, "-f", "csv", "-o", "-", self.report)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = [line for line in proc.stdout.splitlines() if line.strip()]
        start = next(i for i, line in enumerate(lines) if line.startswith('"') or "," in line)
        return list(csv.DictReader(io.StringIO("\n".join(lines[start:]))))

    def expected(self):
        return sorted(name for _, _, _, name, _ in LAUNCHES)

    def test_kern_sum_names(self):
        rows = self.rows("cuda_gpu_kern_sum:nvtx-name")
        self.assertEqual(sorted(row["Name"] for row in rows), self.expected())
        self.assertTrue(all(row["Instances"] == "1" for row in rows))

    def test_trace_names(self):
        rows = self.rows("cuda_gpu_trace:nvtx-name")
        self.assertEqual(sorted(row["Name"] for row in rows), self.expected())

    def test_exec_sum_and_gpu_sum_names(self):
        self.assertEqual(sorted(r["Kernel Name"] for r in self.rows("cuda_kern_exec_sum:nvtx-name")),
                         self.expected())
        self.assertEqual(sorted(r["Operation"] for r in self.rows("cuda_gpu_sum:nvtx-name")),
                         self.expected())

    def test_mangled_names_keep_the_range(self):
        rows = self.rows("cuda_gpu_kern_sum:nvtx-name:mangled")
        expected = sorted(name.rsplit("/", 1)[0] + "/_Z" + kernel if "/" in name else "_Z" + kernel
                          for _, _, kernel, name, _ in LAUNCHES)
        self.assertEqual(sorted(row["Name"] for row in rows), expected)

    def test_without_the_argument_plain_names(self):
        rows = self.rows("cuda_gpu_kern_sum")
        self.assertEqual(sorted(row["Name"] for row in rows),
                         sorted(kernel for _, _, kernel, _, _ in LAUNCHES))


if __name__ == "__main__":
    main()
