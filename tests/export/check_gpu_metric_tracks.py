#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""GPU metrics as counter tracks, end to end (issue 10 item 3; docs/cli/export.md).

Exports a report with GSYS_GPU_METRICS rows as perfetto and chrome and checks that every
non-NULL metric value of every row is a counter sample with the same timestamp and value, on the
track named for its metric, under the group `GPU N metrics (NAME)` of its GPU, and nothing else.
The perfetto trace is decoded here (protobuf wire format, no protoc needed).

  CI (fake NVML):  check_gpu_metric_tracks.py --gsys GSYS --nvml libgsys_test_fake_nvml.so
  a real capture:  check_gpu_metric_tracks.py --gsys GSYS --report REPORT.gsys-rep
"""
import argparse
import json
import os
import sqlite3
import struct
import subprocess
import sys
import tempfile

# GSYS_GPU_METRICS column -> (counter name, scale), as src/export/timeline/gpu_metrics_source.cc.
METRICS = [
    ("gpuUtilization", "GPU utilization (%)", 1), ("memoryUtilization", "Memory utilization (%)", 1),
    ("smClockMHz", "SM clock (MHz)", 1), ("memoryClockMHz", "Memory clock (MHz)", 1),
    ("memoryUsedBytes", "Memory used (bytes)", 1), ("powerMilliwatts", "Power (W)", 0.001),
    ("temperatureC", "Temperature (C)", 1), ("pcieTxKBps", "PCIe TX (KB/s)", 1),
    ("pcieRxKBps", "PCIe RX (KB/s)", 1), ("nvlinkTxBytes", "NVLink TX (bytes)", 1),
    ("nvlinkRxBytes", "NVLink RX (bytes)", 1), ("smActivePercent", "SM active (%)", 1),
    ("smOccupancyPercent", "SM occupancy (%)", 1), ("tensorActivePercent", "Tensor active (%)", 1),
    ("dramBandwidthPercent", "DRAM bandwidth (%)", 1),
]


def fail(msg):
    sys.exit("FAIL: " + msg)


def expected(report):
    with sqlite3.connect(report) as db:
        names = dict(db.execute("SELECT deviceId, name FROM GSYS_GPU_METRICS_DEVICES"))
        cols = ", ".join(c for c, _, _ in METRICS)
        rows = db.execute(f"SELECT timestamp, deviceId, {cols} FROM GSYS_GPU_METRICS "
                          "ORDER BY timestamp, deviceId, rowid").fetchall()
    series = {}
    for row in rows:
        dev = row[1]
        group = f"GPU {dev} metrics" + (f" ({names[dev]})" if names.get(dev) else "")
        for (_, name, scale), v in zip(METRICS, row[2:]):
            if v is not None:
                series.setdefault((group, name), []).append((row[0], float(v) * scale))
    return series, len(rows)


def varint(buf, pos):
    value = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, pos


def fields(buf):
    pos, out = 0, []
    while pos < len(buf):
        tag, pos = varint(buf, pos)
        num, wire = tag >> 3, tag & 7
        if wire == 0:
            v, pos = varint(buf, pos)
        elif wire == 1:
            v, pos = buf[pos:pos + 8], pos + 8
        elif wire == 2:
            n, pos = varint(buf, pos)
            v, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            v, pos = buf[pos:pos + 4], pos + 4
        else:
            fail(f"wire type {wire}")
        out.append((num, wire, v))
    return out


def first(fs, num):
    return next((v for n, _, v in fs if n == num), None)


def perfetto_series(path):
    with open(path, "rb") as f:
        data = f.read()
    names, counters, series, last = {}, {}, {}, 0
    for num, _, packet in fields(data):
        p = fields(packet)
        td = first(p, 60)
        if td is not None:
            t = fields(td)
            uuid, name, parent = first(t, 1), first(t, 2), first(t, 5)
            if name is not None:
                names[uuid] = name.decode()
            if first(t, 8) is not None:
                counters[uuid] = (parent, name.decode())
        te = first(p, 11)
        if te is not None:
            ts = first(p, 8)
            if ts < last:
                fail(f"perfetto timestamps go back: {ts} after {last}")
            last = ts
            e = fields(te)
            dbl = first(e, 44)
            if first(e, 9) != 4 or dbl is None:
                continue
            parent, name = counters[first(e, 11)]
            series.setdefault((names.get(parent, "?"), name), []).append(
                (ts, struct.unpack("<d", dbl)[0]))
    return series


def chrome_series(path):
    with open(path) as f:
        trace = json.load(f)
    procs = {e["pid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e.get("ph") == "M" and e.get("name") == "process_name"}
    series = {}
    for e in trace["traceEvents"]:
        if e.get("ph") == "C" and e.get("cat") == "gpu_metrics":
            series.setdefault((procs[e["pid"]], e["name"]), []).append(
                (round(e["ts"] * 1000), e["args"]["value"]))
    return series


def compare(kind, got, want):
    if got != want:
        for key in sorted(set(got) | set(want)):
            if got.get(key) != want.get(key):
                fail(f"{kind}: {key}: got {got.get(key, [])[:4]}... want {want.get(key, [])[:4]}...")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--nvml", help="fake NVML library: capture a report with it first")
    ap.add_argument("--report", help="an existing report with GSYS_GPU_METRICS rows")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys_metric_tracks_") as tmp:
        report = a.report
        if report is None:
            env = dict(os.environ, GSYS_NVML_LIBRARY=a.nvml)
            out = os.path.join(tmp, "m")
            p = subprocess.run([a.gsys, "profile", "-f", "true", "-o", out, "-t", "none",
                                "--gpu-metrics-devices=all", "--gpu-metrics-frequency=100",
                                "sleep", "0.3"], env=env, capture_output=True, text=True)
            if p.returncode != 0:
                fail(p.stderr)
            report = out + ".gsys-rep"
        want, rows = expected(report)
        if not want:
            fail(f"{report} has no GSYS_GPU_METRICS values")
        for kind, parse in (("perfetto", perfetto_series), ("chrome", chrome_series)):
            path = os.path.join(tmp, "trace." + kind)
            p = subprocess.run([a.gsys, "export", "--type", kind, "-f", "true", "-o", path,
                                report], capture_output=True, text=True)
            if p.returncode != 0:
                fail(p.stderr)
            compare(kind, parse(path), want)
        groups = sorted({g for g, _ in want})
        print(f"gpu metric tracks: {rows} rows -> {len(want)} counter tracks "
              f"({sum(len(v) for v in want.values())} samples) in {groups}, perfetto and chrome "
              "exact")


if __name__ == "__main__":
    main()
