#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmarks (a) and (b) of issue 4, interleaved repetitions, medians. Usage:
#   bench/cuda/run_bench.sh BUILD_DIR OUT_DIR [REPS]
# (a) launch_loop: none, bare CUPTI (kernel / kernel+runtime / all), gsys with its default
#     kinds and with single kinds (what each CUPTI kind costs);
# (b) torch x.add_(1): none, gsys, torch.profiler (when python3 has torch);
# (c) import time of the gsys capture of (a).
set -u
B=$1; OUT=$2; REPS=${3:-3}
# libgsys-inject.so through CUDA_INJECTION64_PATH alone (no LD_PRELOAD): CUDA capture only.
INJ=$B/lib/libgsys-inject.so
export GSYS_TRACE=cuda
BARE=$B/bench-cuda/libbare-cupti-inject.so
LOOP=$B/bench-cuda/launch_loop
TORCH=$(dirname "$0")/torch_loop.py
LOG=$OUT/bench_raw.log
: > "$LOG"
S=$(mktemp -d)
run() {  # name, then env assignments, then command
  local name=$1; shift
  rm -rf "$S"/*
  local line
  line=$(env GSYS_SESSION_DIR="$S" "$@" 2>>"$OUT/bench_stderr.log" | grep -E 'us_per_(launch|op)=' | tail -1)
  echo "$name $line" | tee -a "$LOG"
}
a_configs=(
  "none|"
  "bare_kernel|CUDA_INJECTION64_PATH=$BARE BARE_CUPTI_KINDS=kernel"
  "bare_kernel_runtime|CUDA_INJECTION64_PATH=$BARE BARE_CUPTI_KINDS=kernel,runtime"
  "bare_all|CUDA_INJECTION64_PATH=$BARE BARE_CUPTI_KINDS=all"
  "gsys_default|CUDA_INJECTION64_PATH=$INJ"
  "gsys_none|CUDA_INJECTION64_PATH=$INJ GSYS_CUDA_KINDS=none"
  "gsys_kernel|CUDA_INJECTION64_PATH=$INJ GSYS_CUDA_KINDS=kernel"
  "gsys_runtime|CUDA_INJECTION64_PATH=$INJ GSYS_CUDA_KINDS=runtime"
  "gsys_kernel_runtime|CUDA_INJECTION64_PATH=$INJ GSYS_CUDA_KINDS=kernel,runtime"
  "gsys_all|CUDA_INJECTION64_PATH=$INJ GSYS_CUDA_KINDS=kernel,runtime,driver,memcpy,memset,sync"
)
for r in $(seq "$REPS"); do
  for c in "${a_configs[@]}"; do
    name=${c%%|*}; envs=${c#*|}
    # shellcheck disable=SC2086
    run "a:$name" $envs "$LOOP" 200000
  done
done
if python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
  for r in $(seq "$REPS"); do
    run "b:none" python3 "$TORCH" 50000
    run "b:gsys_default" CUDA_INJECTION64_PATH="$INJ" python3 "$TORCH" 50000
    run "b:torch_profiler" MODE=torch_profiler python3 "$TORCH" 50000
  done
fi
# (c) import time of one gsys capture of the launch loop (1M launches -> ~2M records).
rm -rf "$S"/*
env GSYS_SESSION_DIR="$S" CUDA_INJECTION64_PATH="$INJ" "$LOOP" 1000000 | tee -a "$LOG"
du -sh "$S" | tee -a "$LOG"
/usr/bin/time -f "c: gsys import %e s, %M KiB" "$B/bin/gsys" import "$S" -o "$OUT/import_bench.gsys-rep" 2>&1 | tee -a "$LOG"
rm -f "$OUT/import_bench.gsys-rep"
rm -rf "$S"
python3 - "$LOG" <<'PY' | tee "$OUT/bench_summary.txt"
import re, statistics, sys
vals = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) us_per_(?:launch|op)=([\d.]+)", line)
    if m: vals.setdefault(m.group(1), []).append(float(m.group(2)))
for bench in ("a", "b"):
    base = vals.get(f"{bench}:none")
    if not base: continue
    b0 = statistics.median(base)
    for k, v in vals.items():
        if k.startswith(bench + ":"):
            med = statistics.median(v)
            print(f"{k:24s} median {med:7.3f} us  (+{med - b0:6.3f})  runs {' '.join(f'{x:.2f}' for x in v)}")
PY
