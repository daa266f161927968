# SPDX-License-Identifier: Apache-2.0
# Run under `gsys profile --backtrace=cuda --python-backtrace=cuda` (run_case.py
# pytorch_backtrace): kernels launched from known lines, so the report must attribute each
# kernel to the line that launched it. The LINE_* markers are read by run_case.py.
import torch


def make_input():
    return torch.randn(1024, 1024, device="cuda")  # LINE_RANDN


def big_matmul(a, b):
    return a @ b  # LINE_MATMUL


def small_relu(x):
    return torch.relu(x)  # LINE_RELU


a = make_input()
b = make_input()
for _ in range(10):
    c = big_matmul(a, b)
    d = small_relu(c)
torch.cuda.synchronize()
print("expect ok")
