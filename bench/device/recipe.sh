#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase recipe (issue 6, from bench/gpu_call4.sh steps 1 and 6): bench/recipe_bench.sh on
# REPORTS (default 64) synthetic rank reports of 1 M kernels (DISTINCT=24 generated on every core
# but two, the rest copies), then cuda_gpu_kern_sum and nccl_gpu_overlap_trace pinned to 2 cores
# (CPUS=0,1), local and under mpirun -np 2, time-boxed to the phase's limit. Goal: peak RSS flat
# in the number of reports (bounded per input); the MPI CSVs identical to the local ones.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_file "$B/bin/gsys_gen_report" "a build with GSYS_BUILD_BENCH=ON"
command -v taskset > /dev/null || fail "missing taskset"
DATA=${DATA_DIR:-/tmp/recipe-data}
export REPORTS=${REPORTS:-64} DISTINCT=${DISTINCT:-24}
jobs=$(( $(nproc) - 2 )); [ "$jobs" -ge 1 ] || jobs=1
( GEN_ONLY=1 GEN_JOBS=${GEN_JOBS:-$jobs} DATA_DIR=$DATA \
    timeout $(( PHASE_LIMIT_S / 2 )) bash "$ROOT/bench/recipe_bench.sh" "$B" \
    > "$LOGS/recipe_gen.log" 2>&1 ) ||
  fail "report generation failed or ran out of time (see recipe_gen.log)"
echo "[$(el)s] recipe reports: $(tail -2 "$LOGS/recipe_gen.log" | tr '\n' ' ')"
DATA_DIR=$DATA CPUS=${CPUS:-0,1} OUT_DIR=$W/recipe timeout $(( $(left) - 10 )) \
  bash "$ROOT/bench/recipe_bench.sh" "$B" > "$LOGS/recipe_bench.log" 2>&1
rc=$?
echo "[$(el)s] recipe bench rc=$rc:"; tail -16 "$LOGS/recipe_bench.log"
cp "$W/recipe/recipe_bench.md" "$LOGS/" 2>/dev/null
need_figures "$W/recipe/recipe_bench.md"
exit $rc
