# SPDX-License-Identifier: Apache-2.0
"""The synthetic multi-rank sets of the recipe tests, with the answers they are built to give.

train (3 ranks, 4 iterations each, iteration i starts at aligned time 5 ms + 10 i ms):
  rank 1's session starts 2 ms after rank 0's (its own timestamps are 2 ms smaller), so only
  alignment makes the ranks line up; rank 2 is the straggler: it starts every iteration 1 ms
  late and its "step" NVTX range lasts 8 ms instead of 5 ms (an extra 3 ms slow_kernel).
  Per iteration: gemm [0, 4) ms on stream 7, ncclDevKernel_AllReduce [3, 5) on stream 8 (half
  of it overlapped by gemm, a quarter by SendRecv), ncclDevKernel_SendRecv [4.5, 5.5) on
  stream 9 (half overlapped by AllReduce); an NCCL-domain NVTX range ncclAllReduce of 0.1 ms;
  cudaLaunchKernel_v7000 (10 us) and cudaStreamSynchronize_v3020 (1 ms; rank 2: 4 ms).
  Idle GPU time between iterations: 4.5 ms on ranks 0 and 1, 1.5 ms on rank 2.
train_b: train with gemm 5 ms instead of 4, SendRecv gone and new_kernel (0.5 ms) added.
util (2 ranks): rank A kernels [0, 6) and [4, 10) ms (overlapping: 100 % once) and [20, 40);
  rank B starts 10 ms later with [0, 10) and [20, 25) of its own time.
  With --bins 4 (10 ms bins): A 100, 0, 100, 100; B (empty), 100, 0, 50.
nvtxf (2 ranks, --filter-nvtx with nsys recipe's semantics): NVTX "phase" on rank 0 at [0, 10),
  [20, 30), [22, 24) (nested in the second) and [40, 50) ms in the default domain (pid 100) and
  [60, 70) in domain D; "a/b@c" at [30, 40). 1 ms kernels k at 5, 15, 23, 35, 45 (pid 300: the
  ranges filter by time only, not by process), 55 and 65 ms. Rank 1: "phase" once at [0, 10),
  kernels at 5 and 23 ms. Kernels inside: phase -> rank 0: 5, 23, 45 (3; the nested instance
  counts once), rank 1: 5 (1); phase/1 -> rank 0: 23, rank 1 skipped (1 instance);
  phase/2 -> rank 0: 23; phase@D -> rank 0: 65, rank 1 skipped; phase@* -> rank 0: 4;
  a\\/b\\@c -> rank 0: 35.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from synth_report import MS, Report  # noqa: E402  (tests/lib: the synthetic-report builder)

T0 = 1700000000 * 10**9


def train_rank(rank, variant="a"):
    offset = 2 * MS if rank == 1 else 0
    lag = 1 * MS if rank == 2 else 0
    r = Report(utc=T0 + offset)
    pid, dev = 100 + rank, rank
    for i in range(4):
        a = 5 * MS + i * 10 * MS + lag - offset  # this rank's own timeline
        gemm = 5 * MS if variant == "b" else 4 * MS
        r.nvtx(a, a + (8 * MS if rank == 2 else 5 * MS), "step", pid=pid)
        r.kernel(a, a + gemm, "gemm", pid=pid, device=dev, stream=7)
        r.kernel(a + 3 * MS, a + 5 * MS, "ncclDevKernel_AllReduce", pid=pid, device=dev, stream=8)
        if variant == "a":
            r.kernel(a + 4500000, a + 5500000, "ncclDevKernel_SendRecv", pid=pid, device=dev,
                     stream=9)
        else:
            r.kernel(a + 6 * MS, a + 6500000, "new_kernel", pid=pid, device=dev, stream=9)
        if rank == 2:
            r.kernel(a + 5500000, a + 8500000, "slow_kernel", pid=pid, device=dev, stream=7)
        r.nvtx(a + 2900000, a + 3 * MS, "ncclAllReduce", pid=pid, domain="NCCL")
        r.api(a - 20000, a - 10000, "cudaLaunchKernel_v7000", pid=pid)
        r.api(a + 100000, a + 100000 + (4 * MS if rank == 2 else MS),
              "cudaStreamSynchronize_v3020", pid=pid)
    return r


def make_train(directory, variant="a"):
    os.makedirs(directory, exist_ok=True)
    return [train_rank(k, variant).write(os.path.join(directory, "rank%d.gsys-rep" % k))
            for k in range(3)]


def make_util(directory):
    os.makedirs(directory, exist_ok=True)
    a = Report(utc=T0).kernel(0, 6 * MS, "k", stream=7).kernel(4 * MS, 10 * MS, "k", stream=8)
    a.kernel(20 * MS, 40 * MS, "k")
    b = Report(utc=T0 + 10 * MS).kernel(0, 10 * MS, "k").kernel(20 * MS, 25 * MS, "k")
    return [a.write(os.path.join(directory, "a.gsys-rep")),
            b.write(os.path.join(directory, "b.gsys-rep"))]


def make_nvtxf(directory):
    os.makedirs(directory, exist_ok=True)
    a = Report(utc=T0)
    for s, e in ((0, 10), (20, 30), (22, 24), (40, 50)):
        a.nvtx(s * MS, e * MS, "phase", pid=100)
    a.nvtx(60 * MS, 70 * MS, "phase", pid=100, domain="D")
    a.nvtx(30 * MS, 40 * MS, "a/b@c", pid=100)
    for t in (5, 15, 23, 35, 45, 55, 65):
        a.kernel(t * MS, (t + 1) * MS, "k", pid=300 if t == 45 else 100)
    b = Report(utc=T0).nvtx(0, 10 * MS, "phase", pid=100)
    for t in (5, 23):
        b.kernel(t * MS, (t + 1) * MS, "k", pid=100)
    return [a.write(os.path.join(directory, "r0.gsys-rep")),
            b.write(os.path.join(directory, "r1.gsys-rep"))]


def make_many_nccl(directory, kernels=1500):
    """One rank with `kernels` 1 us NCCL kernels 2 us apart, each half overlapped by a compute
    kernel: more rows than a page table shows."""
    os.makedirs(directory, exist_ok=True)
    r = Report(utc=T0)
    for i in range(kernels):
        t = i * 2000
        r.kernel(t, t + 1000, "ncclDevKernel_AllReduce", stream=8)
        r.kernel(t + 500, t + 1500, "gemm", stream=7)
    return [r.write(os.path.join(directory, "big.gsys-rep"))]
