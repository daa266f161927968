# SPDX-License-Identifier: Apache-2.0
"""Runs HTA's analyses on one directory of Kineto traces and prints what check_kineto_hta.py
compares, as JSON. Runs under a Python that has pandas (Debian's), with HTA on PYTHONPATH.

  hta_probe.py TRACE_DIR
"""
import collections
import json
import logging
import sys
import time


def main():
    logging.disable(logging.WARNING)  # HTA logs every parse step
    start = time.monotonic()
    from hta.trace_analysis import TraceAnalysis
    ta = TraceAnalysis(trace_dir=sys.argv[1])
    loaded = time.monotonic() - start
    ranks = sorted(ta.t.traces.keys())
    out = {"ranks": ranks, "load_seconds": loaded}
    sym = ta.t.symbol_table.get_sym_table()
    # Per-name kernel totals from HTA's kernel breakdown (every kernel kept: no "others" row).
    _, per_kernel = ta.get_gpu_kernel_breakdown(visualize=False, duration_ratio=1.0,
                                                num_kernels=1 << 30, image_renderer=None)
    sums = collections.defaultdict(float)
    for row in per_kernel.itertuples(index=False):
        sums[row.name] += getattr(row, "_1")  # "sum (us)"
    out["kernel_sum_us"] = sums
    # Counts per name and memory bytes from HTA's parsed trace frames.
    counts = collections.Counter()
    nbytes = collections.Counter()
    for rank in ranks:
        df = ta.t.get_trace(rank)
        for name, cat, b in zip(df["name"], df["cat"], df["bytes"] if "bytes" in df else
                                [0] * len(df)):
            if sym[cat] == "kernel":
                counts[sym[name]] += 1
            elif sym[cat] in ("gpu_memcpy", "gpu_memset"):
                nbytes[sym[cat]] += int(b)
    out["kernel_count"] = counts
    out["bytes"] = nbytes
    launches = ta.get_cuda_kernel_launch_stats(ranks=ranks, visualize=False)
    out["launch_rows"] = {str(r): len(df) for r, df in launches.items()}
    queue = ta.get_queue_length_summary(ranks=ranks)
    out["queue"] = [[int(r), int(s), float(c), float(m)] for (r, s), c, m in zip(
        queue.index, queue[("queue_length", "count")], queue[("queue_length", "max")])]
    temporal = ta.get_temporal_breakdown(visualize=False)
    out["temporal"] = temporal[["rank", "kernel_time(us)", "idle_time(us)",
                                "compute_time(us)"]].values.tolist()
    idle, _ = ta.get_idle_time_breakdown(ranks=ranks, visualize=False)
    out["idle"] = idle[["rank", "stream", "idle_category", "idle_time"]].values.tolist()
    overlap = ta.get_comm_comp_overlap(visualize=False)
    out["overlap_ranks"] = sorted(int(r) for r in overlap["rank"])
    out["overlap_pctg"] = {str(int(r)): None if v != v else float(v) for r, v in zip(
        overlap["rank"], overlap["comp_comm_overlap_pctg"])}
    bw = ta.get_memory_bw_summary(ranks=ranks)
    out["membw"] = [] if bw is None else [
        [int(r), n, float(c)] for (r, n), c in zip(bw.index, bw[("memory_bw_gbps", "count")])]
    out["seconds"] = time.monotonic() - start
    json.dump(out, sys.stdout, default=int)


if __name__ == "__main__":
    main()
