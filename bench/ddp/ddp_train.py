# SPDX-License-Identifier: Apache-2.0
# A small DDP training loop for the multi-GPU runs (issue 9): one process per GPU through
# torchrun, NCCL all-reduce of the gradients, each step inside an NVTX range "train_step".
# Prints "rank R step_ms_median=X steps=N" per rank.
import os
import statistics
import time

import torch
import torch.distributed as dist
import torch.nn as nn

STEPS = int(os.environ.get("DDP_STEPS", "60"))
WARMUP = 10


def main():
    rank = int(os.environ["RANK"])
    local = int(os.environ["LOCAL_RANK"])
    torch.cuda.set_device(local)
    dist.init_process_group("nccl")
    model = nn.Sequential(nn.Linear(2048, 4096), nn.ReLU(), nn.Linear(4096, 4096), nn.ReLU(),
                          nn.Linear(4096, 1024)).cuda()
    ddp = nn.parallel.DistributedDataParallel(model, device_ids=[local])
    opt = torch.optim.SGD(ddp.parameters(), lr=1e-3)
    x = torch.randn(256, 2048, device="cuda")
    y = torch.randn(256, 1024, device="cuda")
    times = []
    for step in range(STEPS + WARMUP):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        torch.cuda.nvtx.range_push("train_step")
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(ddp(x), y)
        loss.backward()
        opt.step()
        torch.cuda.nvtx.range_pop()
        torch.cuda.synchronize()
        if step >= WARMUP:
            times.append((time.perf_counter() - t0) * 1e3)
    dist.barrier()
    print(f"rank {rank} step_ms_median={statistics.median(times):.3f} steps={len(times)} "
          f"loss={loss.item():.4f}", flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
