#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times `gsys recipe` over many synthetic rank reports (issue 6 benchmark): wall time, CPU time
# and peak memory for cuda_gpu_kern_sum and nccl_gpu_overlap_trace, local and under mpirun.
# Builds nothing.
#
#   bench/recipe_bench.sh [BUILD_DIR]                 BUILD_DIR defaults to build
#   GEN_ONLY=1 bench/recipe_bench.sh [BUILD_DIR]      only generate (and time) the reports
#
# Needs BUILD_DIR/bin/gsys and BUILD_DIR/bin/gsys_gen_report (GSYS_BUILD_BENCH=ON), GNU time, and
# mpirun for the MPI rows (skipped without it). The reports are generated once, one seed per rank
# (so every file differs), into DATA_DIR (default BUILD_DIR/bench-data/recipe-K-kernels/, ignored
# by git), written under a temporary name and renamed, so an interrupted run leaves no half file.
# Each report: KERNELS kernels (their cudaLaunchKernel calls + 10 % other API calls, memcpy,
# memset, OS runtime; no NVTX), one GPU; about 138 MB at 1 M kernels.
# The recipes read the first REPORTS reports of DATA_DIR (--input DIR:REPORTS), so a smaller
# REPORTS reuses a larger set. Every case runs RUNS times (default 1) after `cat` of the inputs into the page cache; the table
# shows median wall, median CPU (user + sys of every process) and the largest max RSS
# (/usr/bin/time -v: for mpirun, the largest of its children).
# Environment: REPORTS=64, KERNELS=1000000, RUNS=1, NP=2, THREADS (recipe --threads, default its
# own), RECIPES="cuda_gpu_kern_sum nccl_gpu_overlap_trace", DATA_DIR, TIME=/usr/bin/time,
# GEN_JOBS=1 (reports generated at once), DISTINCT=REPORTS (generate only this many distinct
# reports, seeds 1..DISTINCT; rank r >= DISTINCT is a copy of rank r % DISTINCT: every input is
# still its own file of the same size and shape, for when generating all of them takes too long).
set -euo pipefail

build=${1:-build}
gsys=$build/bin/gsys
gen=$build/bin/gsys_gen_report
reports=${REPORTS:-64}
kernels=${KERNELS:-1000000}
runs=${RUNS:-1}
np=${NP:-2}
recipes=${RECIPES:-cuda_gpu_kern_sum nccl_gpu_overlap_trace}
time_bin=${TIME:-/usr/bin/time}
data=${DATA_DIR:-$build/bench-data/recipe-$kernels-kernels}
gen_jobs=${GEN_JOBS:-1}
distinct=${DISTINCT:-$reports}
out_root=$(mktemp -d "${TMPDIR:-/tmp}/gsys-recipe-bench.XXXXXX")
trap 'rm -rf "$out_root"' EXIT

for tool in "$gsys" "$gen" "$time_bin"; do
  [ -x "$tool" ] || { echo "recipe_bench: missing $tool (build with -DGSYS_BUILD_BENCH=ON)" >&2; exit 2; }
done
mkdir -p "$data"

# --- 1. the reports -------------------------------------------------------------------------
gen_one() {  # gen_one RANK: generates a distinct rank, or copies one (through a temporary name)
  local path; path=$(printf '%s/rank_%03d.sqlite' "$data" "$1")
  [ -f "$path" ] && return 0
  if [ "$1" -ge "$distinct" ]; then
    cp "$(printf '%s/rank_%03d.sqlite' "$data" $(($1 % distinct)))" "$path.tmp" && mv "$path.tmp" "$path"
  else
    "$gen" --kernels "$kernels" --nvtx 0 --seed "$(($1 + 1))" -q -o "$path"
  fi
}
missing=0
for r in $(seq 0 $((reports - 1))); do
  [ -f "$(printf '%s/rank_%03d.sqlite' "$data" "$r")" ] || missing=$((missing + 1))
done
if [ "$missing" -gt 0 ]; then
  echo "recipe_bench: generating $missing of $reports reports of $kernels kernels in $data" >&2
  start=$(date +%s.%N)
  export -f gen_one; export gen data kernels distinct
  seq 0 $((distinct - 1)) | xargs -P "$gen_jobs" -I{} bash -c 'gen_one {}'
  [ "$reports" -gt "$distinct" ] && seq "$distinct" $((reports - 1)) | xargs -I{} bash -c 'gen_one {}'
  end=$(date +%s.%N)
  echo "recipe_bench: generated $missing reports ($distinct distinct) in $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.0f", b - a}') s" \
       "($(du -sh "$data" | cut -f1) for all $reports)" >&2
fi
[ "${GEN_ONLY:-0}" = 1 ] && exit 0
inputs=()
for r in $(seq 0 $((reports - 1))); do inputs+=("$(printf '%s/rank_%03d.sqlite' "$data" "$r")"); done

# --- 2. the runs ----------------------------------------------------------------------------
seconds() { awk -F': ' '/Elapsed \(wall clock\)/ {
              n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$1"; }
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# measure LABEL OUT_DIR COMMAND...: prints one table row; the last run's output stays in OUT_DIR.
measure() {
  local label=$1 out=$2; shift 2
  local walls=() cpus=() rss_max=0 log
  log=$(mktemp)
  cat "${inputs[@]}" > /dev/null  # page cache: time the engine, not the disk
  # (run the whole script under `nice` on a shared machine; nothing inside re-nices)
  for _ in $(seq "$runs"); do
    rm -rf "$out"
    if ! "$time_bin" -v "$@" --output "$out" > "$log.out" 2> "$log"; then
      echo "recipe_bench: '$*' failed:" >&2; tail -5 "$log" "$log.out" >&2; return 1
    fi
    walls+=("$(seconds "$log")")
    cpus+=("$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$log")")
    local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    [ "$rss" -gt "$rss_max" ] && rss_max=$rss
  done
  rm -f "$log" "$log.out"
  printf '| %-24s | %-5s | %7.1f | %-20s | %7.1f | %7.0f |\n' "$recipe" "$label" \
    "$(printf '%s\n' "${walls[@]}" | median)" "$(IFS=/; echo "${walls[*]}")" \
    "$(printf '%s\n' "${cpus[@]}" | median)" "$((rss_max / 1024))"
}

echo "gsys recipe on the first $reports synthetic reports x $kernels kernels of $data: median of $runs run(s), hot page cache"
echo "date: $(date -u)"
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
echo "gsys: $(cd "$(dirname "$0")/.." && git rev-parse --short HEAD 2>/dev/null || echo unknown) ($gsys)"
echo "inputs: $(du -sh "$data" | cut -f1) in $data"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
mpirun_cmd=()
if command -v mpirun > /dev/null; then
  mpirun_cmd=(mpirun -np "$np" --oversubscribe)
  [ "$(id -u)" -eq 0 ] && mpirun_cmd+=(--allow-run-as-root)
fi
printf '| %-24s | %-5s | %7s | %-20s | %7s | %7s |\n' recipe mode "wall s" "wall runs (s)" "CPU s" "RSS MiB"
echo "|--------------------------|-------|---------|----------------------|---------|---------|"
for recipe in $recipes; do
  measure local "$out_root/$recipe-local" "$gsys" recipe "$recipe" -q "${threads[@]}" \
    --input "$data:$reports"
  if [ ${#mpirun_cmd[@]} -gt 0 ]; then
    measure "mpi:$np" "$out_root/$recipe-mpi" "${mpirun_cmd[@]}" "$gsys" recipe "$recipe" -q \
      --mode mpi --input "$data:$reports"
    # MPI mode must give the same tables as a local run.
    if diff -r -q -x '*.html' -x '*.gsys-analysis' "$out_root/$recipe-local" "$out_root/$recipe-mpi" > /dev/null; then
      echo "|   (CSV files of mpi:$np identical to local) | | | | | |"
    else
      echo "|   (CSV files of mpi:$np DIFFER from local: $(diff -r -q -x '*.html' -x '*.gsys-analysis' "$out_root/$recipe-local" "$out_root/$recipe-mpi" | head -3 | tr '\n' ' ')) | | | | | |"
    fi
  fi
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
