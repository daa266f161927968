# SPDX-License-Identifier: Apache-2.0
"""Synthetic reports for the timeline tests and bench/html: a CPU-only capture (NVTX ranges,
OS runtime calls, CPU samples; no GPU table) and a report of N kernels on 4 streams with one slow
kernel to find. Rows are written in bulk (executemany) through tests/lib/synth_report.py's
create(), into the canonical schema."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from synth_report import KERNEL_INSERT, MARK, OSRT_EVENT_CLASS, PUSHPOP, create  # noqa: E402

PID, TID = 4242, 4243
GTID = (PID << 24) | PID
SLOW = "void slow_kernel<at::native::Functor<float>, 512>(float*, int)"
EVIL = "<script>alert('x')</script> & \"q\""


def _open(path, first_string_id=0):
    db = create(path, first_string_id)
    db.process(PID, "trainer")
    return db


def cpu_only(path):
    """NVTX: 'step' ranges each holding 'forward' and 'backward' (0..100 ms, 10 steps of 10 ms);
    OSRT: a 1 ms read every 2 ms on the second thread; 1,000 CPU samples every 100 us, the
    leaf symbol `hot_loop`; NVTX marks and scheduling (below). Returns `path`."""
    db = _open(path, first_string_id=1)
    read, hot_loop, libc, main_thread, sgemm = (
        db.sid(t) for t in ("read", "hot_loop", "libc.so", "main-thread", "cublasSgemm_v2"))
    db.insert("ThreadNames", ["nameId", "priority", "globalTid"], [(main_thread, 0, GTID)])
    ms = 1000000
    rows = []
    for s in range(10):
        t = s * 10 * ms
        rows += [(t, t + 9 * ms, "step"), (t + ms, t + 4 * ms, "forward"),
                 (t + 5 * ms, t + 8 * ms, EVIL if s == 3 else "backward")]
    nvtx = ["start", "end", "eventType", "text", "globalTid", "domainId"]
    db.insert("NVTX_EVENTS", nvtx, [(a, b, PUSHPOP, n, GTID, 0) for a, b, n in rows])
    other = (PID << 24) | TID
    db.insert("OSRT_API", ["start", "end", "eventClass", "globalTid", "nameId", "returnValue",
                           "callchainId"],
              [(i * 2 * ms, i * 2 * ms + ms, OSRT_EVENT_CLASS, other, read, 0, 0)
               for i in range(50)])
    db.insert("COMPOSITE_EVENTS", ["id", "start", "cpu", "globalTid", "cpuCycles"],
              [(i, i * 100000, 0, GTID, 0) for i in range(1000)])
    db.insert("SAMPLING_CALLCHAINS", ["id", "symbol", "module", "stackDepth"],
              [(i, hot_loop, libc, 0) for i in range(1000)])
    # A 1 ms cuBLAS call 2 ms into each of the first 5 steps; a 'checkpoint' mark 9.5 ms into
    # each step; the main thread runs on CPU s % 2 for each
    # step's first 9 ms, then waits (state 2); a last switch in at 99.5 ms has no switch out.
    db.insert("NVTX_EVENTS", nvtx,
              [(s * 10 * ms + 9 * ms + ms // 2, None, MARK, "checkpoint", GTID, 0)
               for s in range(10)])
    sched = []
    for s in range(10):
        t = s * 10 * ms
        sched += [(t, s % 2, 1, GTID, None), (t + 9 * ms, s % 2, 0, GTID, 2)]
    sched.append((99 * ms + ms // 2, 0, 1, GTID, None))
    db.insert("CUBLAS_EVENTS", ["start", "end", "eventClass", "globalTid", "nameId"],
              [(s * 10 * ms + 2 * ms, s * 10 * ms + 3 * ms, 0, GTID, sgemm) for s in range(5)])
    db.insert("SCHED_EVENTS", ["start", "cpu", "isSchedIn", "globalTid", "threadState"], sched)
    return db.close()


def many_kernels(path, n):
    """`n` kernels of 1 us, 1 us apart, round-robin on 4 streams of GPU 0, 8 names; kernel
    n // 2 is SLOW, 1 ms long. Returns (start, end) of the slow kernel."""
    db = _open(path)
    names = ["void at::native::elementwise_kernel<128, 4, Op%d<float>>(int, T3)" % i
             for i in range(8)] + [SLOW]
    assert [db.sid(n) for n in names] == list(range(9))  # the name column holds these ids
    slow = None
    rows = []
    t = 0
    for i in range(n):
        dur = 1000
        name = i % 8
        if i == n // 2:
            dur, name, slow = 1000000, 8, (t, t + 1000000)
        rows.append((t, t + dur, 0, 7 + i % 4, i, PID << 24, name, name, i))
        t += dur + 1000
    db.conn.executemany(KERNEL_INSERT, rows)
    db.close()
    return slow
