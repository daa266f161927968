#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The Python frame walker (src/capture/stack/python_frames.h) against real interpreters.

Runs python_frames_script.py, which loads the probe library through ctypes, under each Python
given (and, with --find-pythons, every CPython 3.10..3.13 found on PATH or under ~/.pyenv; those
not found are listed as skipped). For each it checks the exact FILE:LINE FUNCTION frames:
  * GIL held: the walker and CPython's C API give the same, exact frames
  * GIL released (what PyTorch does around kernel launches): the walker gives them; the C API,
    which needs the GIL, gives none
  * from a second Python thread (its outer frames are threading.py's)
  * inside a generator called from a function with a cell variable, and 42 frames deep
  * 4 threads x 400 captures with the GIL released while the other threads run Python code:
    every stack is the capturing thread's own
  * on 3.13, the offsets come from the interpreter's _Py_DebugOffsets
and prints the cost per stack (21 frames) of both ways.
"""
import argparse
import glob
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "python_frames_script.py")


def fail(msg):
    sys.exit("FAIL: " + msg)


def markers():
    lines = {}
    with open(SCRIPT) as f:
        for i, text in enumerate(f, 1):
            m = re.search(r"# @(\w+)", text)
            if m:
                lines[m.group(1)] = i
    return lines


def run_one(python, probe):
    p = subprocess.run([python, SCRIPT, probe], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
        fail(f"{python}: rc {p.returncode}\n{p.stdout}\n{p.stderr}")
    info = subprocess.run([python, "-c", "import sys; print(sys.version_info[1])"],
                          capture_output=True, text=True).stdout.strip()
    return json.loads(p.stdout), int(info)


def check_python(python, probe):
    res, minor = run_one(python, probe)
    at = markers()
    s = os.path.basename(SCRIPT)
    if res["walker_unavailable"]:
        fail(f"{python}: walker unavailable: {res['walker_unavailable']}")
    if res["debug_offsets"] != (minor >= 13):
        fail(f"{python}: offsets from _Py_DebugOffsets: {res['debug_offsets']}, want {minor >= 13}")

    def q(qual, name):  # co_qualname from 3.11 on, co_name before
        return qual if minor >= 11 else name

    def frames(key):
        return [(os.path.basename(f), int(line), fn) for f, line, fn in res[key]]

    def expect(key, got, want):
        if got != want:
            fail(f"{python} {key}:\n  got  {got}\n  want {want}")

    grab = (s, at["grab"], "grab")
    for how, site in (("walker_held", "held_walker"), ("capi_held", "held_capi"),
                      ("walker_free", "free_walker")):
        ours = [grab, (s, at[site], q("Model.step", "step")), (s, at["outer"], "outer")]
        expect("main/" + how, frames("main/" + how), ours + [(s, at["main_call"], "<module>")])
        # A second thread: ours, then threading.py's bootstrap frames only.
        got = frames("thread/" + how)
        expect("thread/" + how, got[:3], ours)
        if len(got) < 4 or any(f[0] != "threading.py" for f in got[3:]):
            fail(f"{python} thread/{how}: outer frames are not threading.py's: {got}")
    for key in ("main/capi_free", "thread/capi_free"):
        expect(key, frames(key), [])  # the C API needs the GIL
    gen = res["gen"]
    expect("gen", [(os.path.basename(f), int(line), fn) for f, line, fn in gen[:-1]],
           [grab, (s, at["in_generator"], q("closure_and_generator.<locals>.gen", "gen")),
            (s, at["gen_caller"], "closure_and_generator"), (s, at["gen_call"], "<module>")])
    expect("deep", frames("deep"), [grab, (s, at["deep"], "deep")] +
           [(s, at["deep_rec"], "deep")] * 40 + [(s, at["deep_call"], "<module>")])
    if res["concurrent_bad"] != [0]:
        fail(f"{python}: 4 threads capturing with the GIL released while the others run Python: "
             f"wrong stacks {res['concurrent_bad']}")
    b = res["bench"]
    print(f"python 3.{minor} ({python}): exact frames with the GIL held (walker == C API), "
          f"released, from a second thread, in a generator, 42 deep, 4 busy threads; 21-frame stack: "
          f"walker "
          f"{b['walker_held_ns'] / 1000:.2f} us (GIL held), {b['walker_free_ns'] / 1000:.2f} us "
          f"(released); C API {b['capi_held_ns'] / 1000:.2f} us")


def find_pythons():
    found, missing = [], []
    for minor in (10, 11, 12, 13):
        cands = [shutil.which(f"python3.{minor}") or ""]
        cands += sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/3.{minor}.*/bin/python3")))
        # pyenv's shims answer for every version but run only the selected one: skip them.
        cands = [c for c in cands if c and "/shims/" not in c and os.access(c, os.X_OK)]
        (found if cands else missing).append(cands[0] if cands else f"3.{minor}")
    return found, missing


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--probe", required=True)
    ap.add_argument("--find-pythons", action="store_true")
    ap.add_argument("pythons", nargs="*")
    a = ap.parse_args()
    pythons = list(a.pythons) or [sys.executable]
    if a.find_pythons:
        found, missing = find_pythons()
        pythons = found
        if missing:
            print("skipped (not installed): " + ", ".join(missing))
    for py in pythons:
        check_python(py, a.probe)


if __name__ == "__main__":
    main()
