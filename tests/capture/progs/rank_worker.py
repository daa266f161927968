# SPDX-License-Identifier: Apache-2.0
"""One rank of tests/capture/test_ranks.py: N+1 "step" NVTX ranges (N = $RANK) through the NVTX
shim, then it sets RANK to 77 in its own environment and emits one "after_change" range (it
stays in the report of the RANK it started with); rank 0 then forks a child that emits one
"forked" range: a fork child starts with the environment it was forked with (RANK=77).

usage: rank_worker.py SHIM_LIBRARY"""
import ctypes
import os
import sys

if __name__ == "__main__":
    lib = ctypes.CDLL(sys.argv[1])
    lib.nvtxRangePushA.argtypes = [ctypes.c_char_p]
    rank = int(os.environ["RANK"])
    for _ in range(rank + 1):
        lib.nvtxRangePushA(b"step")
        lib.nvtxRangePop()
    os.environ["RANK"] = "77"
    lib.nvtxRangePushA(b"after_change")
    lib.nvtxRangePop()
    if rank == 0:
        pid = os.fork()
        if pid == 0:
            lib.nvtxRangePushA(b"forked")
            lib.nvtxRangePop()
            os._exit(0)
        os.waitpid(pid, 0)
