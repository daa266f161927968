#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Hostile and damaged inputs (issue 17, item 7; docs/reliability.md P6):
  session_special_files  a session directory whose '*.gsysraw' entries are a FIFO, a directory
                         and a symlink: import neither hangs nor aborts, skips them and counts
                         them in GSYS_DIAGNOSTICS (raw_skipped_session_files)
  not_a_session          `gsys import` of a directory holding no session exits non-zero
  meta_fifo              a FIFO named session.meta does not hang import
  metrics_fifo           FIFOs named gpu_metrics.tsv and gpu_metrics_devices.tsv do not hang
                         import (it waited for a writer forever): not read, counted, one warning
                         each
  marker_fifo            a FIFO or directory named like a stop marker ('PID-N.stopped-disk-full')
                         is not taken as the capture library's word that a process stopped
  swapped_side_files     a session directory whose log-PID.txt, PID-N.vars and disk-reserve
                         stop marker keep flipping between a regular file and a FIFO (another
                         user's directory, or a live attacker in a shared one): no import hangs
                         (the name was checked, then opened: a FIFO swapped in between blocked
                         import for good, about 1 import in 10)
  meta_other_owner       a session.meta written by another user cannot choose the output that
                         `gsys import -f true` replaces (root only: chowns the file to nobody)
  meta_output_elsewhere  a session directory of the caller's own (copied from a job, a colleague)
                         whose session.meta output= or output_pattern= names a file outside the
                         directory that holds the session: `gsys import -f true` leaves that
                         file and writes the report beside the session (it replaced the file)

usage: hostile.py --build BUILD_DIR CASE"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile

ARGS = None
TMP = None


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def gsys(*args, timeout=60):
    try:
        return subprocess.run([os.path.join(ARGS.build, "bin", "gsys")] + list(args),
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"gsys {' '.join(args)} did not end within {timeout} s")


def real_session(name):
    """A real session directory: a short profile run with GSYS_KEEP_SESSION."""
    out = os.path.join(TMP, name)
    env = dict(os.environ, GSYS_KEEP_SESSION="1")
    p = subprocess.run([os.path.join(ARGS.build, "bin", "gsys"), "profile", "-t", "nvtx,osrt",
                        "-o", out, "--", "/bin/true"], capture_output=True, text=True, env=env,
                       timeout=60)
    if p.returncode != 0:
        fail(f"profile: {p.stderr}")
    return out + ".gsys-session"


def case_session_special_files():
    session = real_session("special")
    os.mkfifo(os.path.join(session, "9-1.gsysraw"))
    os.mkdir(os.path.join(session, "9-2.gsysraw"))
    os.symlink("/etc/passwd", os.path.join(session, "9-3.gsysraw"))
    os.symlink(session, os.path.join(session, "loop"))
    report = os.path.join(TMP, "special-import.gsys-rep")
    p = gsys("import", session, "-o", report, timeout=30)
    if p.returncode != 0:
        fail(f"import exited {p.returncode}: {p.stderr}")
    db = sqlite3.connect(report)
    (n,) = db.execute("SELECT value FROM GSYS_DIAGNOSTICS "
                      "WHERE name = 'raw_skipped_session_files'").fetchone()
    if n != 3:
        fail(f"raw_skipped_session_files = {n}, want 3")
    if "raw_skipped_session_files" not in p.stderr:
        fail(f"import did not warn: {p.stderr}")
    print("import skipped a FIFO, a directory and a symlink, counted 3, warned")


def case_not_a_session():
    empty = os.path.join(TMP, "empty")
    os.mkdir(empty)
    for d in (empty, "/etc"):
        p = gsys("import", d, "-o", os.path.join(TMP, "x.gsys-rep"))
        if p.returncode == 0:
            fail(f"import of {d} exited 0: {p.stderr}")
        if "holds no gsys session" not in p.stderr or p.stderr.count("\n") != 1:
            fail(f"not one clear line: {p.stderr!r}")
    print("import of a directory with no session: one line, non-zero exit")


def case_meta_fifo():
    session = real_session("metafifo")
    os.unlink(os.path.join(session, "session.meta"))
    os.mkfifo(os.path.join(session, "session.meta"))
    p = gsys("import", session, "-o", os.path.join(TMP, "metafifo2.gsys-rep"), timeout=30)
    print(f"import with a FIFO session.meta ended (exit {p.returncode})")


def case_metrics_fifo():
    session = real_session("metricsfifo")
    for name in ("gpu_metrics.tsv", "gpu_metrics_devices.tsv"):
        os.mkfifo(os.path.join(session, name))
    p = gsys("import", session, "-o", os.path.join(TMP, "metricsfifo2.gsys-rep"), timeout=30)
    if p.returncode != 0 or p.stderr.count("is not a regular file") != 2:
        fail(f"import with FIFO gpu metrics files: {p.returncode} {p.stderr!r}")
    print("import with FIFO gpu metrics files ended, each said not read")


def case_marker_fifo():
    session = real_session("markerfifo")
    os.mkfifo(os.path.join(session, "4242-1.stopped-disk-full"))
    os.mkdir(os.path.join(session, "4243-1.stopped-write-error"))
    p = gsys("import", session, "-o", os.path.join(TMP, "markerfifo2.gsys-rep"), timeout=30)
    if p.returncode != 0 or "capture stopped early" in p.stderr:
        fail(f"import with a FIFO and a directory as stop markers: {p.returncode} {p.stderr!r}")
    db = sqlite3.connect(os.path.join(TMP, "markerfifo2.gsys-rep"))
    stopped = db.execute("SELECT value FROM GSYS_META WHERE name = 'capture_stopped'").fetchall()
    db.close()
    if stopped:
        fail(f"a FIFO or a directory counted as a stop marker: {stopped}")
    print("import: a FIFO and a directory named like stop markers are not stop markers")


def case_swapped_side_files():
    session = real_session("swapped")
    names = {"log-4242.txt": "gsys[4242]: hello\n", "4242-1.vars": "RANK=0\n",
             "4242-1.stopped-disk-reserve": "free=1 reserve=2 total=3\n"}
    flipper = os.fork()
    if flipper == 0:
        try:
            while True:
                for name, text in names.items():
                    reg, fifo = os.path.join(session, ".r"), os.path.join(session, ".f")
                    with open(reg, "w") as f:
                        f.write(text)
                    os.mkfifo(fifo)
                    os.rename(reg, os.path.join(session, name))
                    os.rename(fifo, os.path.join(session, name))
        finally:
            os._exit(0)
    try:
        for i in range(30):
            p = gsys("import", session, "-f", "true", "-o", os.path.join(TMP, "swapped2"),
                     timeout=60)
            if p.returncode != 0:
                fail(f"import {i} exited {p.returncode}: {p.stderr}")
    finally:
        os.kill(flipper, 9)
        os.waitpid(flipper, 0)
    print("30 imports while side files flipped between a file and a FIFO: none hung")


def case_meta_other_owner():
    if os.geteuid() != 0:
        print("SKIP: needs root to give session.meta to another user")
        sys.exit(77)
    session = real_session("owner")
    victim = os.path.join(TMP, "victim")
    with open(victim, "w") as f:
        f.write("precious\n")
    meta = os.path.join(session, "session.meta")
    with open(meta) as f:
        lines = [l for l in f if not l.startswith("output=")]
    with open(meta, "w") as f:
        f.writelines(lines + [f"output={victim}\n"])
    os.chown(meta, 65534, 65534)
    p = gsys("import", session, "-f", "true")
    with open(victim) as f:
        if f.read() != "precious\n":
            fail("import -f true replaced the file another user's session.meta named")
    want = os.path.join(TMP, "owner.gsys-rep")
    if p.returncode != 0 or not os.path.exists(want):
        fail(f"import did not fall back to {want}: {p.returncode} {p.stderr}")
    print("session.meta of another user: its output= ignored, the report went next to the session")


def case_meta_output_elsewhere():
    os.mkdir(os.path.join(TMP, "jobs"))
    session = real_session(os.path.join("jobs", "copied"))
    meta = os.path.join(session, "session.meta")
    with open(meta) as f:
        lines = [l for l in f if not l.startswith(("output=", "output_"))]
    victims = os.path.join(TMP, "home")
    os.mkdir(victims)
    notes = os.path.join(victims, "notes.txt")
    for extra in ([f"output={notes}\n"], [f"output={victims}/../home/x.gsys-rep\n"],
                  [f"output_pattern={victims}/r_%q{{RANK}}\n", "output_vars=RANK\n"]):
        with open(notes, "w") as f:
            f.write("precious\n")
        with open(meta, "w") as f:
            f.writelines(lines + extra)
        p = gsys("import", session, "-f", "true")
        with open(notes, "rb") as f:
            if f.read() != b"precious\n":
                fail(f"import -f true replaced the file session.meta named ({extra})")
        if os.listdir(victims) != ["notes.txt"]:
            fail(f"import wrote where session.meta said ({extra}): {os.listdir(victims)}")
        want = os.path.join(TMP, "jobs", "copied.gsys-rep")
        if p.returncode != 0 or not os.path.exists(want):
            fail(f"import did not fall back to {want}: {p.returncode} {p.stderr}")
        os.unlink(want)
    print("session.meta outputs outside the session's directory: ignored, report beside it")


def main():
    global ARGS, TMP
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("case")
    ARGS = ap.parse_args()
    ARGS.build = os.path.abspath(ARGS.build)
    with tempfile.TemporaryDirectory(prefix="gsys-hostile-") as tmp:
        TMP = tmp
        fn = globals().get("case_" + ARGS.case)
        if fn is None:
            fail(f"unknown case {ARGS.case}")
        fn()


if __name__ == "__main__":
    main()
