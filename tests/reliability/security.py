#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Security checks (issue 8, docs/reliability.md):
  secrets      values of secret-looking environment variables (in gsys's environment, and set
               with -e) appear nowhere: not in the report, the kept session, gsys's output, the
               capture library's log (GSYS_LOG=1) or an export
  q_traversal  an -o pattern whose %q{} value climbs out ('../../x') is refused before the
               target starts
  no_shell     no source file under src/ calls system(), popen() or a shell; the stats '@CMD'
               output runs CMD split on spaces, without a shell (';' is a plain argument)
  session_root      (root: the attacker is `nobody`) a sessions root another user made, a
               symlink to a directory, or a group/other-writable one is refused by `gsys launch`
               (one line naming it, exit 2, the target does not start, nothing written through
               the link)
  session_requests  (root) in a live session, request files owned by another user, a FIFO and a
               symlink named *.req are ignored (the target lives, gsys does not hang); `gsys
               start -o` names outside the session's output directory ('..', absolute
               elsewhere, a symlink out of it) are refused; roots and session dirs are 0700
  private_files     (root) reports, raw streams and the session directory are owner-only
               (0600/0700) whatever the umask; `nobody` cannot read the report
  concurrent_output 4 concurrent `gsys profile -o same`: one runs, three fail at once (one
               line, exit 2, their targets never start); the report holds one run
  output_escape     an absolute %q{} value at the start of -o (profile) and a '..' or absolute
               %q{} value in `recipe --output` are one-line usage errors; nothing is written
  upload_messages   an S3 endpoint answering with ESC sequences, CR/LF and a forged
               "gsys: uploaded" line, echoing the Authorization header: gsys prints one
               printable line per message, the key id only as ...ABCD, no signature
  summary_links     (root) `nobody` plants WIN.stats.txt, WIN.stats.json, WIN.html as symbolic links to
               root's files in the shared output directory of a `gsys launch` session: the window's
               summaries replace the links, the files they named stay as they were (they were
               overwritten through the links)
  output_umask      under umask 077 every export type, stats -o, analyze -o and summary -o write
               owner-only files and directories, under 002 group-writable ones (they were 0644 /
               0755 whatever the umask)
  terminal_text     kernel and NVTX names with ESC sequences, CR/LF and a forged "gsys:" line,
               and report files named so (a glob in a shared directory): stats' column output,
               recipe, summary and export messages and every error print no control character
               and no forged line (names and paths were echoed raw)
  concurrent_exports  an output another run creates while an export (chrome, csv, sqlite), a
               recipe or an import is writing, without --force-overwrite: the run is stopped once
               its temporary output exists, the output is created, the run resumed: it fails with
               one line and the other run's output stays (it was replaced and both said they wrote
               it)
  host_names        (root: a UTS namespace of its own) a host name that is absolute, climbs ('..')
               or holds ESC/CR/LF puts the `-o %h` report in the pattern's directory under one
               plain name (it wrote /abs.gsys-rep and ../../x.gsys-rep); a %q{} value with
               control characters is a one-line usage error before the target starts
  upload_mode       `gsys upload FILE file:///DIR/` under umask 022 and 077: the copy of a 0600
               report stays 0600, a 0644 file gets the umask's mode (every copy was 0644: an
               uploaded report was world-readable)
  upload_endless_answer  an S3 endpoint that answers a PUT (200, and 500) with an endless body:
               `gsys upload` ends with one line saying the answer is over 1 MiB, exit 6 (it
               read the body for good, a window's upload in `gsys wrap` too)

usage: security.py --build BUILD_DIR CASE"""
import argparse
import http.server
import os
import pwd
import re
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
import threading
import time

ARGS = None
TMP = None
SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src")
SECRETS = {
    "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMIK7MDENGbPxRfiCYzz9secret1",
    "AWS_SESSION_TOKEN": "FwoGZXIvYXdzEXAMPLEsessiontoken22",
    "GITHUB_TOKEN": "ghp_EXAMPLEexampleEXAMPLE333",
    "HF_TOKEN": "hf_EXAMPLEhuggingface444",
    "MYSQL_PWD": "pw_EXAMPLE_mysql_777",
}
# Secrets inside values of ordinary names: the URL's password and a connection string's key go,
# the rest of the value stays.
EMBEDDED = {
    "DATABASE_URL": ("postgres://app:pw_EXAMPLE_url_666@db.internal/prod", "pw_EXAMPLE_url_666",
                     "postgres://app:<redacted by gsys>@db.internal/prod"),
    "AZURE_STORAGE_CONNECTION_STRING": ("AccountName=acct;AccountKey=key_EXAMPLE_888==;x=1",
                                        "key_EXAMPLE_888",
                                        "AccountName=acct;AccountKey=<redacted by gsys>;x=1"),
}


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def gsys():
    return os.path.join(ARGS.build, "bin", "gsys")


def prog():
    return os.path.join(ARGS.build, "tests", "reliability", "gsys_fault_target")


def files_under(path):
    for root, _, names in os.walk(path):
        for n in names:
            yield os.path.join(root, n)


def case_secrets():
    env = dict(os.environ, GSYS_KEEP_SESSION="1", GSYS_LOG="1", **SECRETS,
               **{k: v[0] for k, v in EMBEDDED.items()})
    extra = "DB_PASSWORD=pw_EXAMPLE_database_555"
    p = subprocess.run([gsys(), "profile", "-o", "r", "-e", extra, "--export=chrome",
                        prog(), "nested", "5"], capture_output=True, text=True, env=env,
                       timeout=60)
    if p.returncode != 0:
        fail(f"profile failed: {p.stderr}")
    values = list(SECRETS.values()) + [extra.split("=", 1)[1]] + [v[1] for v in EMBEDDED.values()]
    places = {"gsys stdout": p.stdout.encode(), "gsys stderr": p.stderr.encode()}
    for f in files_under(TMP):
        with open(f, "rb") as fh:
            places[os.path.relpath(f, TMP)] = fh.read()
    if "r.gsys-rep" not in places or not any(k.endswith(".gsysraw") for k in places):
        fail(f"expected a report and a kept session, found {sorted(places)}")
    for where, data in places.items():
        for v in values:
            if v.encode() in data:
                fail(f"secret value {v[:6]}... found in {where}")
    s = subprocess.run([gsys(), "stats", "r.gsys-rep"], capture_output=True, text=True, env=env)
    for v in values:
        if v in s.stdout or v in s.stderr:
            fail("secret value in gsys stats output")
    # The report keeps the environment as nsys does (META_DATA_CAPTURE, TARGET_INFO_SYSTEM_ENV):
    # secret names with the redaction mark, other variables as they are.
    db = sqlite3.connect(os.path.join(TMP, "r.gsys-rep"))
    captured = {v for (v,) in db.execute(
        "SELECT value FROM META_DATA_CAPTURE WHERE name = 'PROCESS_0:ENVIRONMENT_VARIABLE'")}
    system_env = db.execute("SELECT value FROM TARGET_INFO_SYSTEM_ENV "
                            "WHERE name = 'DeviceEnvironment'").fetchone()
    schema = db.execute("SELECT value FROM META_DATA_EXPORT "
                        "WHERE name = 'EXPORT_SCHEMA_VERSION'").fetchone()
    db.close()
    for name in SECRETS:
        if f'{name}="<redacted by gsys>"' not in captured:
            fail(f"META_DATA_CAPTURE lacks the redacted {name}")
        if not system_env or f"{name}=<redacted by gsys>" not in system_env[0]:
            fail(f"TARGET_INFO_SYSTEM_ENV lacks the redacted {name}")
    for name, (_, _, kept) in EMBEDDED.items():
        if f'{name}="{kept}"' not in captured:
            fail(f"META_DATA_CAPTURE lacks {name} with only its secret part redacted")
    if f'GSYS_KEEP_SESSION="1"' not in captured or schema != ("3.20.3",):
        fail(f"environment or export schema version missing: {schema}")
    print(f"checked {len(places)} outputs for {len(values)} secret values")


def case_q_traversal():
    marker = os.path.join(TMP, "target-ran")
    os.makedirs(os.path.join(TMP, "out"))
    env = dict(os.environ, X="../../etc/gsys-escape")
    p = subprocess.run([gsys(), "profile", "-o", "out/%q{X}", "/bin/sh", "-c", f"touch {marker}"],
                       capture_output=True, text=True, env=env, timeout=60)
    if p.returncode != 2 or "'..'" not in p.stderr or len(p.stderr.strip().splitlines()) != 1:
        fail(f"expected a one-line usage error (exit 2), got {p.returncode}: {p.stderr!r}")
    if os.path.exists(marker):
        fail("the target ran although the output name was refused")
    # A value with dots and slashes that climbs nothing is fine.
    env = dict(os.environ, X="run..1")
    p = subprocess.run([gsys(), "profile", "-o", "out/%q{X}", "true"], capture_output=True,
                       text=True, env=env, timeout=60)
    if p.returncode != 0 or not os.path.exists(os.path.join(TMP, "out", "run..1.gsys-rep")):
        fail(f"out/%q{{X}} with X=run..1: {p.returncode} {p.stderr}")


def case_no_shell():
    banned = re.compile(r"(?<![\w])(system|popen)\s*\(|\"/bin/sh\"|\"sh\"\s*,\s*\"-c\"")
    hits = []
    for f in files_under(SRC):
        if not f.endswith((".cc", ".h")) or f.endswith("_test.cc"):
            continue
        with open(f, encoding="utf-8", errors="replace") as fh:
            for n, line in enumerate(fh, 1):
                code = line.split("//")[0]
                if banned.search(code):
                    hits.append(f"{os.path.relpath(f, SRC)}:{n}: {line.strip()}")
    if hits:
        fail("shell or system() use in src/:\n" + "\n".join(hits))
    # '@CMD' output of stats: words split on spaces, no shell; ';' reaches the command as text.
    fixture = os.path.join(ARGS.fixtures, "nsys2025.1-nvcpp-stdpar-nvtx-osrt.sqlite")
    marker = os.path.join(TMP, "shell-ran")
    p = subprocess.run([gsys(), "stats", "-r", "nvtx_sum", "-o", f"@cat ; touch {marker}",
                        fixture], capture_output=True, text=True, timeout=60)
    if os.path.exists(marker):
        fail("the '@' output command went through a shell")
    print(f"stats @cmd exit {p.returncode} (cat rejects ';' as a file: no shell)")


def skip(reason):
    print("SKIP:", reason)
    sys.exit(77)


def need_root():
    if os.geteuid() != 0:
        skip("needs root to act as another local user (nobody); CI runs it as root")
    try:
        return pwd.getpwnam("nobody")
    except KeyError:
        skip("no 'nobody' user on this machine")


def as_nobody(fn):
    """Runs fn() in a forked child with nobody's uid/gid; returns its exit status."""
    nobody = pwd.getpwnam("nobody")
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            fn()
            os._exit(0)
        except BaseException as e:  # noqa: BLE001 - report any failure as an exit code
            print(f"as nobody: {type(e).__name__}: {e}")
            os._exit(3)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def one_line_error(p, what, needle):
    lines = [l for l in p.stderr.splitlines() if l.strip()]
    if p.returncode != 2 or len(lines) != 1 or needle not in p.stderr:
        fail(f"{what}: expected a one-line error with {needle!r} (exit 2), got {p.returncode}: "
             f"{p.stderr!r}")


def public_dir():
    """A directory every user may create entries in (like /tmp), inside TMP."""
    os.chmod(TMP, 0o755)
    pub = os.path.join(TMP, "pub")
    os.mkdir(pub)
    os.chmod(pub, 0o1777)
    return pub


def launch_env(root):
    return dict(os.environ, GSYS_SESSIONS_DIR=root)


def case_session_root():
    need_root()
    pub = public_dir()
    marker = os.path.join(TMP, "target-ran")
    target = ["/bin/sh", "-c", f"touch {marker}"]
    # 1. The attacker creates the root first (what /tmp/gsys-sessions-0 invites).
    root = os.path.join(pub, "gsys-sessions-0")
    if as_nobody(lambda: os.mkdir(root, 0o777)) != 0:
        fail("nobody could not create the planted root")
    p = subprocess.run([gsys(), "launch", "--session-new", "s", "--"] + target,
                       capture_output=True, text=True, env=launch_env(root), timeout=60)
    one_line_error(p, "root owned by nobody", root)
    if os.path.exists(marker) or os.listdir(root):
        fail("gsys launch used a sessions root another user owns")
    # 2. A symlink to a directory of root's (the old code chmod'ed and wrote through it).
    victim = os.path.join(TMP, "victim")
    os.mkdir(victim, 0o755)
    link = os.path.join(pub, "gsys-sessions-link")
    if as_nobody(lambda: os.symlink(victim, link)) != 0:
        fail("nobody could not plant the symlink")
    p = subprocess.run([gsys(), "launch", "--session-new", "s", "--"] + target,
                       capture_output=True, text=True, env=launch_env(link), timeout=60)
    one_line_error(p, "symlinked root", link)
    if os.listdir(victim) or stat.S_IMODE(os.stat(victim).st_mode) != 0o755:
        fail("gsys launch wrote into or chmod'ed the symlink's target")
    # 3. Ours, but writable by others.
    loose = os.path.join(TMP, "loose")
    os.mkdir(loose)
    os.chmod(loose, 0o777)
    p = subprocess.run([gsys(), "launch", "--session-new", "s", "--"] + target,
                       capture_output=True, text=True, env=launch_env(loose), timeout=60)
    one_line_error(p, "other-writable root", loose)
    # 4. A session name may not climb out of the root.
    own = os.path.join(TMP, "own")
    p = subprocess.run([gsys(), "launch", "--session-new", "../escape", "--"] + target,
                       capture_output=True, text=True, env=launch_env(own), timeout=60)
    one_line_error(p, "session name '../escape'", "session name")
    if os.path.exists(marker) or os.path.exists(os.path.join(TMP, "escape")):
        fail("a refused launch started its target or made its directory")


def wait_for(cond, what, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if cond():
            return
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")


def case_session_requests():
    need_root()
    root = os.path.join(TMP, "sessions")
    out = os.path.join(TMP, "out")
    os.mkdir(out)
    env = launch_env(root)
    err = open(os.path.join(TMP, "launch.stderr"), "w+")
    p = subprocess.Popen([gsys(), "launch", "--session-new", "s", "-t", "nvtx", "--",
                          "sleep", "60"], env=env, cwd=out, stdout=subprocess.DEVNULL,
                         stderr=err, text=True)
    sdir = os.path.join(root, "s")
    try:
        wait_for(lambda: os.path.exists(os.path.join(sdir, "info")), "the session")
        for d in (root, sdir, os.path.join(sdir, "requests")):
            mode = stat.S_IMODE(os.lstat(d).st_mode)
            if mode != 0o700:
                fail(f"{d} has mode {oct(mode)}, expected 0700")
        req = os.path.join(sdir, "requests")
        # A request another user wrote (defense in depth: 0700 keeps them out already).
        foreign = os.path.join(req, "0-evil.tmp")
        with open(foreign, "w") as f:
            f.write("verb=shutdown\nkill=9\n")
        nobody = pwd.getpwnam("nobody")
        os.chown(foreign, nobody.pw_uid, nobody.pw_gid)
        os.rename(foreign, os.path.join(req, "0-evil.req"))
        # A FIFO (opening it for reading would block) and a symlink to a valid request.
        os.mkfifo(os.path.join(req, "1-fifo.req"))
        real = os.path.join(TMP, "shutdown.txt")
        with open(real, "w") as f:
            f.write("verb=shutdown\nkill=9\n")
        os.symlink(real, os.path.join(req, "2-link.req"))
        wait_for(lambda: not os.listdir(req), "the launcher to drop the planted files", 10)
        time.sleep(0.5)
        if p.poll() is not None:
            fail(f"the session ended on a planted request (exit {p.returncode})")
        lst = subprocess.run([gsys(), "sessions", "list"], capture_output=True, text=True,
                             env=env, timeout=30)
        if lst.returncode != 0 or " s " not in lst.stdout.replace("\n", " ") and "s " not in lst.stdout:
            fail(f"sessions list after the planted requests: {lst.returncode} {lst.stdout!r}")
        # Outputs outside the session's output directory.
        elsewhere = os.path.join(TMP, "elsewhere")
        os.mkdir(elsewhere)
        os.symlink(elsewhere, os.path.join(out, "link"))
        for name, needle in ((os.path.join(elsewhere, "x"), "outside"), ("../x", "'..'"),
                             ("link/x", "symbolic link"), ("sub/../../x", "'..'")):
            s = subprocess.run([gsys(), "start", "--session", "s", "-o", name],
                               capture_output=True, text=True, env=env, timeout=30)
            lines = [l for l in s.stderr.splitlines() if l.strip()]
            if s.returncode == 0 or len(lines) != 1 or needle not in s.stderr:
                fail(f"start -o {name}: expected a one-line refusal with {needle!r}, got "
                     f"{s.returncode}: {s.stderr!r}")
        s = subprocess.run([gsys(), "start", "--session", "s", "-o", "win"],
                           capture_output=True, text=True, env=env, timeout=30)
        if s.returncode != 0:
            fail(f"start -o win: {s.returncode} {s.stderr}")
        s = subprocess.run([gsys(), "stop", "--session", "s"], capture_output=True, text=True,
                           env=env, timeout=120)
        want = os.path.join(out, "win.gsys-rep")
        if s.returncode != 0 or s.stdout.split()[-1] != want or not os.path.exists(want):
            fail(f"stop: {s.returncode} {s.stdout!r} {s.stderr!r}")
        if os.listdir(elsewhere):
            fail(f"a refused output was written: {os.listdir(elsewhere)}")
        s = subprocess.run([gsys(), "shutdown", "--session", "s"], capture_output=True,
                           text=True, env=env, timeout=30)
        if s.returncode != 0:
            fail(f"shutdown: {s.stderr}")
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    err.seek(0)
    log = err.read()
    if log.count("warning: ignored") < 3:
        fail(f"expected one warning per planted file, launcher said:\n{log}")


def case_private_files():
    nobody = need_root()
    old = os.umask(0o022)
    try:
        env = dict(os.environ, GSYS_KEEP_SESSION="1")
        p = subprocess.run([gsys(), "profile", "-o", "r", prog(), "nested", "5"],
                           capture_output=True, text=True, env=env, timeout=60)
    finally:
        os.umask(old)
    if p.returncode != 0:
        fail(f"profile failed: {p.stderr}")
    os.chmod(TMP, 0o755)  # nobody may reach the files; only their own modes protect them
    report = os.path.join(TMP, "r.gsys-rep")
    session = os.path.join(TMP, "r.gsys-session")
    checks = [(report, 0o600), (session, 0o700)]
    streams = [os.path.join(session, n) for n in os.listdir(session) if n.endswith(".gsysraw")]
    if not streams:
        fail(f"no raw stream kept in {session}: {os.listdir(session)}")
    checks += [(s, 0o600) for s in streams]
    for path, want in checks:
        mode = stat.S_IMODE(os.stat(path).st_mode)
        if mode != want:
            fail(f"{os.path.relpath(path, TMP)} has mode {oct(mode)}, expected {oct(want)}")

    def read_report():
        try:
            open(report, "rb").close()
        except PermissionError:
            os._exit(0)
        os._exit(4)
    if as_nobody(read_report) != 0:
        fail("nobody could read the report")
    print(f"checked {len(checks)} modes; nobody (uid {nobody.pw_uid}) cannot read the report")


def case_concurrent_output():
    os.mkdir(os.path.join(TMP, "ran"))
    procs = []
    for i in range(4):
        # One process per run: echo is built in, exec keeps the pid.
        cmd = [gsys(), "profile", "-t", "nvtx,osrt", "-o", "same", "/bin/sh", "-c",
               "echo > ran/$0; exec sleep 2", str(i)]
        procs.append(subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
    ok = [r for r in results if r[0] == 0]
    refused = [r for r in results if r[0] != 0]
    ran = os.listdir(os.path.join(TMP, "ran"))
    if len(ok) != 1 or len(refused) != 3 or len(ran) != 1:
        fail(f"expected 1 run and 3 refusals, got exit codes {[r[0] for r in results]}, "
             f"targets run {sorted(ran)}:\n" + "\n".join(r[1] for r in results))
    for code, err in refused:
        lines = [l for l in err.splitlines() if l.strip()]
        if code != 2 or len(lines) != 1 or "in use by another gsys run" not in err:
            fail(f"refused run: expected a one-line error (exit 2), got {code}: {err!r}")
    db = sqlite3.connect("file:same.gsys-rep?mode=ro", uri=True)
    procs_in_report = db.execute("SELECT COUNT(DISTINCT globalPid) FROM PROCESSES").fetchone()[0]
    if procs_in_report != 1:
        fail(f"the report holds {procs_in_report} processes, expected the one run's 1")
    if os.path.exists("same.gsys-session"):
        fail("the session directory stayed")


def case_output_escape():
    marker = os.path.join(TMP, "target-ran")
    elsewhere = os.path.join(TMP, "elsewhere")
    os.mkdir(elsewhere)
    env = dict(os.environ, X=os.path.join(elsewhere, "r"))
    p = subprocess.run([gsys(), "profile", "-o", "%q{X}", "/bin/sh", "-c", f"touch {marker}"],
                       capture_output=True, text=True, env=env, timeout=60)
    one_line_error(p, "profile -o %q{X} with an absolute X", "absolute")
    if os.path.exists(marker) or os.listdir(elsewhere):
        fail("profile ran or wrote with an absolute %q{} value")
    # A pattern that is absolute by itself stays allowed.
    p = subprocess.run([gsys(), "profile", "-o", os.path.join(elsewhere, "%q{Y}"), "true"],
                       capture_output=True, text=True, env=dict(os.environ, Y="ok"),
                       timeout=60)
    if p.returncode != 0 or not os.path.exists(os.path.join(elsewhere, "ok.gsys-rep")):
        fail(f"profile -o ABS/%q{{Y}}: {p.returncode} {p.stderr}")
    report = os.path.join(elsewhere, "ok.gsys-rep")
    os.mkdir(os.path.join(TMP, "out"))
    for pattern, value, needle in (("out/%q{X}", "../../escape", "'..'"),
                                   ("%q{X}", os.path.join(TMP, "abs-escape"), "absolute")):
        p = subprocess.run([gsys(), "recipe", "nvtx_sum", "--input", report, "--output",
                            pattern], capture_output=True, text=True,
                           env=dict(os.environ, X=value), timeout=120)
        one_line_error(p, f"recipe --output {pattern} with X={value}", needle)
    for escaped in ("escape", "abs-escape", os.path.join("..", "escape")):
        if os.path.exists(os.path.join(TMP, escaped)):
            fail(f"recipe wrote {escaped}")
    p = subprocess.run([gsys(), "recipe", "nvtx_sum", "--input", report, "--output",
                        "out/%q{X}"], capture_output=True, text=True,
                       env=dict(os.environ, X="fine"), timeout=120)
    if p.returncode != 0 or not os.path.isdir(os.path.join(TMP, "out", "fine")):
        fail(f"recipe --output out/%q{{X}} with X=fine: {p.returncode} {p.stderr}")


def case_summary_links():
    need_root()
    os.chmod(TMP, 0o755)
    shared = os.path.join(TMP, "shared")
    os.mkdir(shared)
    os.chmod(shared, 0o777)  # a team directory: no sticky bit, so the kernel's link guard is off
    victim = os.path.join(TMP, "victim.txt")
    with open(victim, "w") as f:
        f.write("precious\n")
    os.chmod(victim, 0o644)
    missing = os.path.join(TMP, "victim.json")
    win = os.path.join(shared, "win")

    def plant():
        os.symlink(victim, win + ".stats.txt")
        os.symlink(missing, win + ".stats.json")
        os.symlink(victim, win + ".html")
    if as_nobody(plant) != 0:
        fail("nobody could not plant the links")
    env = launch_env(os.path.join(TMP, "sessions"))
    p = subprocess.Popen([gsys(), "launch", "--session-new", "s", "-o", win, "--", "sleep", "60"],
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(lambda: os.path.exists(os.path.join(TMP, "sessions", "s", "info")), "the session")
        for verb in ("start", "stop", "shutdown"):
            s = subprocess.run([gsys(), verb, "--session", "s"], capture_output=True, text=True,
                               env=env, timeout=120)
            if s.returncode != 0:
                fail(f"{verb}: {s.returncode} {s.stderr}")
        p.wait(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    with open(victim) as f:
        if f.read() != "precious\n":
            fail("the window's stats summary was written through a planted link")
    if os.path.exists(missing):
        fail("the window's JSON summary created the planted link's target")
    for suffix in (".stats.txt", ".stats.json", ".html"):
        if os.path.islink(win + suffix) or not os.path.isfile(win + suffix):
            fail(f"{win + suffix} is not the summary gsys wrote")
    print("summaries replaced the planted links; their targets untouched")


def case_output_umask():
    env = dict(os.environ, GSYS_KEEP_SESSION="0")
    p = subprocess.run([gsys(), "profile", "-o", "r", prog(), "nested", "5"], capture_output=True,
                       text=True, env=env, timeout=60)
    if p.returncode != 0:
        fail(f"profile failed: {p.stderr}")
    for mask in (0o077, 0o002):
        out = os.path.join(TMP, f"u{mask:03o}")
        os.mkdir(out)
        runs = [["export", "-t", t, "-o", os.path.join(out, "r_" + t), "r.gsys-rep"]
                for t in ("perfetto", "chrome", "jsonlines", "csv", "sqlite")]
        runs += [["stats", "-r", "nvtx_sum", "-f", "csv", "-o", os.path.join(out, "st"),
                  "r.gsys-rep"],
                 ["analyze", "-o", os.path.join(out, "an"), "r.gsys-rep"],
                 ["summary", "-o", os.path.join(out, "sum.html"), "r.gsys-rep"]]

        def run_all():
            os.umask(mask)
            for args in runs:
                q = subprocess.run([gsys()] + args, capture_output=True, text=True, timeout=120)
                if q.returncode != 0:
                    print(f"{args[0]} failed: {q.stderr}")
                    os._exit(5)
            os._exit(0)
        pid = os.fork()
        if pid == 0:
            run_all()
        if os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) != 0:
            fail(f"a verb failed under umask {mask:03o}")
        checked = 0
        for root, dirs, files in os.walk(out):
            for name in dirs + files:
                path = os.path.join(root, name)
                want = (0o777 if name in dirs else 0o666) & ~mask
                mode = stat.S_IMODE(os.lstat(path).st_mode)
                if mode != want:
                    fail(f"umask {mask:03o}: {os.path.relpath(path, TMP)} has mode {oct(mode)}, "
                         f"expected {oct(want)}")
                checked += 1
        print(f"umask {mask:03o}: {checked} outputs have the umask's modes")


FORGED = "\x1b]0;owned\x07\x1b[2J\r\ngsys: forged"


def case_terminal_text():
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
    import synth_report  # tests/lib: reports in the canonical schema
    rdir = os.path.join(TMP, "reports")
    os.mkdir(rdir)
    r = synth_report.Report()
    for i in range(3):
        r.kernel(1000 + i * 100, 1050 + i * 100, "k%d%s" % (i, FORGED))
        r.api(990 + i * 100, 995 + i * 100, "cudaLaunchKernel")
    r.nvtx(900, 2000, "range" + FORGED)
    report = os.path.join(rdir, "a" + FORGED + ".gsys-rep")
    r.write(report)
    empty = os.path.join(TMP, "b" + FORGED + ".gsys-rep")
    open(empty, "w").close()
    runs = [["stats", "-r", "cuda_gpu_kern_sum,nvtx_sum", report],
            ["stats", "-r", "cuda_gpu_kern_sum", "--format", "table", report],
            ["recipe", "cuda_gpu_kern_pace", "--name", "nothing", "--input", rdir, "--output",
             os.path.join(TMP, "pace")],
            ["summary", report], ["export", "-t", "chrome", report],
            ["stats", empty], ["recipe", "cuda_gpu_kern_sum", "--input", empty, "--output",
                               os.path.join(TMP, "rec")]]
    for args in runs:
        p = subprocess.run([gsys()] + args, capture_output=True, timeout=120, cwd=TMP)
        for name, data in (("stdout", p.stdout), ("stderr", p.stderr)):
            for line in data.split(b"\n"):
                if any(b < 0x20 or b == 0x7f for b in line):
                    fail(f"gsys {args[0]}: control character on {name}: {line!r}")
                if line.startswith(b"gsys: forged"):
                    fail(f"gsys {args[0]}: a forged line on {name}: {line!r}")
        if b"forged" not in p.stdout + p.stderr and args[0] != "export":
            fail(f"gsys {args[0]}: the names are not shown at all: {p.stdout + p.stderr!r}")
    print(f"{len(runs)} runs: names and paths shown escaped, no control characters")


def stop_inside_commit_window(args, out, make_other, attempts=40):
    """Runs gsys ARGS writing OUT; once its temporary OUT.tmp-* exists, stops it, lets
    make_other() create OUT as a concurrent run would, resumes it. The finished process, or None
    when every attempt finished before its temporary output was seen."""
    import signal
    parent, base = os.path.split(out)
    for _ in range(attempts):
        for n in os.listdir(parent):
            if n.startswith(base):
                shutil.rmtree(os.path.join(parent, n), ignore_errors=True)
                if os.path.exists(os.path.join(parent, n)):
                    os.unlink(os.path.join(parent, n))
        p = subprocess.Popen([gsys()] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
        caught = False
        while p.poll() is None:
            if any(n.startswith(base + ".tmp-") for n in os.listdir(parent)):
                p.send_signal(signal.SIGSTOP)
                caught = True
                break
            time.sleep(0.0005)
        if caught:
            make_other()
            p.send_signal(signal.SIGCONT)
        p.wait(timeout=300)
        p.err = p.stderr.read()
        if caught:
            return p
    return None


def case_concurrent_exports():
    # The report every case reads is one gsys makes here (a bare clone has no nsys fixture);
    # its session is kept for the import case (import renamed over the other run's report, and
    # a second import of the same -o deleted the first one's temporary file).
    p = subprocess.run([gsys(), "profile", "-t", "nvtx", "-o", "s", prog(), "nested", "200000"],
                       capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, GSYS_KEEP_SESSION="1"))
    if p.returncode != 0:
        fail(f"profile failed: {p.stderr}")
    fixture = os.path.abspath("s.gsys-rep")
    cases = [(["export", "-t", t], t, t == "csv") for t in ("chrome", "csv", "sqlite")]
    cases.append((["import", "s.gsys-session"], "import", False))
    cases.append((["recipe", "nvtx_sum", "--input", fixture, "--output"], "recipe", True))
    for args, tag, is_dir in cases:
        out = os.path.join(TMP, "out_" + tag)

        def other():
            if is_dir:
                os.mkdir(out)
                with open(os.path.join(out, "files.csv"), "w") as f:
                    f.write("the other run\n")
            else:
                with open(out, "w") as f:
                    f.write("the other run\n")
        full = args + [out] if tag == "recipe" else args + ["-o", out, fixture]
        if tag == "import":
            full = args + ["-o", out]
        p = stop_inside_commit_window(full, out, other)
        if p is None:
            skip(f"{tag}: every run ended before its temporary output was seen")
        kept = os.path.join(out, "files.csv") if is_dir else out
        with open(kept) as f:
            if f.read() != "the other run\n":
                fail(f"{tag}: the other run's output was replaced (exit {p.returncode}: {p.err!r})")
        lines = [l for l in p.err.splitlines() if l.strip()]
        lines = [l for l in lines if not l.startswith("gsys: warning:")]
        if p.returncode == 0 or len(lines) != 1 or "appeared" not in p.err:
            fail(f"{tag}: expected a one-line failure, got {p.returncode}: {p.err!r}")
        left = [n for n in os.listdir(TMP) if n.startswith("out_" + tag + ".")]
        if left:
            fail(f"{tag}: temporary output left behind: {left}")
        print(f"{tag}: {lines[0]}")


HOST_PROBE = r'''
import os, socket, subprocess, sys
socket.sethostname(sys.argv[1])
p = subprocess.run(sys.argv[2:], capture_output=True, text=True)
sys.stdout.write(p.stderr)
sys.exit(p.returncode)
'''


def case_host_names():
    need_root()
    if shutil.which("unshare") is None:
        skip("no unshare(1) to give the test a host name of its own")
    work = os.path.join(TMP, "a", "b")
    os.makedirs(work)
    for host in ("/" + os.path.join(TMP.lstrip("/"), "abs"), "../..", "x/../../y",
                 "h\x1b]0;t\x07\r\ngsys: forged"):
        p = subprocess.run(["unshare", "-u", sys.executable, "-c", HOST_PROBE, host, gsys(),
                            "profile", "-o", "%h", "-t", "nvtx", "true"], capture_output=True,
                           text=True, cwd=work, timeout=60)
        if p.returncode != 0:
            fail(f"host {host!r}: profile exited {p.returncode}: {p.stdout!r}")
        made = [n for n in os.listdir(work) if n.endswith(".gsys-rep")]
        if len(made) != 1 or any(ord(c) < 0x20 for c in made[0]):
            fail(f"host {host!r}: expected one plain report in {work}, found {made}")
        os.unlink(os.path.join(work, made[0]))
    strays = [os.path.join(r, n) for r, _, ns in os.walk(TMP) for n in ns
              if n.endswith(".gsys-rep")]
    if strays:
        fail(f"reports written outside the pattern's directory: {strays}")
    marker = os.path.join(TMP, "target-ran")
    p = subprocess.run([gsys(), "profile", "-o", "r%q{X}", "/bin/sh", "-c", f"touch {marker}"],
                       capture_output=True, text=True, timeout=60, cwd=work,
                       env=dict(os.environ, X="\x1b]0;t\x07\r\ngsys: forged"))
    one_line_error(p, "a %q{} value with control characters", "control character")
    if os.path.exists(marker) or os.listdir(work):
        fail("the target ran or a report was written for a refused -o")
    print("host names stay one component; control characters in -o values refused")


class HostileS3(http.server.BaseHTTPRequestHandler):
    seen_auth = []

    def log_message(self, *args):
        pass

    def do_PUT(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        auth = self.headers.get("Authorization", "")
        HostileS3.seen_auth.append(auth)
        if "/bkt/retry/" in self.path:
            status, code = 503, "Slow\x1b[2J\r\ngsys: uploaded forged to s3://bkt/ OK"
        else:
            status, code = 403, "SignatureDoesNotMatch"
        message = ("denied\x1b]0;owned\x07\x1b[31m red\r\ngsys: uploaded r.gsys-rep to "
                   "s3://bkt/ OK\n\x9b2J \xff\xfe echo: " + auth)
        body = (f"<?xml version=\"1.0\"?><Error><Code>{code}</Code><Message>{message}</Message>"
                "</Error>").encode("utf-8", "surrogateescape")
        self.send_response(status)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def case_upload_messages():
    if subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout.find(
            "libcurl.so.4") < 0:
        skip("libcurl.so.4 is not installed (s3:// uploads need it)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), HostileS3)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    key_id, secret = "AKIAEXAMPLEHOSTILE7Q2Z", "hostileSecretEXAMPLEkey0123456789abcdefgh"
    env = dict(os.environ, AWS_ACCESS_KEY_ID=key_id, AWS_SECRET_ACCESS_KEY=secret,
               AWS_REGION="us-east-1", GSYS_UPLOAD_MAX_ATTEMPTS="2")
    for k in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        env.pop(k, None)
    with open("r.gsys-rep", "wb") as f:
        f.write(b"x" * 100)
    try:
        for dest in ("s3://bkt/deny/", "s3://bkt/retry/"):
            HostileS3.seen_auth.clear()
            p = subprocess.run([gsys(), "upload", "--endpoint-url", url, "r.gsys-rep", dest],
                               capture_output=True, env=env, timeout=120)
            err = p.stderr.decode("utf-8", "replace")
            if p.returncode != 6 or not HostileS3.seen_auth:
                fail(f"upload to {dest}: expected exit 6 after reaching the server, got "
                     f"{p.returncode}: {err!r}")
            raw = p.stderr
            lines = raw.split(b"\n")
            if lines and lines[-1] == b"":
                lines.pop()
            want_lines = 1 if "deny" in dest else 2  # the retry's log line, then the failure
            if len(lines) != want_lines:
                fail(f"{dest}: expected {want_lines} line(s), got {len(lines)}: {err!r}")
            for line in lines:
                if any(b < 0x20 or b == 0x7f for b in line):
                    fail(f"{dest}: control character in {line!r}")
                try:
                    text = line.decode("utf-8")
                except UnicodeDecodeError:
                    fail(f"{dest}: not UTF-8: {line!r}")
                if any(0x80 <= ord(c) <= 0x9f for c in text):
                    fail(f"{dest}: C1 control in {line!r}")
                if not text.startswith("upload: ") and not text.startswith("gsys: upload: "):
                    fail(f"{dest}: a line that is not gsys's: {text!r}")
            signatures = [a.rsplit("Signature=", 1)[-1] for a in HostileS3.seen_auth]
            for secretish in [key_id, secret] + signatures:
                if secretish.encode() in raw:
                    fail(f"{dest}: {secretish[:8]}... printed in full: {err!r}")
            if "deny" in dest and ("..." + key_id[-4:]) not in err:
                fail(f"{dest}: the key id is not shown as ...{key_id[-4:]}: {err!r}")
            print(f"{dest}: {err.strip()[:300]}")
    finally:
        server.shutdown()


class EndlessS3(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_PUT(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(500 if "/fail/" in self.path else 200)
        self.send_header("Transfer-Encoding", "chunked")
        self.send_header("ETag", '"x"')
        self.end_headers()
        chunk = b"<Error>" + b"A" * 65536
        try:
            while True:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        except OSError:
            pass


def case_upload_endless_answer():
    if subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout.find(
            "libcurl.so.4") < 0:
        skip("libcurl.so.4 is not installed (s3:// uploads need it)")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), EndlessS3)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    env = dict(os.environ, AWS_ACCESS_KEY_ID="AKIAEXAMPLEENDLESS7Q2Z",
               AWS_SECRET_ACCESS_KEY="endlessSecretEXAMPLEkey0123456789abcdefgh",
               AWS_REGION="us-east-1", GSYS_UPLOAD_MAX_ATTEMPTS="1")
    for k in ("AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_S3"):
        env.pop(k, None)
    with open("r.gsys-rep", "wb") as f:
        f.write(b"x" * 100)
    try:
        for dest in ("s3://bkt/ok/", "s3://bkt/fail/"):
            try:
                p = subprocess.run([gsys(), "upload", "--endpoint-url", url, "r.gsys-rep", dest],
                                   capture_output=True, text=True, env=env, timeout=90)
            except subprocess.TimeoutExpired:
                fail(f"upload to {dest}: still reading the endless answer after 90 s")
            lines = [l for l in p.stderr.splitlines() if l.strip()]
            if p.returncode != 6 or len(lines) != 1 or "over 1 MiB" not in p.stderr:
                fail(f"upload to {dest}: expected one line about the answer's size (exit 6), "
                     f"got {p.returncode}: {p.stderr!r}")
            print(f"{dest}: {lines[0]}")
    finally:
        server.shutdown()


def case_upload_mode():
    p = subprocess.run([gsys(), "profile", "-o", "r", prog(), "nested", "5"], capture_output=True,
                       text=True, timeout=60)
    if p.returncode != 0:
        fail(f"profile failed: {p.stderr}")
    with open("notes.txt", "w") as f:
        f.write("x")
    os.chmod("notes.txt", 0o644)
    for mask in (0o022, 0o077):
        dest = os.path.join(TMP, f"up{mask:03o}")
        old = os.umask(mask)
        try:
            q = subprocess.run([gsys(), "upload", "r.gsys-rep", "notes.txt",
                                "file://" + dest + "/"], capture_output=True, text=True,
                               timeout=60)
        finally:
            os.umask(old)
        if q.returncode != 0:
            fail(f"upload under umask {mask:03o}: {q.returncode} {q.stderr}")
        for name, want in (("r.gsys-rep", 0o600), ("notes.txt", 0o644 & ~mask)):
            mode = stat.S_IMODE(os.stat(os.path.join(dest, name)).st_mode)
            if mode != want:
                fail(f"umask {mask:03o}: the uploaded {name} has mode {oct(mode)}, "
                     f"expected {oct(want)}")
    print("uploaded copies: a 0600 report stays 0600, other files get the umask's mode")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--fixtures", default=os.path.join(SRC, "..", "..", "shared", "fixtures", "nsys"))
    ap.add_argument("case")
    ARGS = ap.parse_args()
    ARGS.build = os.path.abspath(ARGS.build)
    ARGS.fixtures = os.path.abspath(ARGS.fixtures)
    TMP = tempfile.mkdtemp(prefix="gsys_security_")
    try:
        os.chdir(TMP)
        globals()["case_" + ARGS.case]()
    finally:
        os.chdir("/")
        shutil.rmtree(TMP, ignore_errors=True)
    print("ok:", ARGS.case)


if __name__ == "__main__":
    main()
