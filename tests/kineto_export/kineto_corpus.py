# SPDX-License-Identifier: Apache-2.0
"""Shared by the kineto_export tests: the project's corpus captures (tests/parity/corpus), gsys's
Kineto export of one, and gsys's own stats on the same report."""
import csv
import glob
import json
import lzma
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(os.path.dirname(HERE), "parity", "corpus")
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "lib"))
import report_db  # noqa: E402

CAPTURES = ["copies_streams", "cublas_gemm", "cuda_graph_graph", "cuda_graph_node", "nvtx_shapes",
            "torch_train", "two_process"]
SOURCES = {"gsys": ("gsys.gsys-rep.xz", "gsys.gsys-rep"), "nsys": ("nsys.sqlite.xz", "nsys.sqlite")}
GPU_PID_BASE = 1 << 24  # docs/pytorch.md: GPU N is pid 2^24 + N


def unpack(capture, tmp, source="gsys"):
    """The capture's report (gsys's or nsys's export), decompressed into `tmp`."""
    packed, name = SOURCES[source]
    out = os.path.join(tmp, capture + "." + name)
    with lzma.open(os.path.join(CORPUS, capture, packed)) as f, open(out, "wb") as o:
        o.write(f.read())
    return out


def export(gsys, report, out_dir):
    """Runs `gsys export --type kineto`; returns {file name: parsed JSON}."""
    proc = subprocess.run([gsys, "export", "--type", "kineto", "-o", out_dir, report],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError("gsys export --type kineto failed: " + proc.stderr)
    traces = {}
    for path in sorted(glob.glob(os.path.join(out_dir, "*"))):
        with open(path, encoding="utf-8") as f:
            traces[os.path.basename(path)] = json.load(f)
    return traces


def stats(gsys, report, name, tmp):
    """Rows (dicts) of `gsys stats -r NAME --format csv` on `report`."""
    base = os.path.join(tmp, "stats")
    proc = subprocess.run([gsys, "stats", "-q", "-r", name, "--format", "csv", "-o", base,
                           "--force-overwrite", report], capture_output=True, text=True)
    if proc.returncode != 0:
        raise AssertionError("gsys stats -r %s failed: %s" % (name, proc.stderr))
    path = "%s_%s.csv" % (base, name)
    if not os.path.exists(path):
        return []  # no data for this report
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def db(report):
    return report_db.connect(report)
