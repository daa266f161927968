#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase cupti-bare (issue 4 (a)-(c)): bench/cuda/run_bench.sh, what each CUPTI kind costs per
# empty-kernel launch (bare CUPTI references and libgsys-inject.so with single kinds, through
# CUDA_INJECTION64_PATH alone), the torch loop under gsys vs torch.profiler, and the import time
# of a 1 M-launch capture; REPS interleaved repetitions (default 3), medians.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys
need_file "$B/lib/libgsys-inject.so"
need_file "$B/bench-cuda/libbare-cupti-inject.so" "bench/cuda, built with nvcc"
need_file "$LAUNCH_LOOP" "bench/cuda, built with nvcc"
timeout $(( PHASE_LIMIT_S - 10 )) bash "$ROOT/bench/cuda/run_bench.sh" "$B" "$LOGS" "${REPS:-3}" \
  > "$LOGS/run_bench.log" 2>&1
rc=$?
need_figures "$LOGS/bench_summary.txt"
cat "$LOGS/bench_summary.txt"
grep -E '^c: ' "$LOGS/bench_raw.log"
exit $rc
