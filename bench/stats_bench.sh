#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times `gsys stats` on synthetic reports (issue 2, item 5). Builds nothing.
#
#   bench/stats_bench.sh [BUILD_DIR]          BUILD_DIR defaults to build
#
# Needs BUILD_DIR/bin/gsys and BUILD_DIR/bin/gsys_gen_report (GSYS_BUILD_BENCH=ON).
# Reports are generated once and cached in BUILD_DIR/bench-data/ (ignored by git):
#   (a) 750 k kernels + 750 k cudaLaunchKernel calls (1.5 M events; the shape nsys 2025.3.1 took
#       2.35 s on, nsys-reference.md section 6.2)
#   (b) 10 M kernels, 10.2 M API calls, 2 M NVTX ranges (+ memcpy, memset, OSRT)
# Each case runs RUNS times (default 3) after one untimed warm-up that also fills the page cache;
# the table shows the median wall time, the median CPU time (user + sys; on a shared, loaded
# machine this is the steadier figure) and the largest max RSS (/usr/bin/time -v).
# Environment: RUNS=N, SKIP_BIG=1 (only report (a)), DATA_DIR=DIR, SEED=S, TIME=/path/to/GNU time.
set -euo pipefail

build=${1:-build}
gsys=$build/bin/gsys
gen=$build/bin/gsys_gen_report
runs=${RUNS:-3}
seed=${SEED:-1}
data=${DATA_DIR:-$build/bench-data}
time_bin=${TIME:-/usr/bin/time}
# Bump when the generator's output changes, so cached reports are regenerated.
gen_version=1

for tool in "$gsys" "$gen" "$time_bin"; do
  [ -x "$tool" ] || { echo "stats_bench: missing $tool (build with -DGSYS_BUILD_BENCH=ON)" >&2; exit 2; }
done
mkdir -p "$data"

# report NAME GEN_ARGS...: path of a cached report, generating it when absent.
report() {
  local name=$1; shift
  local path="$data/${name}-v${gen_version}-s${seed}.sqlite"
  if [ ! -f "$path" ]; then
    echo "stats_bench: generating $path ($*)" >&2
    "$gen" "$@" --seed "$seed" -o "$path" >&2
  fi
  echo "$path"
}

# measure LABEL GOAL_S REPORT GSYS_ARGS...: prints one table row.
measure() {
  local label=$1 goal=$2 path=$3; shift 3
  local walls=() cpus=() rss_max=0 log
  log=$(mktemp)
  cat "$path" > /dev/null  # page cache: measure the query engine, not the disk
  "$gsys" stats "$@" "$path" > /dev/null 2>&1 || {
    echo "stats_bench: '$gsys stats $* $path' failed:" >&2
    "$gsys" stats "$@" "$path" 2>&1 >/dev/null | tail -5 >&2
    return 1
  }
  for _ in $(seq "$runs"); do
    "$time_bin" -v "$gsys" stats "$@" "$path" > /dev/null 2> "$log"
    local wall rss cpu
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {
             n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$log")
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {print s}' "$log")
    walls+=("$wall")
    cpus+=("$cpu")
    [ "$rss" -gt "$rss_max" ] && rss_max=$rss
  done
  rm -f "$log"
  local median cpu_median
  median=$(printf '%s\n' "${walls[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  cpu_median=$(printf '%s\n' "${cpus[@]}" | sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
  local verdict=ok
  awk -v m="$median" -v g="$goal" 'BEGIN {exit !(m > g)}' && verdict=MISSED
  printf '| %-29s | %-35s | %6.2f | %-17s | %5.2f | %7.0f | %5s s | %-6s |\n' "$label" "$*" \
    "$median" "$(IFS=/; echo "${walls[*]}")" "$cpu_median" "$((rss_max / 1024))" "$goal" "$verdict"
}

small=$(report a-1.5M --kernels 750000 --api 750000 --osrt 0)
if [ "${SKIP_BIG:-0}" != 1 ]; then
  big=$(report b-10M --kernels 10000000 --api 10200000 --nvtx 2000000)
fi

echo "gsys stats on synthetic reports: median of $runs runs, hot page cache"
echo "date: $(date)"
echo "machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p'), $(free -g | awk '/Mem:/ {print $2}') GiB RAM"
echo "gsys: $(cd "$(dirname "$0")/.." && git rev-parse --short HEAD 2>/dev/null || echo unknown) ($gsys)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %-29s | %-35s | %6s | %-17s | %5s | %7s | %7s | %-6s |\n' case "gsys stats arguments" \
  "wall s" "wall runs (s)" "CPU s" "RSS MiB" goal "wall"
echo "|-------------------------------|-------------------------------------|--------|-------------------|-------|---------|---------|--------|"
measure "(a) 1.5 M events" 0.3 "$small" -r cuda_gpu_kern_sum,cuda_api_sum
if [ -n "${big:-}" ]; then
  measure "(b) 10 M kernels, default set" 5 "$big"
  measure "(b) 10 M kernels" 5 "$big" -r cuda_gpu_kern_sum
fi
