# SPDX-License-Identifier: Apache-2.0
"""-t cuda,cublas,cudnn GPU case (issue 10): a small conv net, `ITERS` forward passes
(conv2d -> relu -> flatten -> linear) after the model is built; prints the number of passes.
cudnn.benchmark stays off so each pass makes the same calls."""
import os
import sys

import torch

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 10
torch.backends.cudnn.enabled = True
torch.backends.cudnn.benchmark = False
model = torch.nn.Sequential(
    torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.Flatten(),
    torch.nn.Linear(16 * 32 * 32, 64)).cuda()
x = torch.randn(4, 8, 32, 32, device="cuda")
with torch.no_grad():
    for _ in range(iters):
        y = model(x)
torch.cuda.synchronize()
print("passes", iters, float(y.sum()) == float(y.sum()))
