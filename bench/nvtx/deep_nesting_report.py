#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A report with D push/pop ranges nested D deep on one thread around L kernel launches, made
from a small real report (BASE: any gsys report with push/pop ranges, launches and kernels, e.g.
tests/parity/corpus/nvtx_shapes/gsys.gsys-rep.xz decompressed). Every kernel lies inside every
range, so nvtx_kern_sum and nvtx_gpu_proj_* attribute D x L (range, kernel) pairs: the worst
case of docs/reliability.md's known limit. bench/nvtx/deep_nesting.sh times both tools on it.

usage: deep_nesting_report.py D L OUT BASE"""
import shutil
import sqlite3
import sys


def columns(db, table):
    return [c[1] for c in db.execute("PRAGMA table_info(%s)" % table)]


def insert(db, table, cols, row):
    db.execute("INSERT INTO %s (%s) VALUES (%s)" % (table, ",".join(cols), ",".join("?" * len(cols))),
               row)


def main():
    depth, launches, out, base = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
    shutil.copy(base, out)
    db = sqlite3.connect(out)
    # One real kernel, its launch call and one push/pop range are the templates of every row.
    kcols = columns(db, "CUPTI_ACTIVITY_KIND_KERNEL")
    kernel = db.execute("SELECT * FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1").fetchone()
    rcols = columns(db, "CUPTI_ACTIVITY_KIND_RUNTIME")
    call = db.execute("SELECT * FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId = ?",
                      (kernel[kcols.index("correlationId")],)).fetchone()
    ncols = columns(db, "NVTX_EVENTS")
    push = db.execute("SELECT * FROM NVTX_EVENTS WHERE eventType = 59 LIMIT 1").fetchone()
    tid = call[rcols.index("globalTid")]
    for table in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_RUNTIME"):
        db.execute("DELETE FROM " + table)
    db.execute("DELETE FROM NVTX_EVENTS WHERE eventType IN (34, 59, 60)")
    t0 = 10**9
    for i in range(depth):  # range i encloses range i + 1
        row = list(push)
        row[ncols.index("start")], row[ncols.index("end")] = t0 + i, t0 + 10**8 - i
        row[ncols.index("globalTid")], row[ncols.index("text")] = tid, "r%d" % i
        if "textId" in ncols:
            row[ncols.index("textId")] = None
        insert(db, "NVTX_EVENTS", ncols, row)
    for j in range(launches):  # inside the innermost range
        s = t0 + depth + 10 * j
        row = list(call)
        row[rcols.index("start")], row[rcols.index("end")] = s, s + 5
        row[rcols.index("correlationId")] = 100000 + j
        insert(db, "CUPTI_ACTIVITY_KIND_RUNTIME", rcols, row)
        row = list(kernel)
        row[kcols.index("start")], row[kcols.index("end")] = s + 3, s + 8 + j % 7
        row[kcols.index("correlationId")] = 100000 + j
        insert(db, "CUPTI_ACTIVITY_KIND_KERNEL", kcols, row)
    db.commit()


if __name__ == "__main__":
    main()
