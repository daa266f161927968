# SPDX-License-Identifier: Apache-2.0
"""An independent reading of a Kineto trace with Python's json (no gsys code): what `gsys import`
must find in it. Times are nanoseconds computed from the decimal text (Decimal, truncated toward
zero), as exact as the trace."""
import collections
import gzip
import json
from decimal import Decimal


def load(path):
    opener = gzip.open if open(path, "rb").read(2) == b"\x1f\x8b" else open
    with opener(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"), parse_float=Decimal)


def ns(us):
    return int(Decimal(us) * 1000)


def kernel_name(name):
    """nsys's spelling of a kernel name: CUPTI's "(anonymous namespace)" is "<unnamed>" there."""
    return name.replace("(anonymous namespace)", "<unnamed>")


def events(trace):
    return trace if isinstance(trace, list) else trace.get("traceEvents", [])


def scan(path):
    """Counts per category, kernels per name (count, total ns), copy/memset bytes, NCCL totals."""
    out = {"kernels": collections.defaultdict(lambda: [0, 0]), "cpu_op": 0,
           "user_annotation": 0, "python_function": 0, "runtime": 0, "driver": 0,
           "memcpy": 0, "memcpy_bytes": 0, "memset": 0, "memset_bytes": 0, "sync": 0,
           "nccl_kernels": 0, "nccl_ns": 0, "collectives": 0, "collective_in_nelems": 0}
    cats = {"cpu_op": "cpu_op", "operator": "cpu_op", "user_annotation": "user_annotation",
            "python_function": "python_function", "cuda_runtime": "runtime",
            "runtime": "runtime", "cuda_driver": "driver", "driver": "driver",
            "gpu_memcpy": "memcpy", "memcpy": "memcpy", "gpu_memset": "memset",
            "memset": "memset", "cuda_sync": "sync"}
    for e in events(load(path)):
        if e.get("ph") != "X":
            continue
        cat = str(e.get("cat", "")).lower()
        args = e.get("args", {})
        if cat == "kernel":
            k = out["kernels"][kernel_name(e["name"])]
            k[0] += 1
            k[1] += ns(e.get("dur", 0))
            if e["name"].lower().startswith("nccl"):
                out["nccl_kernels"] += 1
                out["nccl_ns"] += ns(e.get("dur", 0))
        elif cat in cats:
            out[cats[cat]] += 1
            if cats[cat] in ("memcpy", "memset"):
                out[cats[cat] + "_bytes"] += int(args.get("bytes", 0))
        if cat in ("kernel", "cpu_op") and "Collective name" in args:
            out["collectives"] += 1
            out["collective_in_nelems"] += int(args.get("In msg nelems", 0))
    out["kernels"] = {k: tuple(v) for k, v in out["kernels"].items()}
    return out


def from_report(db):
    """The same figures read back from an imported report (a sqlite3 connection)."""
    out = {"kernels": {}}
    for name, n, total in db.execute(
            "SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
            "JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value"):
        out["kernels"][name] = (n, total)
    q = lambda sql: db.execute(sql).fetchone()[0] or 0
    for cat, c in (("cpu_op", 1), ("user_annotation", 2), ("python_function", 3)):
        out[cat] = q("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59 AND category = %d" % c)
    out["runtime"] = q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 0")
    out["driver"] = q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE eventClass = 1")
    out["memcpy"] = q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY")
    out["memcpy_bytes"] = q("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY")
    out["memset"] = q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET")
    out["memset_bytes"] = q("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMSET")
    out["sync"] = q("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION")
    nccl = [v for k, v in out["kernels"].items() if k.lower().startswith("nccl")]
    out["nccl_kernels"] = sum(n for n, _ in nccl)
    out["nccl_ns"] = sum(t for _, t in nccl)
    out["collectives"] = q("SELECT count(*) FROM GSYS_COLLECTIVES")
    out["collective_in_nelems"] = q("SELECT sum(inNelems) FROM GSYS_COLLECTIVES")
    return out


def kern_sum_csv(text):
    """`gsys stats -r cuda_gpu_kern_sum -f csv` output -> {name: (instances, total ns)}."""
    import csv
    import io
    rows = list(csv.DictReader(io.StringIO(text)))
    return {r["Name"]: (int(r["Instances"]), int(r["Total Time (ns)"])) for r in rows}
