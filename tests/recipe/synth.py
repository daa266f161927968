# SPDX-License-Identifier: Apache-2.0
"""Small synthetic gsys reports for the recipe tests: the canonical schema (src/report/schema.sql)
plus exactly the rows a test lists, so every recipe answer can be computed by hand.

    Report(utc=..., tool="0.1.0").kernel(start, end, name, pid=, device=, stream=)
        .nvtx(start, end, text, pid=, domain=).api(...).memcpy(...).write(path)
        .launch(api_start, api_end, start, end, name): a kernel and its correlated launch call
        .mpi(start, end, name, table=): a row of an MPI event table
        .gpu_metric(timestamp, device, column=value, ...): a GSYS_GPU_METRICS sample
"""
import os
import sqlite3

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "src", "report", "schema.sql")
MS = 1000000
KERNEL_INSERT = (
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
    " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ,"
    " blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,"
    " localMemoryTotal, gridId) VALUES"
    " (?, ?, ?, 1, ?, ?, ?, ?, ?, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, ?)")


class Report:
    def __init__(self, utc=1700000000 * 10**9, tool="0.1.0"):
        self.utc, self.tool = utc, tool
        self.kernels, self.nvtx_rows, self.apis, self.copies = [], [], [], []
        self.domains = {}  # (pid, name) -> id
        self.launches, self.mpis, self.metrics = [], [], []

    def kernel(self, start, end, name, pid=100, device=0, stream=7, short=None):
        self.kernels.append((start, end, name, short or name, pid, device, stream))
        return self

    def nvtx(self, start, end, text, pid=100, domain=None):
        self.nvtx_rows.append((start, end, text, pid, domain))
        return self

    def api(self, start, end, name, pid=100, tid=None):
        self.apis.append((start, end, name, pid, tid or pid))
        return self

    def launch(self, api_start, api_end, start, end, name, pid=100, device=0, stream=7):
        self.launches.append((api_start, api_end, start, end, name, pid, device, stream))
        return self

    def mpi(self, start, end, name, pid=100, table="MPI_COLLECTIVES_EVENTS"):
        self.mpis.append((start, end, name, pid, table))
        return self

    def gpu_metric(self, timestamp, device, **columns):
        self.metrics.append((timestamp, device, columns))
        return self

    def memcpy(self, start, end, nbytes, kind=1, pid=100, device=0, stream=7):
        self.copies.append((start, end, nbytes, kind, pid, device, stream))
        return self

    def write(self, path):
        if os.path.exists(path):
            os.remove(path)
        db = sqlite3.connect(path)
        db.executescript(open(SCHEMA).read())
        strings = {}

        def sid(text):
            if text not in strings:
                strings[text] = len(strings)
                db.execute("INSERT INTO StringIds VALUES (?, ?)", (strings[text], text))
            return strings[text]

        gpid = lambda pid: pid << 24
        db.execute("INSERT INTO GSYS_META (name, value) VALUES ('tool_version', ?)", (self.tool,))
        if self.utc is not None:
            db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, '', '', 0)",
                       (self.utc,))
        pids = set()
        for i, (s, e, name, short, pid, dev, stream) in enumerate(self.kernels):
            pids.add(pid)
            db.execute(KERNEL_INSERT,
                       (s, e, dev, stream, 100000 + i, gpid(pid), sid(name), sid(short), i))
        for s, e, text, pid, domain in self.nvtx_rows:
            pids.add(pid)
            dom = 0
            if domain:
                key = (pid, domain)
                if key not in self.domains:
                    self.domains[key] = len(self.domains) + 1
                    db.execute("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid, domainId)"
                               " VALUES (0, 75, ?, ?, ?)", (domain, gpid(pid) | pid,
                                                           self.domains[key]))
                dom = self.domains[key]
            db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid, domainId)"
                       " VALUES (?, ?, 59, ?, ?, ?)", (s, e, text, gpid(pid) | pid, dom))
        for i, (s, e, name, pid, tid) in enumerate(self.apis):
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                       " correlationId, nameId, returnValue) VALUES (?, ?, 1, ?, ?, ?, 0)",
                       (s, e, gpid(pid) | tid, 200000 + i, sid(name)))
        for i, (s, e, nbytes, kind, pid, dev, stream) in enumerate(self.copies):
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,"
                       " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind)"
                       " VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, 1, 2)",
                       (s, e, dev, stream, 300000 + i, gpid(pid), nbytes, kind))
        launch_api = sid("cudaLaunchKernel_v7000") if self.launches else None
        for i, (a0, a1, s, e, name, pid, dev, stream) in enumerate(self.launches):
            pids.add(pid)
            corr = 400000 + i
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                       " correlationId, nameId, returnValue) VALUES (?, ?, 1, ?, ?, ?, 0)",
                       (a0, a1, gpid(pid) | pid, corr, launch_api))
            db.execute(KERNEL_INSERT,
                       (s, e, dev, stream, corr, gpid(pid), sid(name), sid(name), 1000 + i))
        for s, e, name, pid, table in self.mpis:
            pids.add(pid)
            db.execute("INSERT INTO %s (start, end, globalTid, textId) VALUES (?, ?, ?, ?)" % table,
                       (s, e, gpid(pid) | pid, sid(name)))
        for ts, dev, columns in self.metrics:
            names = ", ".join(["timestamp", "deviceId", *columns])
            db.execute("INSERT INTO GSYS_GPU_METRICS (%s) VALUES (%s)"
                       % (names, ", ".join("?" * (2 + len(columns)))),
                       (ts, dev, *columns.values()))
        for pid in sorted(pids):
            db.execute("INSERT INTO PROCESSES VALUES (?, ?, 'python')", (gpid(pid), pid))
        db.commit()
        db.close()
        return path
