#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""End-to-end capture tests (issue 3): run `gsys profile` on the test programs and assert
exact counts by querying the report with sqlite3. No GPU, no timing assertions (only timing
margins of several hundred ms around -y/-d windows and the 250 ms flush bound).

usage: e2e.py --build BUILD_DIR CASE"""
import argparse
import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import report_db  # noqa: E402  (tests/lib: absent tables read as empty)

ARGS = None
TMP = None


def gsys():
    return os.path.join(ARGS.build, "bin", "gsys")


def prog():
    return os.path.join(ARGS.build, "tests", "capture", "gsys_test_nvtx")


def profile(*args, expect_rc=None, env=None, output="r"):
    out = os.path.join(TMP, output)
    cmd = [gsys(), "profile", "-o", out] + list(args)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=50)
    if expect_rc is not None and p.returncode != expect_rc:
        fail(f"{cmd} exited {p.returncode}, expected {expect_rc}\n{p.stdout}\n{p.stderr}")
    return p, out + ".gsys-rep"


def q(report, sql):
    with report_db.connect(report) as db:
        rows = db.execute(sql).fetchall()
    return rows


def one(report, sql):
    rows = q(report, sql)
    return rows[0][0] if rows else None


def count(report, where, table="NVTX_EVENTS"):
    return one(report, f"SELECT count(*) FROM {table} WHERE {where}")


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def eq(actual, expected, what):
    if actual != expected:
        fail(f"{what}: got {actual!r}, expected {expected!r}")


def text_count(report, text, event_type=59):
    return count(report, f"coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) = "
                         f"'{text}' AND eventType = {event_type}")


# --- cases ------------------------------------------------------------------------------------

def case_nested():
    _, r = profile(prog(), "nested", "50", expect_rc=0)
    eq(text_count(r, "outer"), 50, "outer ranges")
    eq(text_count(r, "inner"), 50, "inner ranges")
    eq(count(r, "i.text = 'inner' AND o.text = 'outer' AND i.start >= o.start AND i.end <= o.end"
                " AND i.start < o.start + 1000000000",
             "NVTX_EVENTS i JOIN NVTX_EVENTS o ON i.globalTid = o.globalTid") >= 50, True,
       "inner nested in outer")
    eq(one(r, "SELECT count(*) FROM PROCESSES"), 1, "processes")
    eq(one(r, "SELECT count(*) FROM GSYS_DIAGNOSTICS WHERE severity != 'info'"), 0, "data loss")


def case_threads():
    _, r = profile(prog(), "threads", "8", "500", expect_rc=0)
    eq(text_count(r, "work"), 4000, "work ranges")
    eq(one(r, "SELECT count(DISTINCT globalTid) FROM NVTX_EVENTS WHERE text = 'work'"), 8, "threads")
    eq(text_count(r, "handoff", 60), 8, "start/end ranges")
    eq(count(r, "eventType = 60 AND endGlobalTid IS NOT NULL AND endGlobalTid != globalTid"), 8,
       "ranges ended on another thread")


def case_full():
    _, r = profile("-t", "nvtx", prog(), "full", expect_rc=0)
    eq(count(r, "eventType = 75 AND text = 'MyDomain'"), 1, "domain create (deduplicated)")
    dom = one(r, "SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75")
    eq(count(r, "eventType = 33 AND text = 'seven' AND category = 7 AND domainId = 0"), 1, "category")
    eq(count(r, f"eventType = 33 AND text = 'three' AND category = 3 AND domainId = {dom}"), 1,
       "domain category")
    eq(q(r, "SELECT color, category, int64Value FROM NVTX_EVENTS WHERE text = 'colored'"),
       [(0xFF00FF00, 7, -42)], "color/category/int64 payload")
    eq(q(r, "SELECT e.eventType, e.doubleValue, e.domainId FROM NVTX_EVENTS e JOIN StringIds s"
            " ON s.id = e.textId WHERE s.value = 'registered_range' ORDER BY e.eventType"),
       [(59, 2.5, dom), (60, 2.5, dom)], "registered push/pop and start/end")
    eq(q(r, "SELECT uint32Value, domainId FROM NVTX_EVENTS WHERE eventType = 34 AND"
            " text = 'domain_mark' AND end IS NULL"), [(7, dom)], "domain mark + uint32 payload")
    eq(count(r, "eventType = 34 AND text = 'plain_mark'"), 1, "plain mark")
    eq(count(r, "text = 'unicode_\u00e9'"), 1, "unicode text")
    eq(count(r, "text = 'cross_thread' AND eventType = 60 AND endGlobalTid != globalTid"), 1,
       "cross-thread start/end")
    names = {n for (n,) in q(r, "SELECT s.value FROM ThreadNames t JOIN StringIds s ON s.id = t.nameId")}
    for n in ("main_thread_nvtx", "worker_nvtx"):
        if n not in names:
            fail(f"thread name {n} missing from {names}")
    eq(one(r, "SELECT count(*) FROM OSRT_API"), 0, "no OS runtime rows with -t nvtx")


def case_fork():
    _, r = profile(prog(), "fork", "3", "20", expect_rc=0)
    eq(text_count(r, "child"), 60, "child ranges")
    eq(text_count(r, "parent"), 20, "parent ranges")
    eq(one(r, "SELECT count(DISTINCT globalTid >> 24) FROM NVTX_EVENTS WHERE text = 'child'"), 3,
       "child processes")
    eq(one(r, "SELECT count(*) FROM PROCESSES"), 4, "processes")


def case_exec():
    _, r = profile(prog(), "exec", "7", expect_rc=0)
    eq(text_count(r, "outer"), 7, "ranges in the exec'd child")
    parent = one(r, "SELECT value FROM GSYS_META WHERE name = 'target_pid'")
    eq(one(r, f"SELECT count(*) FROM NVTX_EVENTS WHERE ((globalTid >> 24) & 16777215) = {parent}"),
       0, "no ranges in the parent")


def case_python():
    shim = os.path.join(ARGS.build, "tests", "capture", "libgsys_test_nvtx_shim.so")
    script = os.path.join(os.path.dirname(__file__), "progs", "nvtx_ctypes.py")
    _, r = profile("-t", "nvtx", sys.executable, script, shim, "25", expect_rc=0)
    for tag in ("py_main", "py_fork", "py_spawn"):
        eq(text_count(r, tag), 25, f"{tag} ranges")
    eq(one(r, "SELECT count(DISTINCT globalTid >> 24) FROM NVTX_EVENTS"), 3, "python processes")


def case_shell_pipeline():
    script = f"{prog()} nested 3 | cat >/dev/null; {prog()} nested 2 | cat >/dev/null"
    _, r = profile("/bin/sh", "-c", script, expect_rc=0)
    eq(text_count(r, "outer"), 5, "outer ranges from both pipeline stages")
    eq(one(r, "SELECT count(DISTINCT globalTid >> 24) FROM NVTX_EVENTS"), 2, "nvtx processes")
    if one(r, "SELECT count(*) FROM PROCESSES") < 5:
        fail("shell, two programs and two cats should all be processes")


def case_osrt():
    # A 10 ms threshold: the 20-40 ms waits are recorded; the 1-byte reads and the uncontended
    # lock are not, unless the machine preempted them for that long. The program counts the
    # calls it saw take 10 ms or more, timed around each call (so never shorter than gsys's
    # own measurement inside it): at most those may be recorded.
    threshold = 10_000_000
    slow = os.path.join(TMP, "slow_calls")
    _, r = profile("-t", "osrt", "--osrt-threshold", str(threshold), prog(), "osrt",
                   str(threshold), slow, expect_rc=0)
    with open(slow) as f:
        slow_locks, slow_reads = (int(x) for x in f.read().split())
    def calls(name):
        return one(r, "SELECT count(*) FROM OSRT_API o JOIN StringIds s ON s.id = o.nameId"
                      f" WHERE s.value = '{name}'")
    eq(calls("usleep"), 5, "usleep calls (nanosleep inside usleep is not double counted)")
    eq(calls("nanosleep") + calls("clock_nanosleep") >= 1, True, "sleep_for recorded")
    locks = calls("pthread_mutex_lock")
    eq(1 <= locks <= slow_locks, True,
       f"mutex locks recorded: {locks} (the contended one; {slow_locks} took >= 10 ms)")
    eq(calls("read") <= slow_reads, True,
       f"1-byte reads recorded: {calls('read')}, of which the program saw {slow_reads} "
       "take >= 10 ms")
    eq(one(r, f"SELECT count(*) FROM OSRT_API WHERE end - start < {threshold}"), 0,
       "calls shorter than the threshold recorded")
    eq(one(r, "SELECT count(*) FROM OSRT_API WHERE eventClass != 27 OR end < start"), 0, "rows")


def case_stdio_identical():
    bare = subprocess.run([prog(), "stdio", "5"], capture_output=True, text=True)
    p, _ = profile(prog(), "stdio", "5")
    eq(p.returncode, bare.returncode, "exit code")
    eq(p.stdout, bare.stdout, "stdout")
    err = "".join(l for l in p.stderr.splitlines(True) if not l.startswith("gsys:"))
    eq(err, bare.stderr, "stderr (without gsys's own lines)")


def crash(kind, rc):
    _, r = profile(prog(), "crash", kind, "40", expect_rc=rc)
    eq(text_count(r, "before"), 40, f"ranges before {kind}")


def case_exit_code():
    crash("exit3", 3)


def case_segv():
    crash("segv", -signal.SIGSEGV)  # gsys dies of the target's signal


def case_abort():
    crash("abort", -signal.SIGABRT)


def case_sigterm():
    crash("term", -signal.SIGTERM)


def start_killable(n):
    out = os.path.join(TMP, "k")
    p = subprocess.Popen([gsys(), "profile", "-o", out, prog(), "killable", str(n)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    if line.strip() != "ready":
        fail(f"killable did not start: {line!r}")
    # Wait until the ranges are on disk (a live `gsys import`), not for a fixed time a loaded
    # CI machine can outlast.
    probe = os.path.join(TMP, "probe.gsys-rep")
    for _ in range(600):
        subprocess.run([gsys(), "import", "-f", "true", out + ".gsys-session", "-o", probe],
                       capture_output=True)
        if os.path.exists(probe) and text_count(probe, "before") >= n:
            break
        time.sleep(0.1)
    return p, out


def target_pid(session_dir):
    with open(os.path.join(session_dir, "session.meta")) as f:
        for line in f:
            if line.startswith("target_pid="):
                return int(line.split("=", 1)[1])
    fail("no target_pid in session.meta")


def case_sigkill_target():
    p, out = start_killable(300)
    os.kill(target_pid(out + ".gsys-session"), signal.SIGKILL)
    p.communicate(timeout=30)
    eq(p.returncode, -signal.SIGKILL, "gsys dies of the target's signal")
    r = out + ".gsys-rep"
    eq(text_count(r, "before"), 300, "ranges that ended >= 250 ms before the SIGKILL")
    eq(one(r, "SELECT value FROM GSYS_DIAGNOSTICS WHERE name = 'processes_without_exit_flush'"), 1,
       "the killed process is reported")


def case_gsys_killed():
    p, out = start_killable(300)
    session = out + ".gsys-session"
    pid = target_pid(session)
    p.kill()
    p.wait()
    os.killpg(pid, signal.SIGKILL)
    r = os.path.join(TMP, "recovered.gsys-rep")
    imp = subprocess.run([gsys(), "import", session, "-o", r], capture_output=True, text=True)
    eq(imp.returncode, 0, f"gsys import rc ({imp.stderr})")
    eq(text_count(r, "before"), 300, "ranges recovered by gsys import")


def case_delay():
    _, r = profile("-y", "0.7", prog(), "delayed", "20", "1500", expect_rc=0)
    eq(text_count(r, "early"), 0, "ranges before the delay")
    eq(text_count(r, "late"), 20, "ranges after the delay")


def case_duration():
    p, r = profile("-d", "0.7", prog(), "killable", "30")
    eq(p.returncode, 128 + signal.SIGTERM, "the target is ended with SIGTERM")
    eq(text_count(r, "before"), 30, "ranges inside the duration")
    end = int(one(r, "SELECT value FROM GSYS_META WHERE name = 'capture_end_ns'"))
    eq(count(r, f"start > {end}"), 0, "no events after the capture window")


def case_nvtx_trigger():
    # nsys's matching (registered strings only); gsys's default also matches plain strings.
    env = dict(os.environ, NSYS_NVTX_PROFILER_REGISTER_ONLY="1")
    _, r = profile("-c", "nvtx", "-p", "capture_me@Dom", "--capture-range-end", "stop", prog(),
                   "trigger", "5", expect_rc=0, env=env)
    eq(text_count(r, "inside"), 5, "ranges inside the trigger range")
    eq(text_count(r, "pre") + text_count(r, "post"), 0, "ranges outside")
    eq(text_count(r, "capture_me"), 1, "the registered trigger range itself")


def case_nvtx_trigger_plain():
    env = dict(os.environ, NSYS_NVTX_PROFILER_REGISTER_ONLY="0")
    _, r = profile("-c", "nvtx", "-p", "capture_me@Dom", prog(), "trigger", "5", env=env)
    eq(one(r, "SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59"), 1,
       "only the plain-string trigger range (the first match) is captured")


def case_fd_chaos():
    _, r = profile(prog(), "fdchaos", "20", expect_rc=0)
    eq(text_count(r, "a"), 20, "ranges before the program closed and reused every fd")
    eq(text_count(r, "b"), 20, "ranges after (the stream was reopened by name)")


def case_bad_input():
    def bad(args, needle):
        p = subprocess.run([gsys(), "profile"] + args, capture_output=True, text=True)
        if p.returncode == 0 or needle not in p.stderr:
            fail(f"{args}: rc {p.returncode}, stderr {p.stderr!r} (expected {needle!r})")
    bad(["/nonexistent/cmd"], "command not found")
    bad(["no-such-command-gsys"], "command not found")
    bad(["-t", "bogus", "true"], "unknown --trace value 'bogus'")
    bad(["-d", "abc", "true"], "bad --duration")
    bad(["-o", "/nonexistent/dir/r", "true"], "does not exist")
    bad(["-o", "r%q{", "true"], "expected %q{NAME}")
    bad(["-c", "nvtx", "true"], "needs -p")
    bad(["--kill", "sigfoo", "true"], "bad --kill")
    profile("true", expect_rc=0, output="exists")
    bad(["-o", os.path.join(TMP, "exists"), "true"], "exists")
    profile("-f", "true", "true", expect_rc=0, output="exists")


def case_stats():
    p, r = profile("--stats=true", prog(), "nested", "5", expect_rc=0)
    if "outer" not in p.stdout:
        fail(f"--stats output lacks the nvtx_sum rows:\n{p.stdout}\n{p.stderr}")


def case_export():
    # --export writes the timeline beside the report; the Chrome JSON holds every NVTX range.
    p, r = profile("--export=chrome,perfetto", prog(), "nested", "5", expect_rc=0)
    trace = os.path.join(TMP, "r.json")
    if not os.path.exists(trace) or not os.path.exists(os.path.join(TMP, "r.pftrace")):
        fail(f"--export wrote no chrome/perfetto file:\n{os.listdir(TMP)}\n{p.stderr}")
    with open(trace) as f:
        events = json.load(f)
    events = events["traceEvents"] if isinstance(events, dict) else events
    ranges = sum(1 for e in events if e.get("ph") == "X" and e.get("cat", "").lower().startswith("nvtx"))
    if count(r, "eventType = 59") == 0:
        fail("the nested program recorded no push/pop ranges")
    eq(ranges, count(r, "eventType = 59"), "NVTX slices in the chrome export")
    profile("--export=bogus", "true", expect_rc=2, output="bad_export")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("case")
    ARGS = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys_e2e_") as tmp:
        TMP = tmp
        os.chdir(tmp)
        globals()["case_" + ARGS.case]()
    print("ok:", ARGS.case)


if __name__ == "__main__":
    main()
