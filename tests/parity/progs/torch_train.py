# SPDX-License-Identifier: Apache-2.0
"""The parity corpus's PyTorch program: a small conv net trained for a few steps with a
DataLoader (two worker processes), the optimizer, loss and backward, one NVTX range per step;
captured with --pytorch=autograd-nvtx and -t cuda,nvtx,osrt,cudnn,cublas so every kernel is
nested in autograd ranges (nvtx_kern_sum, nvtx_gpu_proj_*)."""
import sys

import torch
import torch.utils.data as data

STEPS = int(sys.argv[1]) if len(sys.argv) > 1 else 8


class Shapes(data.Dataset):
    def __len__(self):
        return 16 * STEPS

    def __getitem__(self, i):
        g = torch.Generator().manual_seed(i)
        return torch.randn(3, 32, 32, generator=g), i % 10


def main():
    torch.manual_seed(0)
    torch.backends.cudnn.benchmark = False
    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.BatchNorm2d(16), torch.nn.ReLU(),
        torch.nn.MaxPool2d(2), torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(),
        torch.nn.AdaptiveAvgPool2d(1), torch.nn.Flatten(), torch.nn.Linear(32, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loader = data.DataLoader(Shapes(), batch_size=16, num_workers=2, pin_memory=True)
    for step, (x, y) in enumerate(loader):
        torch.cuda.nvtx.range_push("step")
        x, y = x.cuda(non_blocking=True), y.cuda(non_blocking=True)
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        torch.cuda.synchronize()
        torch.cuda.nvtx.range_pop()
    print("torch_train done", step + 1)


if __name__ == "__main__":
    main()
