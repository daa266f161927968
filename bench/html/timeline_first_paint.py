# SPDX-License-Identifier: Apache-2.0
"""Time to first paint of the summary page's timeline on a 1 M-event report (issue 23 item 2).

    python3 bench/html/timeline_first_paint.py build/bin/gsys [RUNS]

Writes a report of 1,000,050 kernels (tests/html/timeline_reports.py), runs `gsys summary` on it
(the page keeps 1,000,000 events), loads the page RUNS times (default 3) in headless Chromium and
prints per run the page's own figures (window.gsysTimeline.timing): first paint in ms after
navigation start (reading and parsing the page included), decoding the data, the first draw;
then the median first paint, the page size and bytes per event."""
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "html"))
import test_browser  # noqa: E402
import test_timeline  # noqa: E402
import timeline_reports  # noqa: E402


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gsys, runs = os.path.abspath(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 3
    test_browser.Env.chromium = os.environ.get("GSYS_CHROMIUM") or "chromium"
    tmp = tempfile.mkdtemp(prefix="gsys-paint-")
    test_browser.Env.tmp = test_timeline.Env.tmp = tmp
    test_timeline.Env.gsys = gsys
    report = os.path.join(tmp, "1m.sqlite")
    timeline_reports.many_kernels(report, 1000050)
    began = time.monotonic()
    page = test_timeline.summary(report)
    made = time.monotonic() - began
    size = os.path.getsize(page)
    paints = []
    for i in range(runs):
        result, _, messages = test_timeline.probe(page, {})
        t = result["timing"]
        paints.append(t["firstPaintMs"])
        print("run %d: first paint %.0f ms (decode %.0f ms, first draw %.0f ms), console %d"
              % (i + 1, t["firstPaintMs"], t["decodeMs"], t["drawMs"], len(messages)))
    print("median first paint %.0f ms; page %.1f MB = %.1f B per event; summary %.1f s"
          % (statistics.median(paints), size / 1e6, size / 1000000.0, made))


if __name__ == "__main__":
    main()
