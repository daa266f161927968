#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# GPU metrics as Perfetto/Chrome counter tracks on real NVML data (issue 10 item 3): a capture
# with --gpu-metrics-devices=all on the H200 (a PyTorch loop when torch imports, else sleep),
# exported both ways and checked sample by sample against GSYS_GPU_METRICS
# (tests/export/check_gpu_metric_tracks.py). Keeps the report and traces for a look in
# ui.perfetto.dev.
#   bash bench/gpu_metrics_export.sh OUTDIR      (repository root; carried build in $BUILD,
#                                                 default build-gpu)
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
B=$ROOT/${BUILD:-build-gpu}
G=$B/bin/gsys
CMD=(sleep 2)
if python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
  CMD=(python3 "$ROOT/bench/cuda/torch_loop.py" 20000)
fi
{ echo "command: ${CMD[*]}"
  timeout 180 "$G" profile -f true -o "$OUTDIR/metrics" -t cuda --gpu-metrics-devices=all \
    --gpu-metrics-frequency=100 "${CMD[@]}" 2>&1 | grep -E '^gsys' | tail -4
  timeout 120 python3 "$ROOT/tests/export/check_gpu_metric_tracks.py" --gsys "$G" \
    --report "$OUTDIR/metrics.gsys-rep"
  echo "check rc=$?"
  "$G" export --type perfetto -f true -o "$OUTDIR/metrics.pftrace" "$OUTDIR/metrics.gsys-rep"
  "$G" export --type chrome -f true -o "$OUTDIR/metrics.json" "$OUTDIR/metrics.gsys-rep"
  sqlite3 "$OUTDIR/metrics.gsys-rep" "SELECT deviceId, count(*), min(smClockMHz), max(smClockMHz),
    max(gpuUtilization), max(powerMilliwatts) FROM GSYS_GPU_METRICS GROUP BY 1" 2>/dev/null
} 2>&1 | tee "$OUTDIR/digest.txt"
