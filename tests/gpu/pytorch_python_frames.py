# SPDX-License-Identifier: Apache-2.0
# Run under `gsys profile -t cuda --python-backtrace=cuda` (run_python_frames.py): PyTorch ops
# launch their kernels with the GIL released, and each launch must still carry the Python
# frames that led to it. The LINE_* markers are read by run_python_frames.py.
import torch


def make_input():
    return torch.randn(1024, 1024, device="cuda")  # LINE_RANDN


def big_matmul(a, b):
    return a @ b  # LINE_MATMUL


def small_relu(x):
    return torch.relu(x)  # LINE_RELU


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(512, 512, device="cuda")

    def forward(self, x):
        return self.lin(x)  # LINE_LINEAR


def main():
    a = make_input()
    b = make_input()
    block = Block()
    x = torch.randn(64, 512, device="cuda")
    with torch.no_grad():
        for _ in range(10):
            c = big_matmul(a, b)  # LINE_CALL_MATMUL
            small_relu(c)  # LINE_CALL_RELU
            block(x)  # LINE_CALL_BLOCK
    torch.cuda.synchronize()
    print("expect ok")


main()  # LINE_MAIN
