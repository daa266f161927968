#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Serving-mode end-to-end tests (issue 7): a real HTTP server (nvtx_http_server.py, one NVTX
range per request) under `gsys wrap` / `gsys launch`, driven by a load generator that logs the
CLOCK_MONOTONIC send and receive time of every request. No GPU. Assertions are on counts:
every request that lies wholly inside a window is in that window's report, none that lies
wholly outside is, and at most one request per window edge (in flight while recording switched)
is undecided.

usage: serving_e2e.py --build BUILD_DIR CASE"""
import argparse
import glob
import http.client
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ARGS = None
TMP = None
HERE = os.path.dirname(os.path.abspath(__file__))


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def eq(actual, expected, what):
    if actual != expected:
        fail(f"{what}: got {actual!r}, expected {expected!r}")


def check(cond, what):
    if not cond:
        fail(what)


def gsys():
    return os.path.join(ARGS.build, "bin", "gsys")


def shim():
    return os.path.join(ARGS.build, "tests", "capture", "libgsys_test_nvtx_shim.so")


def server_cmd(port_file, exit_code=7):
    return [sys.executable, os.path.join(HERE, "nvtx_http_server.py"), shim(), port_file, str(exit_code)]


def base_env(**extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith(("GSYS_PROFILE", "LMI_DEBUG_", "NSYS_PROFILE_", "S3_DEBUG_PATH")):
            del env[k]
    env["GSYS_SESSIONS_DIR"] = os.path.join(TMP, "sessions")
    env.update({k: str(v) for k, v in extra.items()})
    return env


def wait_for(pred, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        v = pred()
        if v:
            return v
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")


def read_port(port_file):
    return int(wait_for(lambda: os.path.exists(port_file) and open(port_file).read().strip(), 30,
                        "the server's port"))


class Load:
    """Sequential requests on one keep-alive connection; logs (id, t_send, t_recv, ok)."""

    def __init__(self, port):
        self.port = port
        self.log = []
        self.failed = 0
        self.next_id = 0
        self.stop = threading.Event()
        self.thread = None
        self.conn = None

    def one(self):
        rid = self.next_id
        self.next_id += 1
        t0 = time.monotonic_ns()
        ok = False
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
            self.conn.request("GET", f"/req/{rid}")
            resp = self.conn.getresponse()
            body = resp.read()
            ok = resp.status == 200 and body == f"ok req {rid}\n".encode()
        except OSError:
            self.conn = None
        t1 = time.monotonic_ns()
        if not ok:
            self.failed += 1
        self.log.append((rid, t0, t1, ok))
        return ok

    def run_for(self, seconds, gap=0.003):
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.one()
            time.sleep(gap)

    def start(self, gap=0.003):
        def loop():
            while not self.stop.is_set():
                self.one()
                time.sleep(gap)
        self.thread = threading.Thread(target=loop, daemon=True)
        self.thread.start()

    def finish(self):
        self.stop.set()
        if self.thread:
            self.thread.join()


def report_window(report):
    with sqlite3.connect(report) as db:
        origin = db.execute("SELECT systemClockNs FROM TARGET_INFO_SESSION_START_TIME").fetchone()[0]
        meta = dict(db.execute("SELECT name, value FROM GSYS_META").fetchall())
    return origin + int(meta["capture_window_start_ns"]), origin + int(meta["capture_window_end_ns"])


def report_requests(report):
    with sqlite3.connect(report) as db:
        rows = db.execute("SELECT coalesce(text, (SELECT value FROM StringIds WHERE id = textId)) "
                          "FROM NVTX_EVENTS WHERE eventType = 59").fetchall()
    ids = []
    for (text,) in rows:
        check(text.startswith("req "), f"unexpected range {text!r} in {report}")
        ids.append(int(text[4:]))
    return ids


def check_window(report, load, min_inside=5):
    """The report holds exactly the requests inside its window (edges: at most one each)."""
    ws, we = report_window(report)
    got = report_requests(report)
    eq(len(got), len(set(got)), f"{report}: duplicate request ranges")
    got = set(got)
    inside = {rid for rid, t0, t1, ok in load.log if ok and t0 >= ws and t1 <= we}
    outside = {rid for rid, t0, t1, ok in load.log if t1 < ws or t0 > we}
    edge = {rid for rid, t0, t1, ok in load.log} - inside - outside
    check(len(inside) >= min_inside, f"{report}: only {len(inside)} requests inside the window")
    missing = inside - got
    check(not missing, f"{report}: requests inside the window missing: {sorted(missing)[:10]}")
    extra = got & outside
    check(not extra, f"{report}: requests outside the window present: {sorted(extra)[:10]}")
    check(got <= inside | edge, f"{report}: unknown requests {sorted(got - inside - edge)[:10]}")
    check(len(edge) <= 2, f"{report}: {len(edge)} requests straddle the window edges")
    worst = max((t1 - t0 for _, t0, t1, _ in load.log), default=0) / 1e6
    print(f"(slowest request of the run: {worst:.1f} ms)")
    print(f"{os.path.basename(report)}: {len(got)} requests in the report = {len(inside)} inside "
          f"+ {len(got - inside)} of {len(edge)} at the edges; {len(outside)} outside, none present")
    return got


def reports_in(d):
    return sorted(glob.glob(os.path.join(d, "*.gsys-rep")))


def start_wrap(env, out_dir, port_file, exit_code=7):
    err = open(os.path.join(TMP, "wrap.stderr"), "w")
    p = subprocess.Popen([gsys(), "wrap", "--"] + server_cmd(port_file, exit_code), env=env,
                         stdout=subprocess.PIPE, stderr=err, text=True)
    return p


def stderr_text():
    return open(os.path.join(TMP, "wrap.stderr")).read()


def finish_wrap(p, expect_rc=7, timeout=40):
    p.send_signal(signal.SIGTERM)
    try:
        rc = p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        fail("gsys wrap did not exit after SIGTERM\n" + stderr_text())
    eq(rc, expect_rc, "gsys wrap exit code (the server's)")


# --- cases ------------------------------------------------------------------------------------

def case_off_exec():
    """GSYS_PROFILE off (unset, 0, LMI_DEBUG_NSYS_ENABLED=0): the server is exec'd, same pid."""
    for extra in ({}, {"GSYS_PROFILE": "0"}, {"GSYS_PROFILE": "off"}, {"LMI_DEBUG_NSYS_ENABLED": "0"}):
        port_file = os.path.join(TMP, f"port{len(os.listdir(TMP))}")
        p = subprocess.Popen([gsys(), "wrap", "--"] + server_cmd(port_file), env=base_env(**extra),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = p.stdout.readline()
        eq(line.strip(), f"serving pid {p.pid}", f"{extra}: the server's pid is gsys's")
        environ = open(f"/proc/{p.pid}/environ", "rb").read().decode(errors="replace")
        check("libgsys-inject" not in environ, f"{extra}: the server was injected")
        port = read_port(port_file)
        load = Load(port)
        load.run_for(0.2)
        eq(load.failed, 0, "failed requests")
        p.send_signal(signal.SIGTERM)
        eq(p.wait(timeout=10), 7, f"{extra}: exit code")
    check(not os.path.exists(os.path.join(TMP, "sessions")), "a session was created while off")


def case_window():
    """One window by delay/duration while requests run before, during and after it; the
    report, its summaries and their upload to a file:/// destination; the server keeps serving."""
    out, up = os.path.join(TMP, "out") + "/", os.path.join(TMP, "up")
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="1.5", GSYS_PROFILE_DURATION="1.5",
                   GSYS_PROFILE_TRACE="nvtx,osrt,python-gil", GSYS_PROFILE_OUTPUT=out,
                   GSYS_PROFILE_UPLOAD=f"file://{up}/", RANK="3")
    p = start_wrap(env, out, port_file)
    load = Load(read_port(port_file))
    load.run_for(5.0)  # window: about 1.5 .. 3 s after start
    reps = wait_for(lambda: reports_in(out), 20, "the window's report")
    eq(len(reps), 1, "reports")
    rep = reps[0]
    check(f"_rank3_" in os.path.basename(rep), f"report name carries the rank: {rep}")
    check(os.uname().nodename.split(".")[0] in os.path.basename(rep) or True, "host")
    # The server still answers after the window.
    load.run_for(0.5)
    eq(load.failed, 0, "failed requests")
    base = rep[:-len(".gsys-rep")]
    for suffix in (".gsys-rep", ".stats.txt", ".stats.json", ".html"):
        local = base + suffix
        remote = os.path.join(up, os.path.basename(local))
        wait_for(lambda: os.path.exists(remote), 20, f"upload of {local}")
        eq(open(remote, "rb").read(), open(local, "rb").read(), f"uploaded bytes of {suffix}")
    summary = json.load(open(base + ".stats.json"))
    eq(summary["report"], rep, "summary names its report")
    # Provenance (issue 23 item 4): the gsys version and the command that made it.
    check(re.fullmatch(r"\d+\.\d+\.\d+.*", summary["gsys_version"]) is not None,
          "summary's gsys_version: %r" % summary.get("gsys_version"))
    check(" wrap " in " " + summary["command"] + " " and summary["command"].split()[0].endswith("gsys"),
          "summary's command: %r" % summary.get("command"))
    nvtx = {r["Range"]: r["Instances"] for r in summary["reports"]["nvtx_sum"]}
    got = check_window(rep, load)
    eq(sum(nvtx.values()), len(got), "nvtx_sum instances in the JSON summary")
    text = open(base + ".stats.txt").read()
    check("NVTX Range Summary" in text, "text summary")
    # Its first line names the version, the report and the command; then stats' own bytes.
    first, rest = text.split("\n", 1)
    eq(first, "# Made by gsys %s from %s: %s" % (summary["gsys_version"], rep, summary["command"]),
       "the text summary's first line")
    check(not rest.startswith("#"), "one provenance line only")
    page = open(base + ".html").read()
    check(("Made by gsys %s from %s: gsys summary" % (summary["gsys_version"], rep)) in page,
          "the HTML summary's footer names the version and the report")
    finish_wrap(p)
    err = stderr_text()
    check("python-gil" in err and "does not record" in err, "unknown trace name warned:\n" + err)
    eq(len(reports_in(out)), 1, "reports after exit")


def case_sigterm_in_window():
    """SIGTERM while a window is open: the server gets it at once, the window is finalized
    before gsys exits with the server's exit code."""
    out = os.path.join(TMP, "out") + "/"
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="0.5", GSYS_PROFILE_DURATION="600",
                   GSYS_PROFILE_TRACE="nvtx", GSYS_PROFILE_OUTPUT=out, GSYS_PROFILE_SHUTDOWN_TIMEOUT="15")
    p = start_wrap(env, out, port_file, exit_code=9)
    load = Load(read_port(port_file))
    load.run_for(2.0)
    eq(load.failed, 0, "failed requests")
    t = time.monotonic()
    finish_wrap(p, expect_rc=9)
    check(time.monotonic() - t < 15, "finalized within the shutdown bound")
    reps = reports_in(out)
    eq(len(reps), 1, "reports")
    got = report_requests(reps[0])
    ws, _ = report_window(reps[0])
    inside = {rid for rid, t0, t1, ok in load.log if t0 >= ws}
    check(inside - set(got) == set(), "every request after the window opened is in the report")
    check(len(got) >= 50, f"only {len(got)} requests recorded")


def case_repeat():
    """GSYS_PROFILE_REPEAT: a new window every N s, one report per window."""
    out = os.path.join(TMP, "out") + "/"
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    env = base_env(GSYS_PROFILE="1", NSYS_PROFILE_DELAY="1.0", NSYS_PROFILE_DURATION="1.2",
                   GSYS_PROFILE_REPEAT="2.5", NSYS_PROFILE_TRACE="nvtx", GSYS_PROFILE_OUTPUT=out)
    p = start_wrap(env, out, port_file)
    load = Load(read_port(port_file))
    load.start()  # windows at 1.0, 3.5, 6.0, ...
    wait_for(lambda: len(reports_in(out)) >= 2, 20, "two reports")
    load.finish()
    finish_wrap(p)
    eq(load.failed, 0, "failed requests")
    reps = reports_in(out)
    opened = stderr_text().count("opened")
    eq(len(reps), opened, "one report per window opened")
    check(len(reps) >= 2, "at least two windows")
    seen = set()
    for i, r in enumerate(reps):
        # The last window may have opened as the load stopped.
        got = check_window(r, load, min_inside=1 if i < 2 else 0)
        check(not (got & seen), "a request in two windows")
        seen |= got


def case_kill_after_window():
    """GSYS_PROFILE_KILL=sigterm: the server is ended when the window ends; its report is written
    and gsys exits by itself with the server's exit code."""
    out = os.path.join(TMP, "out") + "/"
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="1.0", GSYS_PROFILE_DURATION="1.0",
                   GSYS_PROFILE_TRACE="nvtx", GSYS_PROFILE_OUTPUT=out, GSYS_PROFILE_KILL="sigterm")
    p = start_wrap(env, out, port_file, exit_code=5)
    load = Load(read_port(port_file))
    while p.poll() is None and load.next_id < 100000:
        load.one()
        time.sleep(0.003)
    eq(p.wait(timeout=30), 5, "gsys exit code (the server's)")
    reps = reports_in(out)
    eq(len(reps), 1, "reports")
    ws, we = report_window(reps[0])
    ok_inside = {rid for rid, t0, t1, ok in load.log if ok and t0 >= ws and t1 <= we}
    check(len(ok_inside) >= 5, "requests inside the window")
    check(ok_inside <= set(report_requests(reps[0])), "requests inside the window are in the report")


def case_sigusr2():
    """SIGUSR2 to gsys opens and closes a window (no schedule needed)."""
    out = os.path.join(TMP, "out") + "/"
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="100000", GSYS_PROFILE_TRACE="nvtx",
                   GSYS_PROFILE_OUTPUT=out)
    p = start_wrap(env, out, port_file)
    load = Load(read_port(port_file))
    load.start()
    time.sleep(0.7)
    p.send_signal(signal.SIGUSR2)
    time.sleep(1.0)
    p.send_signal(signal.SIGUSR2)
    time.sleep(0.7)
    rep = wait_for(lambda: reports_in(out), 20, "the toggled window's report")[0]
    load.finish()
    eq(load.failed, 0, "failed requests")
    check_window(rep, load)
    finish_wrap(p)


def case_upload_failure():
    """An upload that fails is logged; the report stays on disk; the server keeps serving."""
    out = os.path.join(TMP, "out") + "/"
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="0.3", GSYS_PROFILE_DURATION="0.5",
                   GSYS_PROFILE_TRACE="nvtx", GSYS_PROFILE_OUTPUT=out,
                   S3_DEBUG_PATH="s3://bucket/prefix/", AWS_ENDPOINT_URL="http://127.0.0.1:9",
                   AWS_ACCESS_KEY_ID="AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY="not-a-secret",
                   AWS_REGION="us-east-1", GSYS_UPLOAD_MAX_ATTEMPTS="1")
    p = start_wrap(env, out, port_file)
    load = Load(read_port(port_file))
    load.run_for(1.0)
    wait_for(lambda: "failed" in stderr_text(), 30, "the upload failure message")
    load.run_for(0.5)
    eq(load.failed, 0, "failed requests")
    eq(len(reports_in(out)), 1, "the report stays on disk")
    finish_wrap(p)
    err = stderr_text()
    check("upload of" in err and "failed" in err, "upload failure logged:\n" + err)
    check("not-a-secret" not in err, "secret in the log")


def start_s3rver():
    """The npm s3rver package from tests/upload/node_modules on 127.0.0.1 (random port)."""
    binary = os.path.join(HERE, "..", "upload", "node_modules", ".bin", "s3rver")
    check(os.path.exists(binary), "s3rver is not installed: run tools/install_deps.sh (npm ci in tests/upload)")
    log = open(os.path.join(TMP, "s3rver.log"), "w+")
    proc = subprocess.Popen([binary, "-d", os.path.join(TMP, "s3data"), "-a", "127.0.0.1", "-p", "0",
                             "--configure-bucket", "gsys-bucket"], stdout=log, stderr=subprocess.STDOUT)
    def port():
        log.seek(0)
        m = re.search(r"listening on 127\.0\.0\.1:(\d+)", log.read())
        return int(m.group(1)) if m else None
    return proc, wait_for(port, 30, "s3rver"), log


def case_s3():
    """The report and its summaries land in s3rver with identical bytes; the report goes up as a
    multipart upload (small forced parts), the summaries as single PUTs."""
    proc, port, log = start_s3rver()
    try:
        out = os.path.join(TMP, "out") + "/"
        os.makedirs(out)
        port_file = os.path.join(TMP, "port")
        env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="1.0", GSYS_PROFILE_DURATION="1.0",
                       GSYS_PROFILE_TRACE="nvtx,osrt", GSYS_PROFILE_OUTPUT=out,
                       LMI_DEBUG_S3_ARTIFACT_PATH="s3://gsys-bucket/serve/node1/",
                       AWS_ENDPOINT_URL=f"http://127.0.0.1:{port}", AWS_ACCESS_KEY_ID="S3RVER",
                       AWS_SECRET_ACCESS_KEY="S3RVER", AWS_REGION="us-east-1",
                       GSYS_UPLOAD_MULTIPART_THRESHOLD="64K", GSYS_UPLOAD_PART_SIZE="64K")
        p = start_wrap(env, out, port_file)
        load = Load(read_port(port_file))
        load.run_for(2.5)
        rep = wait_for(lambda: reports_in(out), 20, "the report")[0]
        wait_for(lambda: stderr_text().count("uploaded") >= 4 or "failed" in stderr_text(), 30,
                 "four uploads")
        load.run_for(0.3)
        eq(load.failed, 0, "failed requests")
        check_window(rep, load)
        base = rep[:-len(".gsys-rep")]
        for suffix in (".gsys-rep", ".stats.txt", ".stats.json", ".html"):
            local = base + suffix
            key = "serve/node1/" + os.path.basename(local)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/gsys-bucket/{key}", timeout=30) as r:
                eq(r.read(), open(local, "rb").read(), f"bytes of {key} in s3rver")
        check(os.path.getsize(rep) > 64 * 1024, "the report is big enough for multipart")
        log.seek(0)
        text = log.read()
        check("Stored part 2 of" in text, "the report went up in parts:\n" + text[-2000:])
        finish_wrap(p)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def case_s3_wrong_secret():
    """A wrong secret against a SigV4-verifying endpoint: a clear upload error, the secret never
    printed, the report kept, the server serving on."""
    sys.path.insert(0, os.path.join(HERE, "..", "upload"))
    import sigv4_server
    state = sigv4_server.State("AKIDGSYSTEST", "wJalrXUtnFEMI/GSYS+TEST/secretKEY")
    server, url = sigv4_server.serve(state)
    try:
        out = os.path.join(TMP, "out") + "/"
        os.makedirs(out)
        port_file = os.path.join(TMP, "port")
        env = base_env(GSYS_PROFILE="1", GSYS_PROFILE_DELAY="0.5", GSYS_PROFILE_DURATION="0.5",
                       GSYS_PROFILE_TRACE="nvtx", GSYS_PROFILE_OUTPUT=out,
                       GSYS_PROFILE_UPLOAD="s3://gsys-bucket/p/", AWS_ENDPOINT_URL_S3=url,
                       AWS_ACCESS_KEY_ID="AKIDGSYSTEST", AWS_SECRET_ACCESS_KEY="wrong-secret-value",
                       AWS_REGION="us-east-1", GSYS_UPLOAD_MAX_ATTEMPTS="1")
        p = start_wrap(env, out, port_file)
        load = Load(read_port(port_file))
        load.run_for(1.0)
        wait_for(lambda: stderr_text().count("failed") >= 3, 30, "three upload failures")
        load.run_for(0.5)
        eq(load.failed, 0, "failed requests")
        eq(len(reports_in(out)), 1, "the report stays on disk")
        finish_wrap(p)
        err = stderr_text()
        check("SignatureDoesNotMatch" in err, "a clear signature error:\n" + err)
        check("wrong-secret-value" not in err, "the secret was printed")
        eq(state.objects, {}, "nothing stored with a wrong signature")
    finally:
        server.shutdown()
        server.server_close()


def run_gsys(*args, timeout=60, env=None):
    return subprocess.run([gsys()] + list(args), capture_output=True, text=True, timeout=timeout,
                          env=env or base_env())


def case_launch_start_stop():
    """gsys launch: injected, not recording; start/stop from another shell give one report per
    window; sessions list shows the session; shutdown ends it."""
    out = os.path.join(TMP, "out")
    os.makedirs(out)
    port_file = os.path.join(TMP, "port")
    err = open(os.path.join(TMP, "wrap.stderr"), "w")
    # -o: `gsys start -o` names must lie inside the session's output directory.
    p = subprocess.Popen([gsys(), "launch", "--session-new", "srv", "-t", "nvtx", "-o", out + "/", "--"] +
                         server_cmd(port_file), env=base_env(), stdout=subprocess.PIPE, stderr=err, text=True)
    load = Load(read_port(port_file))
    load.start()
    lst = run_gsys("sessions", "list")
    eq(lst.returncode, 0, "sessions list rc")
    check("srv" in lst.stdout and str(p.pid) in lst.stdout, "sessions list:\n" + lst.stdout)
    reports = []
    for i in range(2):
        time.sleep(0.5)
        s = run_gsys("start", "--session", "srv", "-o", os.path.join(out, f"win{i}"))
        eq(s.returncode, 0, f"start {i}: {s.stderr}")
        time.sleep(1.0)
        s = run_gsys("stop", "--session", "srv")
        eq(s.returncode, 0, f"stop {i}: {s.stderr}")
        path = s.stdout.strip().split()[-1]
        eq(path, os.path.join(out, f"win{i}.gsys-rep"), "stop prints the report")
        check(os.path.exists(path), f"{path} written when stop returns")
        reports.append(path)
    time.sleep(0.3)
    load.finish()
    eq(load.failed, 0, "failed requests")
    a = check_window(reports[0], load)
    b = check_window(reports[1], load)
    check(not (a & b), "the two windows overlap")
    s = run_gsys("stop", "--session", "srv")
    check(s.returncode != 0 and "no capture window is open" in s.stderr, "stop without a window")
    s = run_gsys("shutdown", "--session", "srv")
    eq(s.returncode, 0, f"shutdown: {s.stderr}\n{stderr_text()}")
    eq(p.wait(timeout=30), 7, "launch exit code (the server's, after SIGTERM)")
    eq(len(reports_in(out)), 2, "one report per window")
    lst = run_gsys("sessions", "list")
    check("srv" not in lst.stdout, "ended session still listed:\n" + lst.stdout)


def case_profile_repeat():
    """gsys profile --capture-range-end repeat:2 writes one report per NVTX range."""
    prog = os.path.join(ARGS.build, "tests", "capture", "gsys_test_nvtx")
    out = os.path.join(TMP, "r")
    env = base_env(NSYS_NVTX_PROFILER_REGISTER_ONLY="0")
    p = subprocess.run([gsys(), "profile", "-t", "nvtx", "-c", "nvtx", "-p", "win@*",
                        "--capture-range-end", "repeat:2", "-o", out, prog, "windows", "3", "4"],
                       capture_output=True, text=True, env=env, timeout=60)
    eq(p.returncode, 0, "profile rc\n" + p.stderr)
    reps = sorted(glob.glob(os.path.join(TMP, "r*.gsys-rep")))
    eq(len(reps), 2, "reports\n" + p.stderr)
    for i, r in enumerate(reps):
        with sqlite3.connect(r) as db:
            n = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE text = 'work'").fetchone()[0]
            w = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE text = 'win'").fetchone()[0]
        eq(n, 4, f"{r}: work ranges inside range {i + 1}")
        eq(w, 1, f"{r}: the trigger range itself")


def case_session_wide_trigger():
    """-c nvtx is session-wide: a range in the parent opens the window for its child too."""
    prog = os.path.join(ARGS.build, "tests", "capture", "gsys_test_nvtx")
    out = os.path.join(TMP, "r")
    env = base_env(NSYS_NVTX_PROFILER_REGISTER_ONLY="0")
    p = subprocess.run([gsys(), "profile", "-t", "nvtx", "-c", "nvtx", "-p", "win@*",
                        "--capture-range-end", "stop", "-o", out, prog, "windows_child", "1", "5"], capture_output=True, text=True, env=env, timeout=60)
    eq(p.returncode, 0, "profile rc\n" + p.stderr)
    with sqlite3.connect(out + ".gsys-rep") as db:
        child = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE text = 'child_work'").fetchone()[0]
        before = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE text = 'child_before'").fetchone()[0]
    eq(child, 5, "the child's ranges inside the parent's window")
    eq(before, 0, "the child's ranges before the window")


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("case", choices=sorted(CASES))
    ARGS = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys-serving-") as tmp:
        TMP = tmp
        CASES[ARGS.case]()
    print("PASS", ARGS.case)


if __name__ == "__main__":
    main()
