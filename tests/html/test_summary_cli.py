# SPDX-License-Identifier: Apache-2.0
"""gsys summary: pages for every nsys fixture, GPU busy time checked against an independent
interval union, escaping of names taken from the report, no-GPU reports, and bad input with the
exit codes of gsys stats."""
import html
import os
import re
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cli"))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from intervals import union_length  # noqa: E402
from cli_harness import (EXIT_BAD_INPUT, EXIT_IO, EXIT_NOT_FOUND, EXIT_UNSUPPORTED,  # noqa: E402
                         EXIT_USAGE, CliTestCase, Paths, fixture, gsys, gsys_stderr_on_tty,
                         main)

FIXTURES = [
    "nsys2020.3-python-nvtx-cudf.sqlite",
    "nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite",
    "nsys2023.1-tensorrt-resnet-nvtx.sqlite",
    "nsys2024.6-nvfuser-hopper-matmul-nvtx.sqlite",
    "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite",
    "nsys2026.2-torchrun-2gpu-nccl-nvtx-DERIVED-slice.sqlite",
]
GPU_TABLES = ["CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
              "CUPTI_ACTIVITY_KIND_MEMSET"]


def busy_ns_per_device(path):
    """Union of kernel/memcpy/memset intervals per device, merged in Python."""
    con = sqlite3.connect("file:%s?mode=ro" % path, uri=True)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    intervals = {}
    for t in GPU_TABLES:
        if t in tables:
            for dev, s, e in con.execute("SELECT deviceId, start, end FROM %s WHERE end > start" % t):
                intervals.setdefault(dev, []).append((s, e))
    return {dev: union_length(ivs) for dev, ivs in intervals.items()}


def gpu_table_rows(page):
    """Rows of the page's "GPU utilization" table as lists of cell texts."""
    section = re.search(r'<h2>GPU utilization</h2>.*?</table>', page, re.S).group(0)
    body = section.split("<tbody>")[1]
    return [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
            for row in re.findall(r"<tr>(.*?)</tr>", body)]


class SummaryCli(CliTestCase):
    def run_summary(self, report, *extra):
        out = os.path.join(self.tmp, "page.html")
        proc = gsys("summary", report, "-o", out, *extra)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        # Only nsys's own notes on its capture (the 2025.1 fixture: perf paranoid level).
        self.assertEqual([l for l in proc.stderr.splitlines()
                          if "nsys noted about its capture: " not in l], [])
        self.assertEqual(proc.stdout, "Wrote [%s]\n" % out)
        with open(out, encoding="utf-8") as f:
            return f.read()

    def test_every_fixture_and_busy_time(self):
        for name in FIXTURES:
            with self.subTest(fixture=name):
                page = self.run_summary(fixture(name), "-f")
                self.assertTrue(page.startswith("<!DOCTYPE html>"))
                self.assertTrue(page.endswith("</html>\n"))
                busy = busy_ns_per_device(fixture(name))
                if not busy:
                    self.assertIn("holds no GPU activity", page)
                    continue
                self.assertEqual(page.count('<svg class="chart heatmap"'), 1)
                rows = gpu_table_rows(page)
                self.assertEqual([r[0] for r in rows], ["GPU %d" % d for d in sorted(busy)])
                for row, dev in zip(rows, sorted(busy)):
                    self.assertEqual(row[4], "%.3f" % (busy[dev] / 1e9), row)

    def test_stdout_default_name_quiet_and_overwrite(self):
        proc = gsys("summary", fixture(), "-o", "-")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertTrue(proc.stdout.startswith("<!DOCTYPE html>"))
        copy = os.path.join(self.tmp, "run1.sqlite")
        shutil.copy(fixture(), copy)
        proc = gsys("summary", "-q", copy)
        self.assertEqual((proc.returncode, proc.stdout, proc.stderr), (0, "", ""))
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "run1.html")))
        again = gsys("summary", copy)
        self.assertOneLineError(again, EXIT_IO, "summary: output", "run1.html", "already exists")
        self.assertEqual(gsys("summary", copy, "-f").returncode, 0)
        self.assertEqual(gsys("summary", copy, "--force-overwrite=true").returncode, 0)

    def test_footer_says_what_made_the_page(self):
        page = self.run_summary(fixture(), "--bins", "7")
        line = re.search(r'<p class="provenance">(.*?)</p>', page)
        self.assertIsNotNone(line)
        version = gsys("--version").stdout.split()[-1]
        self.assertEqual(html.unescape(line.group(1)),
                         "Made by gsys %s from %s: gsys summary %s -o %s --bins 7" %
                         (version, os.path.abspath(fixture()), fixture(),
                          os.path.join(self.tmp, "page.html")))

    def test_names_from_the_report_are_escaped(self):
        evil = "<script>alert('gsys')</script> & \"quoted\" <b>bold</b>"
        copy = os.path.join(self.tmp, "evil.sqlite")
        src = fixture("nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite")
        shutil.copy(src, copy)
        os.chmod(copy, 0o644)
        con = sqlite3.connect(copy)
        con.execute("UPDATE StringIds SET value = ? WHERE value LIKE 'vecAdd%'", (evil,))
        con.commit()
        con.close()
        page = self.run_summary(copy)
        self.assertEqual(page.count("<script>"), 1)  # the page's own
        self.assertNotIn("<b>bold", page)
        self.assertNotIn("alert('gsys')", page)
        self.assertIn(html.escape(evil, quote=True).replace("&#x27;", "&#39;"), page)

    def test_report_without_gpu_data(self):
        copy = os.path.join(self.tmp, "cpu.sqlite")
        shutil.copy(fixture("nsys2022.4-cuda-vectoradd-streams-memcpy.sqlite"), copy)
        os.chmod(copy, 0o644)
        con = sqlite3.connect(copy)
        for t in GPU_TABLES:
            con.execute("DROP TABLE IF EXISTS %s" % t)
        con.commit()
        con.close()
        page = self.run_summary(copy)
        self.assertIn("this report holds no GPU activity", page)
        self.assertNotIn('class="chart heatmap"', page)
        self.assertIn("CUDA API Summary (cuda_api_sum)", page)  # the rest of the page is there

    def test_bins(self):
        page = self.run_summary(fixture(), "--bins", "7")
        self.assertIn("Each cell is one time bin of", page)
        for bad in ["0", "10001", "x", "-3"]:
            self.assertOneLineError(gsys("summary", fixture(), "--bins", bad, "-o", "-"),
                                    EXIT_USAGE, "summary: --bins must be an integer")

    def test_bad_input(self):
        out = os.path.join(self.tmp, "p.html")
        self.assertOneLineError(gsys("summary"), EXIT_USAGE, "summary: no input report given")
        self.assertOneLineError(gsys("summary", fixture(), fixture()), EXIT_USAGE,
                                "summary: one report at a time")
        self.assertOneLineError(gsys("summary", "--nope", fixture()), EXIT_USAGE, "--nope")
        self.assertOneLineError(gsys("summary", os.path.join(self.tmp, "missing.sqlite"), "-o", out),
                                EXIT_NOT_FOUND, "missing.sqlite")
        junk = os.path.join(self.tmp, "junk.sqlite")
        with open(junk, "w") as f:
            f.write("not a database\n" * 100)
        self.assertOneLineError(gsys("summary", junk, "-o", out), EXIT_BAD_INPUT, "junk.sqlite")
        rep = os.path.join(self.tmp, "x.nsys-rep")
        open(rep, "w").close()
        self.assertOneLineError(gsys("summary", rep, "-o", out), EXIT_UNSUPPORTED,
                                "summary: ", "nsys export --type sqlite")
        self.assertOneLineError(gsys("summary", fixture(), "-o", os.path.join(self.tmp, "no", "p.html")),
                                EXIT_IO, "summary: output directory")
        self.assertOneLineError(gsys("summary", fixture(), "-o", out, "--filter-time", "1x/2s"),
                                EXIT_USAGE, "summary: --filter-time: ")
        self.assertOneLineError(gsys("summary", fixture(), "-o", out, "--filter-nvtx", "no such"),
                                EXIT_USAGE, "summary: --filter-nvtx: ")
        self.assertFalse(os.path.exists(out))
        # The same codes as gsys stats on the same inputs.
        self.assertEqual(gsys("stats", junk).returncode, EXIT_BAD_INPUT)

    def test_filters_apply_to_the_whole_page(self):
        # A window holding none of the fixture's GPU work leaves no timeline, chart or kernel row.
        page = self.run_summary(fixture(), "--filter-time", "0/1ns")
        self.assertIn("Only events overlapping 0/1ns (--filter-time)", page)
        self.assertNotIn('<script type="application/json"', page)
        self.assertIn("holds no GPU activity", page)
        whole = self.run_summary(fixture(), "-f")
        self.assertIn('<script type="application/json"', whole)
        self.assertIn("CUDA GPU Kernel Summary", whole)

    def test_progress_on_a_terminal_only(self):
        # "[i/n] part" on a terminal while the page is built, then erased; never into a pipe.
        out = os.path.join(self.tmp, "page.html")
        rc, stdout, tty = gsys_stderr_on_tty("summary", fixture(), "-o", out)
        self.assertEqual(rc, 0, tty)
        self.assertEqual(stdout, "Wrote [%s]\n" % out)
        self.assertIn("[1/", tty)
        self.assertIn("] timeline", tty)
        self.assertTrue(tty.rstrip(" ").endswith("\r"), repr(tty[-200:]))
        proc = gsys("summary", fixture(), "-o", out, "-f")
        self.assertNotIn("[1/", proc.stderr)

    def test_help(self):
        proc = gsys("summary", "--help")
        self.assertEqual(proc.returncode, 0)
        self.assertIn("usage: gsys summary [options] REPORT", proc.stdout)
        self.assertIn("summary", gsys("--help").stdout)


if __name__ == "__main__":
    main()
