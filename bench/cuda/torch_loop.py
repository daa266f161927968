# SPDX-License-Identifier: Apache-2.0
# Benchmark (b): time per x.add_(1) on a 1-element CUDA tensor. MODE=torch_profiler wraps the
# timed loop in torch.profiler with CPU and CUDA activities. OP=matmul times a 16x16 matmul
# instead (one cuBLAS call per op: what -t cublas adds).
import os, sys, time
import torch

n = int(sys.argv[1]) if len(sys.argv) > 1 else 50000
matmul = os.environ.get("OP") == "matmul"
x = torch.zeros(16 if matmul else 1, 16 if matmul else 1, device="cuda")
w = torch.randn(16, 16, device="cuda")

def op():
    if matmul:
        torch.mm(x, w)
    else:
        x.add_(1)

for _ in range(2000):
    op()
torch.cuda.synchronize()

def loop():
    t0 = time.perf_counter()
    for _ in range(n):
        op()
    torch.cuda.synchronize()
    return time.perf_counter() - t0

if os.environ.get("MODE") == "torch_profiler":
    from torch.profiler import profile, ProfilerActivity
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        s = loop()
else:
    s = loop()
print(f"us_per_op={s * 1e6 / n:.3f} ops={n}")
