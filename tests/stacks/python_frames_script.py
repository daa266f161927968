# SPDX-License-Identifier: Apache-2.0
# Run by test_python_frames.py under each Python it tests: captures the Python stack through
# the probe library (argv[1]) at known lines, with the GIL held (ctypes.PyDLL) and released
# (ctypes.CDLL), from the main thread and a second thread, and prints one JSON object.
# Lines that capture carry a "# @NAME" marker; the driver finds them in this file's text.
import ctypes
import json
import sys
import threading

PROBE = sys.argv[1]
held = ctypes.PyDLL(PROBE)
free = ctypes.CDLL(PROBE)
for lib in (held, free):
    lib.gsys_probe_stack.restype = ctypes.c_size_t
    lib.gsys_probe_stack.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
    lib.gsys_probe_ns_per_stack.restype = ctypes.c_double
    lib.gsys_probe_walker_unavailable.restype = ctypes.c_char_p
WALKER, CAPI = 1, 2
results = {}


def grab(lib, method):
    buf = ctypes.create_string_buffer(8192)
    n = lib.gsys_probe_stack(method, buf, len(buf))  # @grab
    return [f.split("\x1f") for f in buf.raw[:n].decode().splitlines()]


class Model:
    def step(self, key):
        results[key + "/walker_held"] = grab(held, WALKER)  # @held_walker
        results[key + "/capi_held"] = grab(held, CAPI)  # @held_capi
        results[key + "/walker_free"] = grab(free, WALKER)  # @free_walker
        results[key + "/capi_free"] = grab(free, CAPI)  # @free_capi


def closure_and_generator(key):
    cell = key  # a cell variable: the frame starts with MAKE_CELL (3.11+ "incomplete" prefix)

    def gen():
        yield grab(free, WALKER)  # @in_generator
    results[key] = next(gen()) + [cell]  # @gen_caller


def outer(key):
    Model().step(key)  # @outer


def deep(n):
    if n == 0:
        return grab(free, WALKER)  # @deep
    return deep(n - 1)  # @deep_rec


def bench():
    def nest(n):
        if n == 0:
            return {
                "walker_held_ns": held.gsys_probe_ns_per_stack(WALKER, 1000),
                "capi_held_ns": held.gsys_probe_ns_per_stack(CAPI, 1000),
                "walker_free_ns": free.gsys_probe_ns_per_stack(WALKER, 1000),
            }
        return nest(n - 1)
    return nest(17)  # 20 frames with bench, nest (x18) and <module>


def busy_leaf(buf):
    n = free.gsys_probe_stack(WALKER, buf, len(buf))  # @busy_leaf
    return buf.raw[:n].decode().splitlines()


def busy_rec(k, buf):
    if k == 0:
        return busy_leaf(buf)
    return busy_rec(k - 1, buf)  # @busy_rec


def busy(bad):
    # Captures with the GIL released while the other threads run Python code: each must get
    # its own frames (up to 3.11 the interpreter's "current" thread state is the GIL holder's).
    buf = ctypes.create_string_buffer(8192)
    for i in range(400):
        frames = busy_rec(i % 12, buf)
        names = [f.split("\x1f")[2] for f in frames]
        if names[:i % 12 + 2] != ["busy_leaf"] + ["busy_rec"] * (i % 12 + 1) or \
                names[i % 12 + 2] != "busy":
            bad.append(names[:4])
        sum(x * x for x in range(100))


outer("main")  # @main_call
t = threading.Thread(target=outer, args=("thread",))
t.start()  # @thread_start
t.join()
closure_and_generator("gen")  # @gen_call
results["deep"] = deep(40)  # @deep_call
bad_concurrent = []
busy_threads = [threading.Thread(target=busy, args=(bad_concurrent,)) for _ in range(4)]
for b in busy_threads:
    b.start()
for b in busy_threads:
    b.join()
results["concurrent_bad"] = bad_concurrent[:3] + [len(bad_concurrent)]
results["bench"] = bench()  # @bench_call
results["walker_unavailable"] = (free.gsys_probe_walker_unavailable() or b"").decode()
results["debug_offsets"] = free.gsys_probe_uses_debug_offsets()
print(json.dumps(results))
