#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""CLI tests of `gsys export`: bad input gives one line, a documented exit code and no partial
output; default output names; --tables."""

import os
import shutil

from cli_harness import EXIT_BAD_INPUT, EXIT_IO, EXIT_NOT_FOUND, EXIT_USAGE, CliTestCase, gsys, main


class ExportCliTest(CliTestCase):
    def test_unknown_type_suggests(self):
        out = os.path.join(self.tmp, "x")
        proc = gsys("export", "--type", "perfeto", "-o", out, self.fixture)
        self.assertOneLineError(proc, EXIT_USAGE, "unknown type 'perfeto'", "did you mean 'perfetto'")
        self.assertFalse(os.path.exists(out))

    def test_nsys_types_gsys_does_not_write_say_what_to_use(self):
        # nsys 2025.3.1's -t list (docs/differences-from-nsys.md, `gsys export`).
        for t, instead in [("text", "jsonlines"), ("json", "jsonlines"), ("hdf", "sqlite"),
                           ("arrow", "sqlite"), ("arrowdir", "sqlite"), ("parquetdir", "sqlite"),
                           ("info", "sqlite")]:
            with self.subTest(type=t):
                out = os.path.join(self.tmp, "x_" + t)
                proc = gsys("export", "--type", t, "-o", out, self.fixture)
                self.assertOneLineError(proc, EXIT_USAGE, "type '%s' is not supported" % t,
                                        "--type " + instead)
                self.assertFalse(os.path.exists(out))

    def test_missing_type(self):
        self.assertOneLineError(gsys("export", self.fixture), EXIT_USAGE, "--type is required")

    def test_missing_input(self):
        proc = gsys("export", "--type", "chrome", os.path.join(self.tmp, "nope.sqlite"))
        self.assertOneLineError(proc, EXIT_NOT_FOUND, "nope.sqlite")

    def test_not_a_report(self):
        path = os.path.join(self.tmp, "junk.sqlite")
        with open(path, "w") as f:
            f.write("hello\n" * 100)
        self.assertOneLineError(gsys("export", "--type", "csv", path), EXIT_BAD_INPUT, "junk.sqlite")

    def test_existing_output_needs_force(self):
        out = os.path.join(self.tmp, "t.json")
        with open(out, "w") as f:
            f.write("keep")
        proc = gsys("export", "--type", "chrome", "-o", out, self.fixture)
        self.assertOneLineError(proc, EXIT_IO, "t.json", "force-overwrite")
        with open(out) as f:
            self.assertEqual(f.read(), "keep")
        proc = gsys("export", "--type", "chrome", "-f", "-o", out, self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(out) as f:
            self.assertTrue(f.read().startswith("{"))

    def test_existing_csv_directory_needs_force(self):
        out = os.path.join(self.tmp, "d")
        os.mkdir(out)
        self.assertOneLineError(gsys("export", "--type", "csv", "-o", out, self.fixture), EXIT_IO,
                                "force-overwrite")
        proc = gsys("export", "--type", "csv", "-f", "-o", out, self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("StringIds.csv", os.listdir(out))

    def test_unwritable_output_leaves_nothing(self):
        proc = gsys("export", "--type", "perfetto", "-o",
                    os.path.join(self.tmp, "missing", "t.pftrace"), self.fixture)
        self.assertOneLineError(proc, EXIT_IO, "does not exist")
        if os.geteuid() != 0:
            ro = os.path.join(self.tmp, "ro")
            os.mkdir(ro, 0o555)
            proc = gsys("export", "--type", "perfetto", "-o", os.path.join(ro, "t"), self.fixture)
            self.assertOneLineError(proc, EXIT_IO, "not writable")
        self.assertEqual(sorted(os.listdir(self.tmp)), [] if os.geteuid() == 0 else ["ro"])

    def test_output_is_input(self):
        copy = os.path.join(self.tmp, "r.sqlite")
        shutil.copy(self.fixture, copy)
        proc = gsys("export", "--type", "sqlite", "-f", copy)
        self.assertOneLineError(proc, EXIT_USAGE, "is the input report")

    def test_default_output_names(self):
        src = os.path.join(self.tmp, "run.sqlite")
        shutil.copy(self.fixture, src)
        for kind, name in [("perfetto", "run.pftrace"), ("chrome", "run.json"),
                           ("jsonlines", "run.jsonl"), ("csv", "run_csv")]:
            proc = gsys("export", "--type", kind, src)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertTrue(os.path.exists(os.path.join(self.tmp, name)), name)
            self.assertIn(name, proc.stderr)
        leftovers = [n for n in os.listdir(self.tmp) if ".tmp-" in n]
        self.assertEqual(leftovers, [])

    def test_tables_filter_and_bad_regex(self):
        out = os.path.join(self.tmp, "t.jsonl")
        proc = gsys("export", "--type", "jsonlines", "--tables", "stringids,target_info_gpu",
                    "-o", out, self.fixture)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        import json
        with open(out) as f:
            tables = {json.loads(line)["table"] for line in f}
        self.assertEqual(tables, {"StringIds", "TARGET_INFO_GPU"})
        proc = gsys("export", "--type", "csv", "--tables", "a[", self.fixture)
        self.assertOneLineError(proc, EXIT_USAGE, "bad regex")

    def test_extra_positional(self):
        proc = gsys("export", "--type", "csv", self.fixture, self.fixture)
        self.assertOneLineError(proc, EXIT_USAGE, "expected one REPORT")


if __name__ == "__main__":
    main()
