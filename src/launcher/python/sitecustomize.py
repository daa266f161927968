# SPDX-License-Identifier: Apache-2.0
# gsys --pytorch=autograd-nvtx|autograd-shapes-nvtx: the launcher puts this directory first
# on PYTHONPATH and sets GSYS_PYTORCH. When the profiled program imports torch, every autograd
# op becomes an NVTX range (torch.autograd.profiler.emit_nvtx, record_shapes for the shapes
# variant), exactly as nsys --pytorch does, with no change to the user's script. Any
# sitecustomize the user had further down the path still runs.
import importlib.abc
import importlib.util
import os
import sys


def _chain_user_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        if not entry or os.path.abspath(entry) == here:
            continue
        path = os.path.join(entry, "sitecustomize.py")
        if os.path.isfile(path):
            spec = importlib.util.spec_from_file_location("_gsys_user_sitecustomize", path)
            if spec and spec.loader:
                try:
                    spec.loader.exec_module(importlib.util.module_from_spec(spec))
                except Exception as e:  # never break the user's program
                    print(f"gsys: user sitecustomize failed: {e}", file=sys.stderr)
            return


def _enable_emit_nvtx(torch, shapes):
    try:
        ctx = torch.autograd.profiler.emit_nvtx(enabled=True, record_shapes=shapes)
        ctx.__enter__()
        torch._gsys_emit_nvtx = ctx  # keep it alive for the whole run
    except Exception as e:
        print(f"gsys: --pytorch: cannot enable emit_nvtx: {e}", file=sys.stderr)


class _TorchHook(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `torch` with the normal machinery, then enables emit_nvtx once it has loaded."""

    def __init__(self, shapes):
        self.shapes = shapes
        self.busy = False

    def find_spec(self, name, path, target=None):
        if name != "torch" or self.busy:
            return None
        self.busy = True
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.busy = False
        if spec is None or spec.loader is None:
            return None
        self.inner = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec):
        return self.inner.create_module(spec)

    def exec_module(self, module):
        self.inner.exec_module(module)
        sys.meta_path[:] = [f for f in sys.meta_path if f is not self]
        _enable_emit_nvtx(module, self.shapes)


_mode = os.environ.get("GSYS_PYTORCH", "")
if _mode in ("autograd-nvtx", "autograd-shapes-nvtx"):
    sys.meta_path.insert(0, _TorchHook(_mode == "autograd-shapes-nvtx"))
_chain_user_sitecustomize()
