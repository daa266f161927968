# SPDX-License-Identifier: Apache-2.0
"""gsys's HTML pages in headless Chromium: a summary of the 2-GPU nsys fixture, a synthetic page with
every block type and a page of empty blocks. For each page: no console message at all (script
errors, blocked fetches), names from the data render as text, tables sort when a header is
clicked, and a screenshot shows the charts drawn inside their boxes. Exits 77 (ctest SKIP) when
no Chromium is installed."""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import png_pixels  # noqa: E402

SKIP = 77
WIDTH, HEIGHT = 1200, 1800
FLAGS = ["--headless=new", "--disable-gpu", "--no-sandbox", "--hide-scrollbars",
         "--force-device-scale-factor=1", "--window-size=%d,%d" % (WIDTH, HEIGHT),
         "--no-first-run", "--no-default-browser-check", "--disable-extensions",
         "--disable-background-networking", "--disable-sync", "--mute-audio",
         "--disable-features=MediaRouter", "--enable-logging=stderr", "--v=0"]
EVIL_TEXT = "<script>alert('x')</script> & \"q\""

# Appended to a copy of a page: measures each chart and section, clicks table headers, and
# leaves the results as JSON in <pre id="gsys-probe"> for --dump-dom.
PROBE = r"""<script>
(function () {
  function box(e) {
    var r = e.getBoundingClientRect();
    return {x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height,
            cls: e.getAttribute('class'), id: e.id};
  }
  var out = {charts: Array.prototype.map.call(document.querySelectorAll('svg.chart'), box),
             sections: Array.prototype.map.call(document.querySelectorAll('section'), box),
             scripts: document.querySelectorAll('script').length};
  var t = document.querySelector('section.table table.sortable');
  if (t) {
    var th = t.tHead.rows[0].cells;
    var col = function (i) {
      return Array.prototype.map.call(t.tBodies[0].rows, function (r) { return r.cells[i].textContent; });
    };
    out.sort = {};
    if (th.length > 1) {
      th[1].click(); out.sort.second_once = col(1);
      th[1].click(); out.sort.second_twice = col(1);
    }
    th[0].click(); out.sort.first_once = col(0);
    out.sort.first_aria = th[0].getAttribute('aria-sort');
  }
  var pre = document.createElement('pre');
  pre.id = 'gsys-probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>
"""


class Env:
    chromium = None
    gsys = None
    demo = None
    fixtures = None
    tmp = None
    runs = 0


def run_chromium(*args):
    Env.runs += 1
    profile = os.path.join(Env.tmp, "profile-%d" % Env.runs)
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS="disabled:")
    proc = subprocess.run([Env.chromium, *FLAGS, "--user-data-dir=" + profile, *args],
                          capture_output=True, text=True, timeout=180, env=env)
    return proc


def console_messages(stderr):
    """Every message a page wrote to the console (Chromium logs them all, errors included, as
    CONSOLE lines with --enable-logging=stderr)."""
    return [m.group(1) for m in re.finditer(r"CONSOLE[:(]\d*\)?\]\s*(.*)", stderr)]


def probe(page):
    """Dumps the DOM of `page` plus PROBE; returns (probe results, DOM text, console messages)."""
    with open(page, encoding="utf-8") as f:
        text = f.read()
    probed = page[:-5] + ".probe.html"
    with open(probed, "w", encoding="utf-8") as f:
        f.write(text.replace("</body>", PROBE + "</body>"))
    proc = run_chromium("--dump-dom", "file://" + probed)
    found = re.search(r'<pre id="gsys-probe">(.*?)</pre>', proc.stdout, re.S)
    if not found:
        raise AssertionError("no probe output (exit %d): %s" % (proc.returncode, proc.stderr[-2000:]))
    return json.loads(html.unescape(found.group(1))), proc.stdout, console_messages(proc.stderr)


def screenshot(page, rows=HEIGHT):
    """Screenshot of `page` at WIDTH x HEIGHT, decoded down to row `rows`."""
    png = page[:-5] + ".png"
    proc = run_chromium("--screenshot=" + png, "file://" + page)
    if not os.path.exists(png):
        raise AssertionError("no screenshot (exit %d): %s" % (proc.returncode, proc.stderr[-2000:]))
    with open(png, "rb") as f:
        image = png_pixels.decode(f.read(), max_rows=int(rows) + 1)
    assert image.width == WIDTH, image.width
    return image, console_messages(proc.stderr)


def colored(r, g, b):
    """Chart ink: saturated pixels (text, axes, grid and table stripes are gray)."""
    return max(r, g, b) - min(r, g, b) > 40


def dark_blue(r, g, b):
    return b > r + 60 and b > 100  # the heat map's busy end and the bars


def orange(r, g, b):
    return r > 200 and 100 < g < 190 and b < 110  # the second line series


def rect(box):
    return (box["x"], box["y"], box["w"], box["h"])


class Pages(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        subprocess.run([Env.demo, Env.tmp], check=True)
        cls.summaries = []
        # The summary pages need a real nsys export (not in the repository); the demo pages do not.
        names = ["nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice"]
        for name in names if os.path.isdir(Env.fixtures) else []:
            out = os.path.join(Env.tmp, name + ".html")
            subprocess.run([Env.gsys, "summary", "-q", "-o", out,
                            os.path.join(Env.fixtures, name + ".sqlite")], check=True)
            cls.summaries.append(out)

    def check_no_console(self, messages):
        self.assertEqual(messages, [], "console messages: %s" % messages)

    def test_console_check_sees_errors(self):
        # The checker itself: a script error and a blocked fetch (the pages' CSP) are seen.
        with open(os.path.join(Env.tmp, "all.html"), encoding="utf-8") as f:
            text = f.read()
        bad = os.path.join(Env.tmp, "bad.html")
        with open(bad, "w", encoding="utf-8") as f:
            f.write(text.replace("</body>", '<img src="http://192.0.2.1/x.png">'
                                 "<script>null.boom();</script></body>"))
        _, _, messages = probe(bad)
        self.assertTrue(any("boom" in m for m in messages), messages)
        self.assertTrue(any("Content Security Policy" in m for m in messages), messages)

    def test_every_block_type(self):
        page = os.path.join(Env.tmp, "all.html")
        result, dom, messages = probe(page)
        self.check_no_console(messages)
        # Names holding markup are text: only the page's script and the probe are scripts.
        self.assertEqual(result["scripts"], 2)
        self.assertNotIn("<script>alert", dom)
        self.assertIn("&lt;script&gt;alert('x')&lt;/script&gt; &amp; \"q\"", dom)
        self.assertEqual([c["cls"] for c in result["charts"]],
                         ["chart heatmap", "chart line", "chart bar"])
        sort = result["sort"]
        self.assertEqual(sort["second_once"], ["3,000.5", "1,000", "400", "20", ""])
        self.assertEqual(sort["second_twice"], ["20", "400", "1,000", "3,000.5", ""])
        self.assertEqual(sort["first_once"], [EVIL_TEXT, "a", "b", "c", "d"])
        self.assertEqual(sort["first_aria"], "ascending")

        table = [s for s in result["sections"] if s["cls"] == "block table"][0]
        image, messages = screenshot(page, table["y"] + table["h"])
        self.check_no_console(messages)
        heat, line, bar = (rect(c) for c in result["charts"])
        for box in (heat, line, bar):
            self.assertLessEqual(box[1] + box[3], HEIGHT, "chart below the screenshot")
        self.assertGreater(image.count(dark_blue, heat), 3000)      # the busy cells
        self.assertGreater(image.count(orange, line), 300)          # series 2
        self.assertGreater(image.count(dark_blue, line), 300)       # series 1
        self.assertGreater(image.count(dark_blue, bar), 3000)       # the bars
        self.assertLess(image.count(colored, rect(table)), 50)      # tables hold no chart ink

    def test_empty_blocks(self):
        page = os.path.join(Env.tmp, "empty.html")
        result, dom, messages = probe(page)
        self.check_no_console(messages)
        self.assertEqual(result["charts"], [])
        self.assertEqual(dom.count("No data."), 3)
        self.assertIn("No rows.", dom)
        bottom = max(s["y"] + s["h"] for s in result["sections"])
        image, messages = screenshot(page, bottom)
        self.check_no_console(messages)
        for section in result["sections"]:  # no chart ink anywhere
            self.assertLess(image.count(colored, rect(section)), 20, section)

    def test_summaries(self):
        if not self.summaries:
            self.skipTest("nsys fixtures not found: " + os.path.abspath(Env.fixtures))
        for page in self.summaries:
            with self.subTest(page=os.path.basename(page)):
                result, dom, messages = probe(page)
                self.check_no_console(messages)
                kinds = [c["cls"] for c in result["charts"]]
                # Utilization, top kernels, top NVTX ranges (the timeline is a canvas).
                self.assertEqual(kinds, ["chart heatmap", "chart bar", "chart bar"])
                self.assertIn("sort", result)  # the first table sorted without an error
                heat, bar = (rect(c) for c in result["charts"][:2])
                self.assertLessEqual(bar[1] + bar[3], HEIGHT)
                image, messages = screenshot(page, bar[1] + bar[3])
                self.check_no_console(messages)
                self.assertGreater(image.count(colored, heat), 500)
                self.assertGreater(image.count(dark_blue, bar), 500)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--demo", required=True, help="gsys_html_demo_pages")
    ap.add_argument("--fixtures", required=True)
    args, rest = ap.parse_known_args()
    Env.chromium = (os.environ.get("GSYS_CHROMIUM") or shutil.which("chromium")
                    or shutil.which("chromium-browser"))
    if not Env.chromium:
        print("SKIP: no Chromium found (install Debian's chromium, see tools/install_deps.sh, "
              "or set GSYS_CHROMIUM)")
        sys.exit(SKIP)
    Env.gsys, Env.demo, Env.fixtures = (os.path.abspath(args.gsys), os.path.abspath(args.demo),
                                        args.fixtures)
    Env.tmp = tempfile.mkdtemp(prefix="gsys-browser-")
    try:
        result = unittest.main(module="__main__", argv=[sys.argv[0], *rest], exit=False,
                               verbosity=2).result
    finally:
        if os.environ.get("GSYS_KEEP_BROWSER_PAGES"):
            print("pages and screenshots kept in", Env.tmp)
        else:
            shutil.rmtree(Env.tmp, ignore_errors=True)
    if result.wasSuccessful() and result.skipped:
        print("SKIPPED: %s (optional: ../shared/fixtures/nsys beside the checkout, see "
              "tests/README.md)" % result.skipped[0][1])
        sys.exit(SKIP)
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
