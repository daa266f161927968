# SPDX-License-Identifier: Apache-2.0
"""Synthetic reports for the timeline tests and bench/html: a CPU-only capture (NVTX ranges,
OS runtime calls, CPU samples; no GPU table) and a report of N kernels on 4 streams with one slow
kernel to find. Rows are written with executemany into the canonical schema."""
import os
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "recipe"))
from synth import KERNEL_INSERT, SCHEMA  # noqa: E402

PID, TID = 4242, 4243
GTID = (PID << 24) | PID
SLOW = "void slow_kernel<at::native::Functor<float>, 512>(float*, int)"
EVIL = "<script>alert('x')</script> & \"q\""


def _open(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    with open(SCHEMA) as f:
        db.executescript(f.read())
    db.execute("INSERT INTO PROCESSES VALUES (?, ?, 'trainer')", (PID << 24, PID))
    return db


def cpu_only(path):
    """NVTX: 'step' ranges each holding 'forward' and 'backward' (0..100 ms, 10 steps of 10 ms);
    OSRT: a 1 ms read every 2 ms on the second thread; 1,000 CPU samples every 100 us, the
    leaf symbol `hot_loop`; NVTX marks and scheduling (below). Returns the NVTX names in order of appearance."""
    db = _open(path)
    db.executemany("INSERT INTO StringIds VALUES (?, ?)",
                   [(1, "read"), (2, "hot_loop"), (3, "libc.so"), (4, "main-thread"),
                    (5, "cublasSgemm_v2")])
    db.execute("INSERT INTO ThreadNames VALUES (4, 0, ?)", (GTID,))
    ms = 1000000
    rows = []
    for s in range(10):
        t = s * 10 * ms
        rows += [(t, t + 9 * ms, "step"), (t + ms, t + 4 * ms, "forward"),
                 (t + 5 * ms, t + 8 * ms, EVIL if s == 3 else "backward")]
    db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                   " VALUES (?, ?, 59, ?, ?, 0)", [(a, b, n, GTID) for a, b, n in rows])
    other = (PID << 24) | TID
    db.executemany("INSERT INTO OSRT_API (start, end, eventClass, globalTid, nameId, returnValue,"
                   " callchainId) VALUES (?, ?, 27, ?, 1, 0, 0)",
                   [(i * 2 * ms, i * 2 * ms + ms, other) for i in range(50)])
    db.executemany("INSERT INTO COMPOSITE_EVENTS (id, start, cpu, globalTid, cpuCycles)"
                   " VALUES (?, ?, 0, ?, 0)", [(i, i * 100000, GTID) for i in range(1000)])
    db.executemany("INSERT INTO SAMPLING_CALLCHAINS (id, symbol, module, stackDepth)"
                   " VALUES (?, 2, 3, 0)", [(i,) for i in range(1000)])
    # A 1 ms cuBLAS call 2 ms into each of the first 5 steps; a 'checkpoint' mark 9.5 ms into
    # each step; the main thread runs on CPU s % 2 for each
    # step's first 9 ms, then waits (state 2); a last switch in at 99.5 ms has no switch out.
    db.executemany("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                   " VALUES (?, NULL, 34, 'checkpoint', ?, 0)",
                   [(s * 10 * ms + 9 * ms + ms // 2, GTID) for s in range(10)])
    sched = []
    for s in range(10):
        t = s * 10 * ms
        sched += [(t, s % 2, 1, GTID, None), (t + 9 * ms, s % 2, 0, GTID, 2)]
    sched.append((99 * ms + ms // 2, 0, 1, GTID, None))
    db.executemany("INSERT INTO CUBLAS_EVENTS (start, end, eventClass, globalTid, nameId)"
                   " VALUES (?, ?, 0, ?, 5)",
                   [(s * 10 * ms + 2 * ms, s * 10 * ms + 3 * ms, GTID) for s in range(5)])
    db.executemany("INSERT INTO SCHED_EVENTS (start, cpu, isSchedIn, globalTid, threadState)"
                   " VALUES (?, ?, ?, ?, ?)", sched)
    db.commit()
    db.close()
    return path


def many_kernels(path, n):
    """`n` kernels of 1 us, 1 us apart, round-robin on 4 streams of GPU 0, 8 names; kernel
    n // 2 is SLOW, 1 ms long. Returns (start, end) of the slow kernel."""
    db = _open(path)
    names = ["void at::native::elementwise_kernel<128, 4, Op%d<float>>(int, T3)" % i
             for i in range(8)] + [SLOW]
    db.executemany("INSERT INTO StringIds VALUES (?, ?)", list(enumerate(names)))
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
    db.executemany(KERNEL_INSERT, rows)
    db.commit()
    db.close()
    return slow
