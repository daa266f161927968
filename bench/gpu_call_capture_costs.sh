#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run for the issue 3/4 cost questions (run from the repository root with build-gpu and
# third_party_dl carried):  bash bench/gpu_call_capture_costs.sh OUTDIR
#  1. bench/capture/floor_bench.sh: bare / bare+idle thread / minimal LD_PRELOAD wrapper / gsys
#     per call (NVTX push+pop, mutex, 1-byte read) and the cost of two TSC reads;
#  2. which CUDA API names gsys records with the full DRIVER kind vs nsys (kernels_streams,
#     the torch loop) and what the full DRIVER and OVERHEAD kinds cost per launch;
#  3. bench/gpu_session.sh (GPU tests, fidelity, stats identity, overhead vs nsys), in the time left.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
B=$ROOT/build-gpu
mkdir -p "$OUTDIR/costs"
# The GPU machine has no sqlite3 shell: queries through Python, rows tab-separated.
sqlite3() { python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute(sys.argv[2]): print(*r, sep="\t")' "$@"; }
N=2000000 timeout 200 bash bench/capture/floor_bench.sh "$B" 2 > "$OUTDIR/costs/floor.txt" 2>&1
echo "floor rc=$?" >> "$OUTDIR/costs/floor.txt"
W=$(mktemp -d)
PROGS=$B/tests/gpu/progs
LOOP=$B/bench-cuda/launch_loop
{
  for kinds in "runtime,driver,kernel,memcpy,memset,sync" ; do
    GSYS_CUDA_KINDS=$kinds timeout 60 "$B/bin/gsys" profile -t cuda -f true -o "$W/drv_ks" "$PROGS/kernels_streams" >/dev/null 2>&1
    echo "== kernels_streams with GSYS_CUDA_KINDS=$kinds: API names"
    sqlite3 "$W/drv_ks.gsys-rep" "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 1"
  done
  echo "== kernels_streams default kinds: PROFILER_OVERHEAD and demangled names"
  timeout 60 "$B/bin/gsys" profile -t cuda -f true -o "$W/def_ks" "$PROGS/kernels_streams" >/dev/null 2>&1
  sqlite3 "$W/def_ks.gsys-rep" "SELECT s.value, count(*), sum(p.end-p.start) FROM PROFILER_OVERHEAD p JOIN StringIds s ON s.id = p.nameId GROUP BY 1"
  sqlite3 "$W/def_ks.gsys-rep" "SELECT DISTINCT d.value, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName JOIN StringIds m ON m.id = k.mangledName"
  for rep in 1 2 3; do
    for kinds in default "runtime,driver-launch,kernel,memcpy,memset,sync" "runtime,driver,kernel,memcpy,memset,sync,overhead"; do
      if [ "$kinds" = default ]; then
        line=$(timeout 60 "$B/bin/gsys" profile -t cuda -f true -o "$W/k" "$LOOP" 200000 2>/dev/null | grep us_per_launch)
      else
        line=$(GSYS_CUDA_KINDS=$kinds timeout 60 "$B/bin/gsys" profile -t cuda -f true -o "$W/k" "$LOOP" 200000 2>/dev/null | grep us_per_launch)
      fi
      echo "launch kinds=$kinds $line"
    done
    echo "launch none $(timeout 60 "$LOOP" 200000 | grep us_per_launch)"
  done
} > "$OUTDIR/costs/cuda_kinds.txt" 2>&1
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
NSYS_LIBS=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu
{
  echo "== nsys kernels_streams: API names and demangled kernel names"
  timeout 90 env LD_LIBRARY_PATH=$NSYS_LIBS "$NSYS" profile -t cuda -f true -o "$W/n_ks" --export sqlite "$PROGS/kernels_streams" >/dev/null 2>&1
  sqlite3 "$W/n_ks.sqlite" "SELECT s.value, count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 1"
  sqlite3 "$W/n_ks.sqlite" "SELECT DISTINCT d.value, m.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON d.id = k.demangledName JOIN StringIds m ON m.id = k.mangledName"
  sqlite3 "$W/n_ks.sqlite" "SELECT s.value, count(*), sum(p.end-p.start) FROM PROFILER_OVERHEAD p JOIN StringIds s ON s.id = p.nameId GROUP BY 1"
} > "$OUTDIR/costs/nsys_names.txt" 2>&1
tail -n 40 "$OUTDIR/costs/"*.txt
PLAN_S=${PLAN_S:-330} bash bench/gpu_session.sh "$OUTDIR/gpu"
