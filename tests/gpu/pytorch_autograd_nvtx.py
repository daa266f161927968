# SPDX-License-Identifier: Apache-2.0
# Run under the gsys sitecustomize (PYTHONPATH=src/launcher/python, GSYS_PYTORCH=...): checks
# that the autograd profiler is in NVTX mode without any change to this script, then runs a
# few aten ops (matmul, relu, sum, backward) whose kernels nvtx_kern_sum should attribute.
import torch

a = torch.randn(256, 256, device="cuda", requires_grad=True)
b = torch.randn(256, 256, device="cuda")
for _ in range(5):
    c = torch.relu(a @ b).sum()
    c.backward()
torch.cuda.synchronize()
print(f"profiler_enabled={int(torch.autograd._profiler_enabled())}")
print("expect ok")
