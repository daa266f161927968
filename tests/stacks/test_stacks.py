#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Stack tests (issue 10), end to end through `gsys profile`, import and the stack reports.

  native    native stack at a traced call (GSYS_TEST_STACK_AT=usleep, the test hook that stands
            in for a CUDA API call): OSRT_CALLCHAINS holds the known call path, in order
  python    Python stack at the same point: python3 calls usleep through ctypes.PyDLL (which
            keeps the GIL) and ctypes.CDLL (which releases it, as PyTorch does before it
            launches kernels), from the main thread and a second thread;
            GSYS_PYTHON_CALLCHAINS holds the script's frames as FILE:LINE FUNCTION, innermost
            first, in all four cases
  python_versions
            the python case under every CPython 3.10..3.13 installed (missing ones are listed)
  sampling  -s process-tree (default method): >= 80 % of the main thread's samples land in
            hot_spin, called from main (the program has no frame pointers), at a rate near
            --sampling-frequency
  sampling_perf, sampling_timer  the same with GSYS_SAMPLING_METHOD forcing each method; with
            perf_event the target has no handler for any real-time signal (it gets no signal),
            with the timer it has one (the check can see a handler)
  sampling_fallback  the same under a seccomp filter that refuses perf_event_open (as container
            runtimes do): the timer signal takes over, and the note and GSYS_META say why
  flags     bad values of the stack flags exit 2 with a one-line error; aliases print a note
  ctxsw     --cpuctxsw: the main thread's switches alternate in/out, one wait per usleep (or the
            one notice, where the kernel refuses perf events)
"""
import argparse
import os
import sqlite3
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "lib"))
import report_db  # noqa: E402  (tests/lib: absent tables read as empty)

PY_SCRIPT = '''import ctypes
import threading
held = ctypes.PyDLL(None)
free = ctypes.CDLL(None)


class Model:
    def step(self):
        held.usleep(1500)
        free.usleep(1500)


def outer():
    Model().step()


outer()
t = threading.Thread(target=outer)
t.start()
t.join()
'''


def profile(args, gsys, out, env_extra=None, expect_rc=0):
    cmd = [gsys, "profile", "-f", "true", "-o", out] + args
    env = dict(os.environ)
    env.update(env_extra or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=100)
    if p.returncode != expect_rc:
        sys.exit(f"FAIL: {' '.join(cmd)} -> rc {p.returncode}\n{p.stdout}\n{p.stderr}")
    return p


def query(report, sql):
    with report_db.connect(report) as db:
        return db.execute(sql).fetchall()


def check(cond, msg):
    if not cond:
        sys.exit("FAIL: " + msg)


def chain_symbols(report, table, callchain):
    rows = query(report, f"SELECT s.value FROM {table} c JOIN StringIds s ON s.id = c.symbol "
                         f"WHERE c.id = {callchain} ORDER BY c.stackDepth")
    return [r[0] for r in rows]


def case_native(gsys, prog, tmp):
    rep = os.path.join(tmp, "native")
    profile(["-t", "osrt", "-e", "GSYS_TEST_STACK_AT=usleep", prog, "calls"], gsys, rep)
    rows = query(rep + ".gsys-rep", "SELECT o.callchainId FROM OSRT_API o JOIN StringIds s ON "
                                    "s.id = o.nameId WHERE s.value = 'usleep'")
    check(len(rows) == 3, f"expected 3 usleep rows, got {rows}")
    for (cc,) in rows:
        check(cc > 0, "usleep row without a callchain")
        syms = chain_symbols(rep + ".gsys-rep", "OSRT_CALLCHAINS", cc)
        check(syms[:4] == ["inner_sleep", "middle_call", "outer_call", "main"],
              f"unexpected stack {syms}")
        mods = query(rep + ".gsys-rep", f"SELECT m.value FROM OSRT_CALLCHAINS c JOIN StringIds m "
                                        f"ON m.id = c.module WHERE c.id = {cc} AND c.stackDepth = 0")
        check(mods[0][0] == os.path.realpath(prog), f"module {mods} is not the program")
    print("native: 3 stacks, inner_sleep < middle_call < outer_call < main")


def case_python(gsys, prog, tmp):
    script = os.path.join(tmp, "model.py")
    with open(script, "w") as f:
        f.write(PY_SCRIPT)
    rep = os.path.join(tmp, "python")
    python = os.path.realpath(sys.executable)
    profile(["-t", "osrt", "-e", "GSYS_TEST_STACK_AT=usleep:python", python, script], gsys, rep)
    rows = query(rep + ".gsys-rep",
                 "SELECT o.callchainId, o.globalTid FROM OSRT_API o JOIN StringIds s ON "
                 "s.id = o.nameId WHERE s.value = 'usleep' ORDER BY o.start")
    check(len(rows) == 4 and all(r[0] > 0 for r in rows),
          f"expected four usleep rows with a stack, got {rows}")
    check(rows[0][1] == rows[1][1] and rows[2][1] == rows[3][1] and rows[0][1] != rows[2][1],
          f"expected two calls on each of two threads: {rows}")
    step = "Model.step" if sys.version_info >= (3, 11) else "step"
    for i, ((cc, _), gil) in enumerate(zip(rows, ["held", "released"] * 2)):
        frames = [f[0] for f in query(
            rep + ".gsys-rep", "SELECT s.value, p.line FROM GSYS_PYTHON_CALLCHAINS p JOIN "
            f"StringIds s ON s.id = p.frameId WHERE p.id = {cc} ORDER BY p.stackDepth")]
        want = [f"{script}:{9 if gil == 'held' else 10} {step}", f"{script}:14 outer"]
        if i < 2:
            check(frames == want + [f"{script}:17 <module>"], f"main, GIL {gil}: {frames}")
        else:
            check(frames[:2] == want and len(frames) > 2 and
                  all("threading.py:" in f for f in frames[2:]), f"thread, GIL {gil}: {frames}")
    native = chain_symbols(rep + ".gsys-rep", "OSRT_CALLCHAINS", rows[0][0])
    check(any("_PyEval_EvalFrame" in s for s in native), f"no interpreter frame in {native[:12]}")
    print(f"python {sys.version.split()[0]}: {want} (+ <module>), GIL held and released, "
          "main thread and a second thread")


def sigcgt_realtime(path):
    """The real-time signals (34..64) the target had handlers for, from its SigCgt line."""
    with open(path) as f:
        mask = int(f.read().split()[1], 16)
    return [sig for sig in range(34, 65) if mask & (1 << (sig - 1))]


def case_python_versions(gsys, prog, tmp):
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from test_python_frames import find_pythons
    found, missing = find_pythons()
    if missing:
        print("skipped (not installed): " + ", ".join(missing))
    for py in found:
        p = subprocess.run([py, os.path.abspath(__file__), "--gsys", gsys, "--prog", prog,
                            "python"], capture_output=True, text=True, timeout=200)
        check(p.returncode == 0, f"{py}: {p.stdout}{p.stderr}")
        print(p.stdout.strip())


def main_thread_samples(report):
    """The main thread's CPU samples, each a list of (symbol, module), leaf first."""
    rows = query(report,
                 "SELECT e.id, s.value, m.value FROM COMPOSITE_EVENTS e "
                 "JOIN SAMPLING_CALLCHAINS c ON c.id = e.id "
                 "JOIN StringIds s ON s.id = c.symbol JOIN StringIds m ON m.id = c.module "
                 "WHERE e.globalTid & 0xFFFFFF = (e.globalTid >> 24) & 0xFFFFFF "
                 "ORDER BY e.id, c.stackDepth")
    samples = {}
    for sample, symbol, module in rows:
        samples.setdefault(sample, []).append((symbol, module))
    return list(samples.values())


def own_vdso_has_build_id():
    """Whether this kernel's vDSO carries a GNU build id (without one, gsys leaves its frames
    unnamed rather than risk another kernel's names)."""
    with open("/proc/self/maps") as f:
        spans = [line.split()[0] for line in f if line.rstrip().endswith("[vdso]")]
    if not spans:
        return False
    lo, hi = (int(x, 16) for x in spans[0].split("-"))
    with open("/proc/self/mem", "rb") as mem:
        mem.seek(lo)
        image = mem.read(hi - lo)
    # Elf64_Nhdr {namesz 4, descsz 20, NT_GNU_BUILD_ID} "GNU\0"
    return b"\x04\x00\x00\x00\x14\x00\x00\x00\x03\x00\x00\x00GNU\x00" in image


def case_sampling(gsys, prog, tmp, method=None, wrapper=None):
    rep = os.path.join(tmp, "sampling")
    sigs = os.path.join(tmp, "sigcgt")
    env = {"GSYS_SAMPLING_METHOD": method} if method else {}
    cpu_s, hz = 0.4, 1000
    p = profile(["-t", "none", "-s", "process-tree", "--sampling-frequency", str(hz)] +
                (wrapper or []) + [prog, "spin", str(cpu_s), sigs], gsys, rep, env)
    check("cpu sampling:" in p.stderr, f"no sampling note in: {p.stderr}")
    used = "perf_event" if "cpu sampling: perf_event" in p.stderr else "timer-signal"
    if wrapper:
        # The wrapper itself (before its exec) may still use perf_event; the target may not.
        check("cpu sampling: timer-signal" in p.stderr and "perf_event_open refused (Permission "
              "denied" in p.stderr, f"no fallback note with its reason: {p.stderr}")
        used = "timer-signal"
    if method == "timer":
        check(used == "timer-signal", f"GSYS_SAMPLING_METHOD=timer not honoured: {p.stderr}")
    if method == "perf" and used != "perf_event":
        # The kernel refused (paranoid 3, seccomp): the fallback must say so.
        check("perf_event_open refused" in p.stderr, f"fallback without a reason: {p.stderr}")
    out = subprocess.run([gsys, "stats", "-r", "cpu_sample_hotspots", "-f", "csv", "-o",
                          os.path.join(tmp, "hot"), rep + ".gsys-rep"], capture_output=True,
                         text=True)
    check(out.returncode == 0, out.stderr)
    samples = main_thread_samples(rep + ".gsys-rep")
    total = len(samples)
    # hot_spin reads the thread's CPU clock in its loop: a sample may land in libc's
    # clock_gettime, the vDSO or the kernel below it. Such a sample is hot_spin's own work, so a
    # sample counts for the first frame that is in the program itself.
    exe = os.path.realpath(prog)
    own = {}
    for frames in samples:
        first = next((i for i, (_, module) in enumerate(frames)
                      if module.startswith("/") and os.path.realpath(module) == exe), None)
        own.setdefault(frames[first][0] if first is not None else None, []).append((first, frames))
    summary = sorted(((s, len(v)) for s, v in own.items()), key=lambda r: -r[1])
    hot = len(own.get("hot_spin", []))
    check(total >= 20, f"only {total} samples of the main thread: {summary}")
    check(hot >= 0.8 * total, f"hot_spin has {hot} of {total} samples: {summary}")
    # The caller of hot_spin, through a stack without frame pointers.
    callers = {}
    for first, frames in own.get("hot_spin", []):
        caller = frames[first + 1][0] if first + 1 < len(frames) else None
        callers[caller] = callers.get(caller, 0) + 1
    from_main = callers.get("main", 0)
    check(from_main >= 0.95 * hot, f"hot_spin's callers {callers} (want main for {hot})")
    # vDSO frames are named (from the importer's own vDSO, the same image on this kernel).
    vdso = [frames[0][0] for frames in samples if frames[0][1] == "[vdso]"]
    unnamed = [s for s in vdso if s.startswith("0x")]
    if own_vdso_has_build_id():
        check(not unnamed, f"{len(unnamed)} of {len(vdso)} vDSO leaf frames unnamed: {unnamed[:5]}")
    # Rate: perf_event samples at the requested frequency of CPU time; CPU-time timers fire at
    # most once per kernel tick (100..1000 Hz). Wide bands: this is no timing test.
    rate = total / cpu_s
    lo = 0.5 * hz if used == "perf_event" else 50
    check(lo <= rate <= 1.5 * hz, f"{total} samples in {cpu_s} s of CPU = {rate:.0f} Hz "
                                  f"({used}, asked {hz})")
    meta = query(rep + ".gsys-rep", "SELECT value FROM GSYS_META WHERE name = 'cpu_sampling_method'")
    check(meta and used in meta[0][0], f"GSYS_META cpu_sampling_method {meta} ({used})")
    if wrapper:
        check("perf_event_open refused" in meta[0][0], f"GSYS_META without the reason: {meta}")
    # Every real-time signal the program leaves at SIG_DFL carries gsys's flush handler (the
    # timer sampler's signal carries the sampler's instead); the program still sees SIG_DFL
    # there (docs/reliability.md; tests/identity checks what sigaction reports).
    handlers = sigcgt_realtime(sigs)
    check(handlers == list(range(34, 65)), f"real-time signals caught: {handlers}")
    with open(os.path.join(tmp, "hot_cpu_sample_hotspots.csv")) as f:
        csv = f.read()
    check("hot_spin" in csv, f"hot_spin not in the report:\n{csv}")
    print(f"sampling ({used}): {hot}/{total} main-thread samples in hot_spin ({len(vdso)} in "
          f"the vDSO below it), {from_main} called from main, {rate:.0f} Hz, real-time "
          f"handlers {handlers}")


def case_sampling_perf(gsys, prog, tmp):
    case_sampling(gsys, prog, tmp, "perf")


def case_sampling_timer(gsys, prog, tmp):
    case_sampling(gsys, prog, tmp, "timer")


def case_sampling_fallback(gsys, prog, tmp):
    helper = os.path.join(os.path.dirname(prog), "gsys_no_perf_exec")
    case_sampling(gsys, prog, tmp, None, [helper])


def case_flags(gsys, prog, tmp):
    out = os.path.join(tmp, "flags")
    for bad, needle in [(["--cudabacktrace=kernal"], "bad --cudabacktrace value 'kernal'"),
                        (["--cudabacktrace=all:x"], "bad --cudabacktrace threshold"),
                        (["-t", "osrt", "--cudabacktrace=all"], "need cuda in --trace"),
                        (["--python-backtrace=yes"], "bad --python-backtrace"),
                        (["-s", "cpu"], "bad --sample"),
                        (["--sampling-frequency=50"], "expected 100..8000"),
                        (["--cpuctxsw=all"], "bad --cpuctxsw")]:
        p = profile(bad + [prog, "calls"], gsys, out, expect_rc=2)
        lines = p.stderr.strip().splitlines()
        check(len(lines) == 1 and needle in lines[0], f"{bad}: {p.stderr!r}")
    p = profile(["--python-backtrace=lbr", "-s", "none", prog, "calls"], gsys, out)
    check("means 'cuda'" in p.stderr, p.stderr)
    p = profile(["-b", "dwarf", prog, "calls"], gsys, out)
    check("always unwinds with DWARF" in p.stderr, p.stderr)
    print("flags: 7 bad values rejected, aliases noted")


def case_ctxsw(gsys, prog, tmp):
    rep = os.path.join(tmp, "ctxsw")
    p = profile(["-t", "osrt", "--cpuctxsw=process-tree", prog, "calls"], gsys, rep)
    if "refused a per-thread perf event" in p.stderr:
        print("ctxsw: the kernel refuses perf events here; the notice was printed")
        return
    rows = query(rep + ".gsys-rep", "SELECT isSchedIn, threadState FROM SCHED_EVENTS WHERE "
                                    "globalTid & 0xFFFFFF = (globalTid >> 24) & 0xFFFFFF "
                                    "ORDER BY start")
    outs = [r for r in rows if r[0] == 0]
    check(len(outs) >= 3, f"expected a switch out per usleep, got {rows}")
    check(sum(1 for r in outs if r[1] == 2) >= 3, f"usleep switches should be waits: {rows}")
    check(all(rows[i][0] != rows[i + 1][0] for i in range(len(rows) - 1)),
          f"switches in and out do not alternate: {rows}")
    print(f"ctxsw: {len(rows)} switches of the main thread, {len(outs)} out")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gsys", required=True)
    ap.add_argument("--prog", required=True)
    ap.add_argument("case", choices=["native", "python", "python_versions", "sampling",
                                    "sampling_perf", "sampling_timer", "sampling_fallback",
                                    "flags", "ctxsw"])
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="gsys_stacks_") as tmp:
        globals()["case_" + a.case](a.gsys, a.prog, tmp)


if __name__ == "__main__":
    main()
