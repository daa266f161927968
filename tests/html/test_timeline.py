# SPDX-License-Identifier: Apache-2.0
"""The summary page's timeline in headless Chromium (issue 23 item 2), for a GPU nsys fixture, a
CPU-only capture and a 1 M-event report: no console message, every event of the report in the
data, Ctrl+wheel zoom around the pointer, drag pan, Reset, hover, click and Shift+drag range
selection by synthetic input events, and what the canvas shows (pixel probes). The 1 M-event page
must find its one slow kernel by zooming and stay drawn by aggregation when zoomed out. Exits 77
(ctest SKIP) without Chromium; the fixture case skips with one line without the nsys fixtures."""
import argparse
import base64
import html
import json
import math
import os
import re
import shutil
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import test_browser  # noqa: E402
import timeline_reports  # noqa: E402

SKIP = 77
FIXTURE = "nsys2022.4-cuda-vectoradd-streams-memcpy"
MIDDOT = "\u00b7"


class Env:
    gsys = None
    fixtures = None
    tmp = None


def summary(report, *extra, out=None):
    out = out or os.path.join(Env.tmp, os.path.basename(report).rsplit(".", 1)[0] + ".html")
    subprocess.run([Env.gsys, "summary", "-q", "-f", "-o", out, report, *extra], check=True)
    return out


def probe(page, params):
    """Loads `page` with timeline_probe.js appended; returns (results, DOM, console messages)."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    with open(os.path.join(HERE, "timeline_probe.js"), encoding="utf-8") as f:
        script = "<script>var P = %s;\n%s</script>" % (json.dumps(params), f.read())
    probed = page[:-5] + ".probe.html"
    with open(probed, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", script + "</body>"))
    proc = test_browser.run_chromium("--dump-dom", "file://" + probed)
    found = re.search(r'<pre id="gsys-probe">(.*?)</pre>', proc.stdout, re.S)
    if os.environ.get("GSYS_DEBUG_PROBE"):
        print(proc.stdout[-3000:], proc.stderr[-3000:])
    if not found:
        raise AssertionError("no probe output (exit %d): %s"
                             % (proc.returncode, proc.stderr[-2000:]))
    result = json.loads(html.unescape(found.group(1)))
    return result, proc.stdout, test_browser.console_messages(proc.stderr)


def page_data(page):
    """The timeline's JSON data block of `page`."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    return json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>',
                                text, re.S).group(1))


def count_events(path):
    """Timeline events of a report, counted independently in SQL."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    queries = {
        "CUPTI_ACTIVITY_KIND_KERNEL": "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL",
        "CUPTI_ACTIVITY_KIND_MEMCPY": "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY",
        "CUPTI_ACTIVITY_KIND_MEMSET": "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET",
        "CUPTI_ACTIVITY_KIND_RUNTIME": "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME",
        "OSRT_API": "SELECT count(*) FROM OSRT_API WHERE eventClass NOT IN (31, 32)",
        "NVTX_EVENTS": "SELECT count(*) FROM NVTX_EVENTS WHERE eventType IN (59, 60, 70, 71)"
                       " AND end IS NOT NULL AND end >= start",
        "COMPOSITE_EVENTS": "SELECT count(*) FROM COMPOSITE_EVENTS",
    }
    return sum(con.execute(q).fetchone()[0] for t, q in queries.items() if t in tables)


class Timeline(unittest.TestCase):
    def check_common(self, result, messages):
        self.assertEqual(messages, [], "console messages: %s" % messages)
        self.assertNotIn("error", result, result.get("error"))
        self.assertTrue(result["present"])
        self.assertEqual(result["clippedLabels"], [])  # no chart label runs off the left edge
        # Ctrl+wheel zoomed in by exp(-1) around the pointer and kept the page from scrolling.
        z = result["zoom"]
        span0 = z["before"]["t1"] - z["before"]["t0"]
        span1 = z["after"]["t1"] - z["after"]["t0"]
        self.assertTrue(result["zoomPrevented"])
        self.assertAlmostEqual(span1 / span0, math.exp(-1), places=6)
        self.assertAlmostEqual(z["tAfter"], z["tBefore"], delta=span0 * 1e-9)
        # The drag of 100 px panned left by 100 px worth of time.
        p = result["pan"]
        self.assertAlmostEqual(p["before"]["t0"] - p["after"]["t0"], p["expected"],
                               delta=p["expected"] * 1e-6)
        self.assertAlmostEqual(result["reset"]["t0"], result["full"]["t0"])
        self.assertAlmostEqual(result["reset"]["t1"], result["full"]["t1"])

    def test_gpu_fixture(self):
        report = os.path.join(Env.fixtures, FIXTURE + ".sqlite")
        if not os.path.exists(report):
            self.skipTest("nsys fixtures not found: " + os.path.abspath(Env.fixtures))
        page = summary(report)
        con = sqlite3.connect("file:%s?mode=ro" % report, uri=True)
        start, end, stream, name = con.execute(
            "SELECT k.start, k.end, k.streamId, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN"
            " StringIds s ON s.id = k.demangledName ORDER BY k.end - k.start DESC LIMIT 1"
        ).fetchone()
        row = "GPU 0 %s stream %d" % (MIDDOT, stream)
        result, dom, messages = probe(page, {"target": {"t0": start, "t1": end, "row": row}})
        self.check_common(result, messages)
        self.assertEqual(result["eventCount"], count_events(report))
        self.assertEqual(result["leftOut"], 0)
        labels = [r["label"] for r in result["rows"]]
        self.assertIn(row, labels)
        self.assertTrue(any(l.endswith(MIDDOT + " OS runtime") for l in labels), labels)
        for r, ink in zip(result["rows"], result["ink0"]):
            if ink >= 0:
                self.assertGreater(ink, 0, r["label"])  # every row on screen shows its events
        self.check_target(result, name)

    def check_target(self, result, name):
        self.assertTrue(result["targetRow"])
        self.assertGreater(result["targetPixels"]["width"], 40)  # zoomed until it is wide
        self.assertGreater(result["targetPixels"]["ink"],
                           0.5 * (result["targetPixels"]["width"] - 2) * 14)
        self.assertEqual(result["tooltip"][0], name)  # the full name on hover
        self.assertIn("kernel, ", result["tooltip"][1])
        self.assertGreaterEqual(result["selected"], 0)
        self.assertIn(name, result["detail"])
        self.assertIn(name, result["selection"])  # the range's kernel table lists it
        self.assertRegex(result["selectionText"], r"^\d+ kernels? \(\d+ distinct\) overlap ")

    def test_cpu_only(self):
        report = timeline_reports.cpu_only(os.path.join(Env.tmp, "cpu.sqlite"))
        page = summary(report)
        pid, tid = timeline_reports.PID, timeline_reports.TID
        main = "trainer [%d] %s %d (main-thread) %s " % (pid, MIDDOT, pid, MIDDOT)
        other = "trainer [%d] %s %d %s " % (pid, MIDDOT, tid, MIDDOT)
        result, dom, messages = probe(page, {"hover": [main + "NVTX", other + "OS runtime",
                                                       main + "CPU samples",
                                                       main + "scheduling",
                                                       main + "library calls"]})
        self.check_common(result, messages)
        # No GPU table, yet a timeline and the NVTX and OS runtime charts.
        self.assertEqual(result["charts"], ["chart bar", "chart bar"])
        self.assertIn("Top NVTX ranges by total time", dom)
        self.assertIn("Top OS runtime calls by total time", dom)
        # Ranges, marks, reads, samples, the 10 closed scheduling spans (the last switch in has
        # no end and is left out), 5 cuBLAS calls.
        self.assertEqual(result["eventCount"], 30 + 10 + 50 + 1000 + 10 + 5)
        rows = {r["label"]: r for r in result["rows"]}
        self.assertEqual(sorted(rows), sorted([main + "NVTX", main + "CPU samples",
                                               main + "scheduling", main + "library calls",
                                               other + "OS runtime"]))
        self.assertEqual(rows[main + "NVTX"]["height"], 2 * 16)  # step holds forward: 2 lanes
        self.assertTrue(rows[main + "CPU samples"]["density"])
        self.assertTrue(all(ink > 100 for ink in result["ink0"]), result["ink0"])
        nvtx, osrt, samples, sched, library = result["hovers"]
        self.assertEqual(nvtx[0], "step")
        self.assertEqual(osrt[0], "read")
        self.assertRegex(samples[0], r"^\d+ CPU samples? here$")
        self.assertEqual(samples[1], "e.g. hot_loop")
        self.assertEqual(sched[0], "Running")
        self.assertTrue(sched[1].startswith("running, 9"), sched)
        self.assertRegex(sched[3], r"^CPU [01], then waiting$")
        self.assertEqual(library[0], "cublasSgemm_v2")
        self.assertTrue(library[1].startswith("library call, 1"), library)
        # The kinds the page carries: 10 NVTX marks (8) named 'checkpoint', 10 spans running (7).
        data = page_data(page)
        kinds = base64.b64decode(data["kind"])
        self.assertEqual(kinds.count(8), 10)
        self.assertEqual(kinds.count(7), 10)
        names = struct.unpack("<%dI" % data["n"], base64.b64decode(data["name"]))
        self.assertEqual({data["strings"][names[i]] for i, k in enumerate(kinds) if k == 8},
                         {"checkpoint"})
        # A hostile NVTX name is data, never markup: only the page's two script blocks and the
        # probe exist, and the name shows escaped.
        self.assertEqual(result["scripts"], 3)
        self.assertNotIn("<script>alert", dom)

    def test_filter_time_applies_to_the_timeline(self):
        report = timeline_reports.cpu_only(os.path.join(Env.tmp, "cpu-filtered.sqlite"))
        page = summary(report, "--filter-time", "0/25ms")
        with open(page, encoding="utf-8") as f:
            text = f.read()
        data = json.loads(re.search(r'<script type="application/json"[^>]*>(.*?)</script>',
                                    text, re.S).group(1))
        # NVTX: steps 0-2 with their forward ranges and the backward ranges of steps 0-1 (step
        # 2's starts at 25 ms, outside the half-open window); marks at 9.5 and 19.5 ms; reads
        # every 2 ms: 13; samples every 100 us before 25 ms: 250; scheduling spans starting at 0,
        # 10 and 20 ms; cuBLAS calls at 2, 12 and 22 ms.
        self.assertEqual(data["n"], 8 + 2 + 13 + 250 + 3 + 3)
        self.assertIn("Only events overlapping 0/25ms (--filter-time)", text)

    def test_one_million_events(self):
        report = os.path.join(Env.tmp, "1m.sqlite")
        n = 1000050
        t0, t1 = timeline_reports.many_kernels(report, n)
        began = time.monotonic()
        page = summary(report)
        made = time.monotonic() - began
        size = os.path.getsize(page)
        stream = 7 + (n // 2) % 4
        row = "GPU 0 %s stream %d" % (MIDDOT, stream)
        result, dom, messages = probe(page, {"target": {"t0": t0, "t1": t1, "row": row}})
        self.check_common(result, messages)
        self.assertEqual(result["eventCount"], 1000000)
        self.assertEqual(result["leftOut"], 50)
        self.assertIn("first 1,000,000 events by start time; 50 later events were left out", dom)
        # Zoomed out, a million events cost a few thousand rectangles (level of detail).
        stats = result["stats0"]
        self.assertEqual(stats["visible"], 1000000)
        self.assertLess(stats["drawn"] + stats["aggregated"], 4 * 1200 + 100)
        self.assertGreater(stats["aggregated"], 1000)
        self.check_target(result, timeline_reports.SLOW)
        self.assertLess(result["statsZoomed"]["visible"], 100000)
        self.assertLess(size, 1000000 * 30 + 2 * 1024 * 1024)  # ~29.3 B per event, see docs
        print("1M-event page: %.1f MB, summary %.1f s, first paint %.0f ms after navigation "
              "(decode %.0f ms, first draw %.0f ms)" % (
                  size / 1e6, made, result["timing"]["firstPaintMs"],
                  result["timing"]["decodeMs"], result["timing"]["drawMs"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--fixtures", required=True)
    args, rest = ap.parse_known_args()
    test_browser.Env.chromium = (os.environ.get("GSYS_CHROMIUM") or shutil.which("chromium")
                                 or shutil.which("chromium-browser"))
    if not test_browser.Env.chromium:
        print("SKIP: no Chromium found (install Debian's chromium, see tools/install_deps.sh, "
              "or set GSYS_CHROMIUM)")
        sys.exit(SKIP)
    Env.gsys, Env.fixtures = os.path.abspath(args.gsys), args.fixtures
    Env.tmp = test_browser.Env.tmp = tempfile.mkdtemp(prefix="gsys-timeline-")
    try:
        result = unittest.main(module="__main__", argv=[sys.argv[0], *rest], exit=False,
                               verbosity=2).result
    finally:
        if os.environ.get("GSYS_KEEP_BROWSER_PAGES"):
            print("pages kept in", Env.tmp)
        else:
            shutil.rmtree(Env.tmp, ignore_errors=True)
    for _, reason in result.skipped:
        print("SKIPPED: %s" % reason)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
