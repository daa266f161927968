# SPDX-License-Identifier: Apache-2.0
"""tests/capture/progs/nvtx_patterns.cc (gsys_test_nvtx) for the CLI tests that run it, and the
push/pop ranges of a report it wrote."""
import os
import sqlite3
import unittest

from cli_harness import Paths

PUSH_POP = 59  # NVTX_EVENTS.eventType of a push/pop range


def nvtx_program():
    """The program next to gsys's build tree; skips the calling test when it is not built."""
    prog = os.path.join(os.path.dirname(os.path.dirname(Paths.gsys)), "tests", "capture",
                        "gsys_test_nvtx")
    if not os.path.exists(prog):
        raise unittest.SkipTest("gsys_test_nvtx is not built")
    return prog


def texts(report):
    """{text: number of push/pop ranges} of a report (registered strings resolved)."""
    with sqlite3.connect(report) as db:
        rows = db.execute("SELECT coalesce(e.text, s.value), count(*) FROM NVTX_EVENTS e "
                          "LEFT JOIN StringIds s ON s.id = e.textId WHERE e.eventType = ? "
                          "GROUP BY 1", (PUSH_POP,)).fetchall()
    return dict(rows)
