# SPDX-License-Identifier: Apache-2.0
"""The one builder of synthetic gsys reports for the Python test tiers: the canonical schema
(src/report/schema.sql) plus exactly the rows a test lists, so every answer can be worked out by
hand. Two levels:

    Report(utc=..., tool="0.1.0"): rows listed one call each, written by .write(path)
        .kernel(start, end, name, pid=, device=, stream=, short=)
        .launch(api_start, api_end, start, end, name, mangled=): a kernel and its launch call
        .api(start, end, name, pid=, tid=), .memcpy(start, end, nbytes, kind=)
        .nvtx(start, end, text, pid=, domain=, tid=, end_tid=, kind=PUSHPOP)
        .mpi(start, end, name, table=): a row of an MPI event table
        .gpu_metric(timestamp, device, column=value, ...): a GSYS_GPU_METRICS sample
        .osrt(start, end, name, pid=, tid=), .thread_name(name, pid=, tid=)
        .sample(start, frames, id=, cpu=, pid=, tid=): a CPU sample, frames leaf first
        .sched(start, cpu, switch_in, state=, pid=, tid=): a SCHED_EVENTS switch
        .library(table, start, end, name, pid=, tid=, **columns): cuBLAS/cuDNN/MPI P2P calls
    create(path, first_string_id=0) -> Db: the schema and nothing else, for builders of bulk
        rows (a million kernels): .sid(text) interns a string, .insert(table, columns, rows)
        writes them with executemany, .process(pid, name), .close()

Identifiers follow gsys's: globalPid = pid << 24, globalTid = globalPid | tid (the main thread's
tid is the pid). without_primary_key(path, table) rewrites one table of a written report as
reports of older gsys versions had it (same columns, no primary key).
"""
import os
import sqlite3

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMA = os.path.join(ROOT, "src", "report", "schema.sql")
MS = 1000000
PUSHPOP, STARTEND, MARK, CATEGORY, DOMAIN_CREATE = 59, 60, 34, 33, 75  # NVTX eventType
OSRT_EVENT_CLASS = 27
KERNEL_INSERT = (
    "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, contextId, streamId,"
    " correlationId, globalPid, demangledName, shortName, registersPerThread, gridX, gridY, gridZ,"
    " blockX, blockY, blockZ, staticSharedMemory, dynamicSharedMemory, localMemoryPerThread,"
    " localMemoryTotal, gridId) VALUES"
    " (?, ?, ?, 1, ?, ?, ?, ?, ?, 32, 1, 1, 1, 128, 1, 1, 0, 0, 0, 0, ?)")


def gpid(pid):
    return pid << 24


def gtid(pid, tid=None):
    return gpid(pid) | (pid if tid is None else tid)


class Db:
    """A new report file with the canonical schema (any file at `path` is replaced)."""

    def __init__(self, path, first_string_id=0):
        if os.path.exists(path):
            os.remove(path)
        self.path = path
        self.conn = sqlite3.connect(path)
        with open(SCHEMA, encoding="utf-8") as f:
            self.conn.executescript(f.read())
        self.strings = {}
        self.first_string_id = first_string_id

    def sid(self, text):
        """The StringIds id of `text`, inserted on first use (ids count up from the first)."""
        if text not in self.strings:
            self.strings[text] = self.first_string_id + len(self.strings)
            self.conn.execute("INSERT INTO StringIds VALUES (?, ?)", (self.strings[text], text))
        return self.strings[text]

    def insert(self, table, columns, rows):
        self.conn.executemany("INSERT INTO %s (%s) VALUES (%s)" % (
            table, ", ".join(columns), ", ".join("?" * len(columns))), rows)

    def execute(self, sql, params=()):
        return self.conn.execute(sql, params)

    def process(self, pid, name):
        self.conn.execute("INSERT INTO PROCESSES VALUES (?, ?, ?)", (gpid(pid), pid, name))

    def close(self):
        self.conn.commit()
        self.conn.close()
        return self.path


def create(path, first_string_id=0):
    return Db(path, first_string_id)


class Report:
    def __init__(self, utc=1700000000 * 10**9, tool="0.1.0"):
        self.utc, self.tool = utc, tool
        self.kernels, self.nvtx_rows, self.apis, self.copies = [], [], [], []
        self.domains = {}  # (pid, name) -> id
        self.launches, self.mpis, self.metrics = [], [], []
        self.osrts, self.thread_names, self.samples, self.scheds, self.libraries = \
            [], [], [], [], []

    def kernel(self, start, end, name, pid=100, device=0, stream=7, short=None):
        self.kernels.append((start, end, name, short or name, pid, device, stream))
        return self

    def nvtx(self, start, end, text, pid=100, domain=None, tid=None, end_tid=None,
             kind=PUSHPOP):
        self.nvtx_rows.append((start, end, text, pid, domain, tid, end_tid, kind))
        return self

    def api(self, start, end, name, pid=100, tid=None):
        self.apis.append((start, end, name, pid, tid or pid))
        return self

    def launch(self, api_start, api_end, start, end, name, pid=100, device=0, stream=7,
               mangled=None):
        self.launches.append((api_start, api_end, start, end, name, pid, device, stream, mangled))
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

    def osrt(self, start, end, name, pid=100, tid=None, ret=0):
        self.osrts.append((start, end, name, pid, tid, ret))
        return self

    def thread_name(self, name, pid=100, tid=None):
        self.thread_names.append((name, pid, tid))
        return self

    def sample(self, start, frames, id=None, cpu=0, pid=100, tid=None, state=1):
        """`frames`: (function, module) or (function, module, ip) pairs, the leaf (stackDepth 0)
        first; `id` defaults to the number of samples so far plus one."""
        self.samples.append((id or len(self.samples) + 1, start, cpu, state, pid, tid, frames))
        return self

    def sched(self, start, cpu, switch_in, state=1, pid=100, tid=None, block=None):
        self.scheds.append((start, cpu, 1 if switch_in else 0, pid, tid, state, block))
        return self

    def library(self, table, start, end, name, pid=100, tid=None, **columns):
        """A row of CUBLAS_EVENTS/CUDNN_EVENTS (name in nameId, eventClass 0) or of an MPI table
        (name in textId); `columns` fills the others (MPI: size=, tag=, remoteRank=, ...)."""
        self.libraries.append((table, start, end, name, pid, tid, columns))
        return self

    def write(self, path):
        db = Db(path)
        sid = db.sid
        db.execute("INSERT INTO GSYS_META (name, value) VALUES ('tool_version', ?)", (self.tool,))
        if self.utc is not None:
            db.execute("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?, '', '', 0)",
                       (self.utc,))
        pids = set()
        for i, (s, e, name, short, pid, dev, stream) in enumerate(self.kernels):
            pids.add(pid)
            db.execute(KERNEL_INSERT,
                       (s, e, dev, stream, 100000 + i, gpid(pid), sid(name), sid(short), i))
        for s, e, text, pid, domain, tid, end_tid, kind in self.nvtx_rows:
            pids.add(pid)
            dom = 0
            if domain:
                key = (pid, domain)
                if key not in self.domains:
                    self.domains[key] = len(self.domains) + 1
                    db.execute("INSERT INTO NVTX_EVENTS (start, eventType, text, globalTid,"
                               " domainId) VALUES (0, ?, ?, ?, ?)",
                               (DOMAIN_CREATE, domain, gtid(pid), self.domains[key]))
                dom = self.domains[key]
            db.execute("INSERT INTO NVTX_EVENTS (start, end, eventType, text, globalTid,"
                       " endGlobalTid, domainId) VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (s, e, kind, text, gtid(pid, tid),
                        gtid(pid, end_tid) if end_tid else None, dom))
        for i, (s, e, name, pid, tid) in enumerate(self.apis):
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                       " correlationId, nameId, returnValue) VALUES (?, ?, 1, ?, ?, ?, 0)",
                       (s, e, gtid(pid, tid), 200000 + i, sid(name)))
        for i, (s, e, nbytes, kind, pid, dev, stream) in enumerate(self.copies):
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY (start, end, deviceId, contextId,"
                       " streamId, correlationId, globalPid, bytes, copyKind, srcKind, dstKind)"
                       " VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, 1, 2)",
                       (s, e, dev, stream, 300000 + i, gpid(pid), nbytes, kind))
        launch_api = sid("cudaLaunchKernel_v7000") if self.launches else None
        for i, (a0, a1, s, e, name, pid, dev, stream, mangled) in enumerate(self.launches):
            pids.add(pid)
            corr = 400000 + i
            db.execute("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME (start, end, eventClass, globalTid,"
                       " correlationId, nameId, returnValue) VALUES (?, ?, 1, ?, ?, ?, 0)",
                       (a0, a1, gtid(pid), corr, launch_api))
            row = db.execute(KERNEL_INSERT, (s, e, dev, stream, corr, gpid(pid), sid(name),
                                             sid(name), 1000 + i)).lastrowid
            if mangled:
                db.execute("UPDATE CUPTI_ACTIVITY_KIND_KERNEL SET mangledName = ? WHERE rowid = ?",
                           (sid(mangled), row))
        for s, e, name, pid, table in self.mpis:
            pids.add(pid)
            db.execute("INSERT INTO %s (start, end, globalTid, textId) VALUES (?, ?, ?, ?)" % table,
                       (s, e, gtid(pid), sid(name)))
        for ts, dev, columns in self.metrics:
            db.insert("GSYS_GPU_METRICS", ["timestamp", "deviceId", *columns],
                      [(ts, dev, *columns.values())])
        for s, e, name, pid, tid, ret in self.osrts:
            pids.add(pid)
            db.insert("OSRT_API", ["start", "end", "eventClass", "globalTid", "nameId",
                                   "returnValue", "callchainId"],
                      [(s, e, OSRT_EVENT_CLASS, gtid(pid, tid), sid(name), ret, 0)])
        for name, pid, tid in self.thread_names:
            db.insert("ThreadNames", ["nameId", "globalTid"], [(sid(name), gtid(pid, tid))])
        for sample_id, s, cpu, state, pid, tid, frames in self.samples:
            pids.add(pid)
            db.insert("COMPOSITE_EVENTS", ["id", "start", "cpu", "threadState", "globalTid",
                                           "cpuCycles"],
                      [(sample_id, s, cpu, state, gtid(pid, tid), 0)])
            db.insert("SAMPLING_CALLCHAINS", ["id", "symbol", "module", "kernelMode",
                                              "thumbCode", "unresolved", "specialEntry",
                                              "originalIP", "unwindMethod", "stackDepth"],
                      [(sample_id, sid(f[0]), sid(f[1]), 0, 0, 0, 0,
                        f[2] if len(f) > 2 else None, 6, depth)
                       for depth, f in enumerate(frames)])
        db.insert("SCHED_EVENTS", ["start", "cpu", "isSchedIn", "globalTid", "threadState",
                                   "threadBlock"],
                  [(s, cpu, sw, gtid(pid, tid), state, block)
                   for s, cpu, sw, pid, tid, state, block in self.scheds])
        for table, s, e, name, pid, tid, columns in self.libraries:
            pids.add(pid)
            name_column = "textId" if table.startswith("MPI") else "nameId"
            fixed = {} if table.startswith("MPI") else {"eventClass": 0}
            values = dict(fixed, start=s, end=e, globalTid=gtid(pid, tid), **columns)
            values[name_column] = sid(name)
            db.insert(table, list(values), [tuple(values.values())])
        for pid in sorted(pids):
            db.process(pid, "python")
        return db.close()


def without_primary_key(path, table):
    """Rewrites `table` of the report at `path` with the same columns and rows but no primary
    key or other constraint: how reports of older gsys versions declared some tables."""
    db = sqlite3.connect(path)
    cols = db.execute("PRAGMA table_info(%s)" % table).fetchall()
    db.execute("ALTER TABLE %s RENAME TO old_%s" % (table, table))
    db.execute("CREATE TABLE %s (%s)" % (table, ", ".join(
        "%s %s%s" % (c[1], c[2], " NOT NULL" if c[3] else "") for c in cols)))
    db.execute("INSERT INTO %s SELECT * FROM old_%s" % (table, table))
    db.execute("DROP TABLE old_%s" % table)
    db.commit()
    db.close()
