#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase capture-costs (issues 3 and 4, from bench/gpu_call_capture_costs.sh):
# 1. bench/capture/floor_bench.sh: bare / bare + idle thread / minimal LD_PRELOAD wrapper / gsys
#    per call (NVTX push+pop, mutex, 1-byte read) and the cost of two TSC reads (N per round,
#    ROUNDS rounds). Goals: NVTX pair <= 60 ns, mutex <= 8 ns, read <= 50 ns added.
# 2. which CUDA API names gsys records with the full DRIVER kind vs nsys (kernels_streams), the
#    PROFILER_OVERHEAD rows and demangled names, and what the default kinds, driver-launch only
#    and full DRIVER + OVERHEAD cost per launch (200 000 launches, 3 interleaved repetitions).
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_nsys
need_file "$PROGS/kernels_streams" "a build with CUDA: tests/gpu/progs"
need_file "$LAUNCH_LOOP" "bench/cuda, built with nvcc"
command -v g++ > /dev/null || fail "missing g++ (floor_bench.sh compiles its programs here)"
need_file "${CUDA_HOME:-/usr/local/cuda}/include/nvtx3/nvToolsExt.h" "floor_bench.sh includes it"
# The GPU machine has no sqlite3 shell: queries through Python, rows tab-separated.
sqlite3() { python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(*r, sep="\t")' "$@"; }
N=${N:-2000000} timeout 200 bash "$ROOT/bench/capture/floor_bench.sh" "$B" "${ROUNDS:-2}" > "$LOGS/floor.txt" 2>&1
echo "floor rc=$?" >> "$LOGS/floor.txt"
{
  kinds=runtime,driver,kernel,memcpy,memset,sync
  GSYS_CUDA_KINDS=$kinds timeout 60 "$GSYS" profile -t cuda -f true -o "$W/drv_ks" "$PROGS/kernels_streams" >/dev/null 2>&1
  echo "== kernels_streams with GSYS_CUDA_KINDS=$kinds: API names"
  sqlite3 "$W/drv_ks.gsys-rep" "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 1"
  echo "== kernels_streams default kinds: PROFILER_OVERHEAD and demangled names"
  timeout 60 "$GSYS" profile -t cuda -f true -o "$W/def_ks" "$PROGS/kernels_streams" >/dev/null 2>&1
  sqlite3 "$W/def_ks.gsys-rep" "SELECT s.value, count(*), sum(p.end-p.start) FROM PROFILER_OVERHEAD p JOIN StringIds s ON s.id = p.nameId GROUP BY 1"
  sqlite3 "$W/def_ks.gsys-rep" "SELECT DISTINCT d.value, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName JOIN StringIds m ON m.id = k.mangledName"
  for _ in 1 2 3; do
    for kinds in default "runtime,driver-launch,kernel,memcpy,memset,sync" "runtime,driver,kernel,memcpy,memset,sync,overhead"; do
      if [ "$kinds" = default ]; then
        line=$(timeout 60 "$GSYS" profile -t cuda -f true -o "$W/k" "$LAUNCH_LOOP" 200000 2>/dev/null | grep us_per_launch)
      else
        line=$(GSYS_CUDA_KINDS=$kinds timeout 60 "$GSYS" profile -t cuda -f true -o "$W/k" "$LAUNCH_LOOP" 200000 2>/dev/null | grep us_per_launch)
      fi
      echo "launch kinds=$kinds $line"
    done
    echo "launch none $(timeout 60 "$LAUNCH_LOOP" 200000 | grep us_per_launch)"
  done
} > "$LOGS/cuda_kinds.txt" 2>&1
{
  echo "== nsys kernels_streams: API names and demangled kernel names"
  timeout 90 env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/n_ks" --export sqlite "$PROGS/kernels_streams" >/dev/null 2>&1
  sqlite3 "$W/n_ks.sqlite" "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 1"
  sqlite3 "$W/n_ks.sqlite" "SELECT DISTINCT d.value, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName JOIN StringIds m ON m.id = k.mangledName"
  sqlite3 "$W/n_ks.sqlite" "SELECT s.value, count(*), sum(p.end-p.start) FROM PROFILER_OVERHEAD p JOIN StringIds s ON s.id = p.nameId GROUP BY 1"
} > "$LOGS/nsys_names.txt" 2>&1
tail -n 40 "$LOGS/"*.txt
grep -q 'round=.* gsys: ' "$LOGS/floor.txt" || { echo "capture-costs: floor_bench.sh gave no gsys figure"; exit 4; }
grep -q 'launch none us_per_launch=' "$LOGS/cuda_kinds.txt" || { echo "capture-costs: no launch figure"; exit 4; }
