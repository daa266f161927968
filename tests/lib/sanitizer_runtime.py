# SPDX-License-Identifier: Apache-2.0
"""LeakSanitizer's own crash at exit, told apart from a real failure.

At exit LeakSanitizer stops every thread with a ptrace "tracer" and scans their stacks and TLS.
That tracer now and then crashes by itself ("Tracer caught signal 11: addr=0x478 ...", then
"LeakSanitizer has encountered a fatal error"; google/sanitizers#1353, #1342): the process
exits 1 without any leak report. In the ASan tier that is gsys's exit status, about once in
700 tests under load (CI, 2026-12-02: reliability.fault.seccomp_perf_event_open; issue 18's
concurrent runs: identity.seccomp_kill). The harnesses run such a step once more and say so.
A leak report, or any other failure, is never run again.
"""
import sys

_TRACER_CRASH = "LeakSanitizer has encountered a fatal error"
_LEAK_REPORT = "ERROR: LeakSanitizer: detected memory leaks"


def lsan_tracer_crashed(returncode, stderr):
    """True when the run ended by LeakSanitizer's own crash, not by a leak or the program."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else (stderr or "")
    return returncode == 1 and _TRACER_CRASH in text and _LEAK_REPORT not in text


def run_once_more_on_tracer_crash(run, before_retry=None, what="the run"):
    """run() -> an object with .returncode and .stderr; reruns it once after the tracer crash."""
    result = run()
    if lsan_tracer_crashed(result.returncode, result.stderr):
        print(f"note: LeakSanitizer's tracer crashed at the exit of {what} (a sanitizer-runtime "
              "fault, no leak report): running it once more", file=sys.stderr)
        if before_retry is not None:
            before_retry()
        result = run()
    return result
