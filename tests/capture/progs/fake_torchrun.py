# SPDX-License-Identifier: Apache-2.0
"""A CPU stand-in for torchrun (tests/capture/test_ranks.py): starts N workers of one command
with torchrun's variables (RANK, LOCAL_RANK, WORLD_SIZE) in their environment, as torchrun's
subprocess start does (fork + exec), waits for them and exits with the first non-zero code.
The launcher itself has none of the variables.

usage: fake_torchrun.py --nproc_per_node=N COMMAND [ARGS...]   ("{rank}" in ARGS becomes the
rank, "{rank+1}" the rank plus one)"""
import os
import subprocess
import sys

if __name__ == "__main__":
    n = int(sys.argv[1].split("=", 1)[1])
    command = sys.argv[2:]
    workers = []
    for rank in range(n):
        env = dict(os.environ, RANK=str(rank), LOCAL_RANK=str(rank), WORLD_SIZE=str(n))
        argv = [a.replace("{rank}", str(rank)).replace("{rank+1}", str(rank + 1)) for a in command]
        workers.append(subprocess.Popen(argv, env=env))
    codes = [w.wait() for w in workers]
    sys.exit(next((c for c in codes if c != 0), 0))
