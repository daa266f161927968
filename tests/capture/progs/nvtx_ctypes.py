# SPDX-License-Identifier: Apache-2.0
"""NVTX from Python through ctypes, in the main process and in multiprocessing children
started with fork and with spawn. Usage: nvtx_ctypes.py SHIM_LIBRARY N"""
import ctypes
import multiprocessing as mp
import sys


def work(lib_path, tag, n):
    lib = ctypes.CDLL(lib_path)
    lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
    for _ in range(n):
        lib.nvtxRangePushA(tag.encode())
        lib.nvtxRangePop()


if __name__ == "__main__":
    lib_path, n = sys.argv[1], int(sys.argv[2])
    work(lib_path, "py_main", n)
    for method in ("fork", "spawn"):
        p = mp.get_context(method).Process(target=work, args=(lib_path, "py_" + method, n))
        p.start()
        p.join()
        if p.exitcode != 0:
            sys.exit(1)
