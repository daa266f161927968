# SPDX-License-Identifier: Apache-2.0
"""Python targets of the behaviour-identity tier: each mode prints what a program can observe
(signal handlers, results of multiprocessing, what its children see) without pids or times,
so a bare run and a run under gsys compare byte for byte. Usage: targets.py MODE PROBE."""
import concurrent.futures
import multiprocessing
import os
import signal
import subprocess
import sys

PROBE = sys.argv[2] if len(sys.argv) > 2 else "identity_probe"


def handler_name(h):
    if h is None:
        return "None"
    if h is signal.SIG_DFL:
        return "SIG_DFL"
    if h is signal.SIG_IGN:
        return "SIG_IGN"
    return getattr(h, "__name__", repr(h))


def print_handlers(tag):
    for sig in sorted(signal.valid_signals()):
        if sig in (signal.SIGKILL, signal.SIGSTOP):
            continue
        print(f"{tag}.getsignal.{int(sig)}={handler_name(signal.getsignal(sig))}")


def worker_view(x):
    return (x * x, handler_name(signal.getsignal(signal.SIGINT)),
            handler_name(signal.getsignal(signal.SIGTERM)))


def mode_signals():
    print_handlers("main")
    try:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs at the next check of the eval loop
            pass
        print("sigint: not raised")
    except KeyboardInterrupt:
        print("sigint: KeyboardInterrupt")
    got = []
    signal.signal(signal.SIGTERM, lambda s, f: got.append(s))
    os.kill(os.getpid(), signal.SIGTERM)
    print(f"sigterm: handler ran {len(got)} time(s)")
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    print_handlers("after")
    sys.stdout.flush()
    subprocess.run([PROBE, "probe", "child"], check=True)


def mode_mp(method):
    ctx = multiprocessing.get_context(method)
    with ctx.Pool(2) as pool:
        for row in pool.map(worker_view, range(6)):
            print(f"pool.{method}={row}")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=ctx) as ex:
        for row in ex.map(worker_view, range(4)):
            print(f"executor.{method}={row}")
    p = ctx.Process(target=subprocess.run, args=([PROBE, "probe", "mp_child"],))
    sys.stdout.flush()
    p.start()
    p.join()
    print(f"process.{method}.exitcode={p.exitcode}")


def mode_subprocess():
    sys.stdout.flush()
    subprocess.run([PROBE, "probe", "child"], check=True)
    subprocess.run(["/bin/sh", "-c", f"'{PROBE}' probe grandchild"], check=True)
    subprocess.run([PROBE, "probe", "child_nosig"], check=True, restore_signals=False)


def mode_sigint_uncaught():
    print("before", flush=True)
    os.kill(os.getpid(), signal.SIGINT)
    signal.pause()


def mode_sigterm_default():
    print("before", flush=True)
    os.kill(os.getpid(), signal.SIGTERM)
    signal.pause()


def mode_torch():
    """PyTorch as training scripts use it: DataLoader workers with each start method, then CUDA
    when there is a GPU, and Ctrl-C's KeyboardInterrupt."""
    import torch
    from torch.utils.data import DataLoader, TensorDataset
    print_handlers("torch")
    ds = TensorDataset(torch.arange(64, dtype=torch.float32))
    for method in ("fork", "spawn", "forkserver"):
        dl = DataLoader(ds, batch_size=8, num_workers=2, multiprocessing_context=method)
        print(f"dataloader.{method}={sum(float(b[0].sum()) for b in dl)}")
    if torch.cuda.is_available():
        x = torch.ones(1 << 20, device="cuda")
        print(f"cuda.sum={float((x * 2).sum())}")
    try:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
        print("sigint: not raised")
    except KeyboardInterrupt:
        print("sigint: KeyboardInterrupt")


MODES = {
    "torch": mode_torch,
    "signals": mode_signals,
    "mp_fork": lambda: mode_mp("fork"),
    "mp_spawn": lambda: mode_mp("spawn"),
    "mp_forkserver": lambda: mode_mp("forkserver"),
    "subprocess": mode_subprocess,
    "sigint_uncaught": mode_sigint_uncaught,
    "sigterm_default": mode_sigterm_default,
}

if __name__ == "__main__":
    MODES[sys.argv[1]]()
