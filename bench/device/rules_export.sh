#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase rules-export (issue 5, was bench/gpu_rules_export.sh): `gsys analyze -r all` and
# `gsys export` (every type) on gsys's own CUDA captures (tests/gpu kernels_streams and a small
# PyTorch loop with pageable copies and a synchronize per NVTX step, where the DL rules should
# fire). Exit 1 when a profile, analyze or export run failed.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_torch
need_file "$PROGS/kernels_streams" "a build with CUDA: tests/gpu/progs"
OUT=$LOGS
cat > "$W/torch_small.py" <<'PY'
import torch
x = torch.randn(1024, 1024, device="cuda"); y = torch.randn(1024, 1024, device="cuda")
h = torch.randn(1024, 1024)  # pageable host memory: 4 MB copies
for i in range(100):
    torch.cuda.nvtx.range_push("step")
    z = (x @ y).relu_().add_(1.0).sum()
    x.copy_(h.cuda()); torch.cuda.synchronize()
    torch.cuda.nvtx.range_pop()
print("done", float(z))
PY
bad=0
for name in kernels_streams torch; do
  if [ $name = torch ]; then cmd=(python3 "$W/torch_small.py"); else cmd=("$PROGS/kernels_streams"); fi
  timeout 60 "$GSYS" profile -t cuda,nvtx,osrt --pytorch=autograd-nvtx -f true -o "$W/$name" "${cmd[@]}" > "$OUT/profile_$name.log" 2>&1
  rc=$?; [ $rc = 0 ] || bad=1
  echo "profile $name rc=$rc" | tee -a "$OUT/summary.txt"
  timeout 60 "$GSYS" analyze -r all "$W/$name.gsys-rep" > "$OUT/analyze_$name.txt" 2>&1
  rc=$?; [ $rc = 0 ] || bad=1
  echo "analyze $name rc=$rc fired=$(grep -c '^ \*\* ' "$OUT/analyze_$name.txt") skipped=$(grep -c '^SKIPPED' "$OUT/analyze_$name.txt")" | tee -a "$OUT/summary.txt"
  for type in perfetto chrome jsonlines csv sqlite; do
    timeout 60 "$GSYS" export --type $type -f -o "$W/${name}_export.$type" "$W/$name.gsys-rep" >> "$OUT/export_$name.log" 2>&1
    rc=$?; [ $rc = 0 ] || bad=1
    echo "export $name $type rc=$rc $(tail -1 "$OUT/export_$name.log")" | tee -a "$OUT/summary.txt"
  done
done
exit $bad
