# SPDX-License-Identifier: Apache-2.0
"""sanitizer_runtime: only LeakSanitizer's own tracer crash is run again, once."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sanitizer_runtime as sr  # noqa: E402

CRASH = ("Tracer caught signal 11: addr=0x478 pc=0x7fc833ee80f0 sp=0x7fc831218d10\n"
         "==14564==LeakSanitizer has encountered a fatal error.\n")
LEAK = "==1==ERROR: LeakSanitizer: detected memory leaks\n"


class Result:
    def __init__(self, returncode, stderr):
        self.returncode, self.stderr = returncode, stderr


def runner(results):
    calls = []

    def run():
        calls.append(1)
        return results[len(calls) - 1]
    return run, calls


class TracerCrash(unittest.TestCase):
    def test_recognized_in_text_and_bytes(self):
        self.assertTrue(sr.lsan_tracer_crashed(1, CRASH))
        self.assertTrue(sr.lsan_tracer_crashed(1, CRASH.encode()))

    def test_not_a_leak_report_nor_another_status(self):
        self.assertFalse(sr.lsan_tracer_crashed(1, CRASH + LEAK))
        self.assertFalse(sr.lsan_tracer_crashed(0, CRASH))
        self.assertFalse(sr.lsan_tracer_crashed(23, CRASH))
        self.assertFalse(sr.lsan_tracer_crashed(1, "gsys: error: no such file\n"))

    def test_crash_runs_once_more_after_cleanup(self):
        run, calls = runner([Result(1, CRASH), Result(0, "")])
        cleaned = []
        r = sr.run_once_more_on_tracer_crash(run, before_retry=lambda: cleaned.append(1))
        self.assertEqual((r.returncode, len(calls), len(cleaned)), (0, 2, 1))

    def test_only_once(self):
        run, calls = runner([Result(1, CRASH), Result(1, CRASH), Result(0, "")])
        r = sr.run_once_more_on_tracer_crash(run)
        self.assertEqual((r.returncode, len(calls)), (1, 2))

    def test_real_failures_are_not_run_again(self):
        for first in (Result(1, CRASH + LEAK), Result(2, "boom"), Result(0, "")):
            run, calls = runner([first, Result(0, "")])
            self.assertIs(sr.run_once_more_on_tracer_crash(run), first)
            self.assertEqual(len(calls), 1)


if __name__ == "__main__":
    unittest.main()
