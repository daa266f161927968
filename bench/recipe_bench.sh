#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times `gsys recipe` over many synthetic rank reports (issue 6 benchmark): wall time, CPU time
# and peak memory for cuda_gpu_kern_sum and nccl_gpu_overlap_trace, local and under mpirun.
# Builds nothing; runs unattended from a carried Release build.
#
#   bench/recipe_bench.sh [BUILD_DIR]                 BUILD_DIR defaults to build
#   GEN_ONLY=1 bench/recipe_bench.sh [BUILD_DIR]      only generate (and time) the reports
#
# Needs BUILD_DIR/bin/gsys, BUILD_DIR/bin/gsys_gen_report (GSYS_BUILD_BENCH=ON) and python3 (it
# measures each run: wall time, user + sys CPU and peak RSS from getrusage(RUSAGE_CHILDREN), the
# largest resident set of the run's processes: under mpirun, of the largest MPI process).
# mpirun (Open MPI) is optional: without it the MPI rows are skipped with a note in the table.
# The reports are generated once, one seed per rank (so every file differs), into DATA_DIR
# (default BUILD_DIR/bench-data/recipe-K-kernels/, ignored by git), written under a temporary
# name and renamed, so an interrupted run leaves no half file. Each report: KERNELS kernels (their
# cudaLaunchKernel calls + 10 % other API calls, memcpy, memset, OS runtime; no NVTX), one GPU;
# about 138 MB at 1 M kernels. The recipes read the first N reports of DATA_DIR (--input DIR:N)
# for each N of REPORTS, so smaller sets reuse the largest. Every case runs RUNS times after `cat`
# of the inputs into the page cache; the table shows median wall, median CPU and the largest RSS.
#
# Environment:
#   REPORTS="64"       report counts to run, e.g. "4 16 64" (memory must stay flat across them)
#   KERNELS=1000000    kernels per report
#   RUNS=1  NP=2       runs per case; MPI processes
#   THREADS            recipe --threads (default: its own, the CPUs it may run on)
#   CPUS               CPU list for every recipe run (taskset -c CPUS, and mpirun --bind-to none
#                      so the list holds), e.g. CPUS=0,1 for "2 cores" on a bigger host
#   RECIPES="cuda_gpu_kern_sum nccl_gpu_overlap_trace"
#   OUT_DIR            where the table (recipe_bench.md) and the logs go (default: a new
#                      directory bench-out-DATE under BUILD_DIR); the table is also printed
#   DATA_DIR, GEN_JOBS=1 (reports generated at once), DISTINCT=max(REPORTS) (generate only this
#   many distinct reports, seeds 1..DISTINCT; rank r >= DISTINCT is a copy of rank r % DISTINCT:
#   every input is still its own file of the same size and shape), MPIRUN=mpirun.
set -euo pipefail

build=${1:-build}
gsys=$build/bin/gsys
gen=$build/bin/gsys_gen_report
report_counts=${REPORTS:-64}
kernels=${KERNELS:-1000000}
runs=${RUNS:-1}
np=${NP:-2}
recipes=${RECIPES:-cuda_gpu_kern_sum nccl_gpu_overlap_trace}
data=${DATA_DIR:-$build/bench-data/recipe-$kernels-kernels}
gen_jobs=${GEN_JOBS:-1}
reports=0
for n in $report_counts; do [ "$n" -gt "$reports" ] && reports=$n; done
distinct=${DISTINCT:-$reports}
[ "$distinct" -gt "$reports" ] && distinct=$reports
out_dir=${OUT_DIR:-$build/bench-out-$(date -u +%Y%m%dT%H%M%S)}
cpus=${CPUS:-}

for tool in "$gsys" "$gen"; do
  [ -x "$tool" ] || { echo "recipe_bench: missing $tool (build with -DGSYS_BUILD_BENCH=ON)" >&2; exit 2; }
done
command -v python3 > /dev/null || { echo "recipe_bench: needs python3 (to measure peak RSS)" >&2; exit 2; }
pin=()
if [ -n "$cpus" ]; then
  command -v taskset > /dev/null || { echo "recipe_bench: CPUS=$cpus needs taskset (util-linux)" >&2; exit 2; }
  pin=(taskset -c "$cpus")
fi
mkdir -p "$data" "$out_dir"
out_dir=$(cd "$out_dir" && pwd)
table=$out_dir/recipe_bench.md
scratch=$(mktemp -d "${TMPDIR:-/tmp}/gsys-recipe-bench.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

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
gen_note=""
if [ "$missing" -gt 0 ]; then
  echo "recipe_bench: generating $missing of $reports reports of $kernels kernels in $data" >&2
  start=$(date +%s.%N)
  export -f gen_one; export gen data kernels distinct
  seq 0 $((distinct - 1)) | xargs -P "$gen_jobs" -I{} bash -c 'gen_one {}'
  [ "$reports" -gt "$distinct" ] && seq "$distinct" $((reports - 1)) | xargs -P "$gen_jobs" -I{} bash -c 'gen_one {}'
  end=$(date +%s.%N)
  gen_note="generated $missing reports ($distinct distinct, GEN_JOBS=$gen_jobs) in $(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.0f", b - a}') s"
  echo "recipe_bench: $gen_note ($(du -sh "$data" | cut -f1) for all $reports)" >&2
fi
[ "${GEN_ONLY:-0}" = 1 ] && exit 0

# --- 2. the runs ----------------------------------------------------------------------------
# measure.py LOG COMMAND...: runs COMMAND, writes "wall cpu maxrss_kib" to LOG, exits with its
# status. RUSAGE_CHILDREN's ru_maxrss is the largest resident set of any process waited for
# below it (mpirun waits its processes), like GNU time's "Maximum resident set size".
cat > "$scratch/measure.py" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
rc = subprocess.call(sys.argv[2:])
wall = time.monotonic() - start
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as f:
    f.write("%.3f %.3f %d\n" % (wall, ru.ru_utime + ru.ru_stime, ru.ru_maxrss))
sys.exit(rc)
PY
median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# measure N LABEL OUT_DIR COMMAND...: prints one table row; the last run's output stays in OUT_DIR.
measure() {
  local n=$1 label=$2 out=$3; shift 3
  local walls=() cpus_used=() rss_max=0 stats log
  stats=$scratch/stats; log=$out_dir/$recipe-$label-$n.log
  cat "${inputs[@]:0:$n}" > /dev/null  # page cache: time the engine, not the disk
  # (run the whole script under `nice` on a shared machine; nothing inside re-nices)
  for _ in $(seq "$runs"); do
    rm -rf "$out"
    if ! python3 "$scratch/measure.py" "$stats" "${pin[@]}" "$@" --output "$out" > "$log" 2>&1; then
      echo "recipe_bench: '$*' failed (log: $log):" >&2; tail -5 "$log" >&2; return 1
    fi
    read -r wall cpu rss < "$stats"
    walls+=("$wall"); cpus_used+=("$cpu")
    [ "$rss" -gt "$rss_max" ] && rss_max=$rss
  done
  printf '| %7s | %-24s | %-6s | %7.1f | %-20s | %7.1f | %7.0f |\n' "$n" "$recipe" "$label" \
    "$(printf '%s\n' "${walls[@]}" | median)" "$(IFS=/; echo "${walls[*]}")" \
    "$(printf '%s\n' "${cpus_used[@]}" | median)" "$((rss_max / 1024))"
}

inputs=()
for r in $(seq 0 $((reports - 1))); do inputs+=("$(printf '%s/rank_%03d.sqlite' "$data" "$r")"); done
threads=()
[ -n "${THREADS:-}" ] && threads=(--threads "$THREADS")
mpirun_bin=${MPIRUN:-mpirun}
mpirun_cmd=()
mpi_note="mpirun not found: MPI rows skipped (install openmpi-bin for them)"
if command -v "$mpirun_bin" > /dev/null; then
  mpirun_cmd=("$mpirun_bin" -np "$np" --oversubscribe)
  [ "$(id -u)" -eq 0 ] && mpirun_cmd+=(--allow-run-as-root)
  [ -n "$cpus" ] && mpirun_cmd+=(--bind-to none)
  # Containers often forbid the cross-memory attach of Open MPI 4's shared-memory transport.
  export OMPI_MCA_btl_vader_single_copy_mechanism=${OMPI_MCA_btl_vader_single_copy_mechanism:-none}
  mpi_note="$("$mpirun_bin" --version 2>&1 | head -1)"
fi
{
echo "gsys recipe on the first N of $reports synthetic reports x $kernels kernels ($data): median of $runs run(s), hot page cache"
echo
echo "- date: $(date -u)"
echo "- machine: $(nproc --all) CPUs ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p')), $(free -g | awk '/Mem:/ {print $2}') GiB RAM; runs on ${cpus:+CPUs $cpus (}$(${pin[@]+"${pin[@]}"} nproc) CPUs${cpus:+)}"
echo "- gsys: $(cd "$(dirname "$0")/.." && git rev-parse --short HEAD 2>/dev/null || echo unknown) ($gsys)"
echo "- inputs: $(du -sh "$data" | cut -f1) in $data${gen_note:+; $gen_note}"
echo "- MPI: $mpi_note"
echo "- load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
printf '| %7s | %-24s | %-6s | %7s | %-20s | %7s | %7s |\n' reports recipe mode "wall s" "wall runs (s)" "CPU s" "RSS MiB"
echo "|---------|--------------------------|--------|---------|----------------------|---------|---------|"
} | tee "$table"
for n in $report_counts; do
  for recipe in $recipes; do
    measure "$n" local "$scratch/$recipe-local" "$gsys" recipe "$recipe" -q "${threads[@]}" \
      --input "$data:$n" | tee -a "$table"
    if [ ${#mpirun_cmd[@]} -gt 0 ]; then
      measure "$n" "mpi:$np" "$scratch/$recipe-mpi" "${mpirun_cmd[@]}" "$gsys" recipe "$recipe" -q \
        --mode mpi --input "$data:$n" | tee -a "$table"
      # MPI mode must give the same tables as a local run.
      if diff -r -q -x '*.html' -x '*.gsys-analysis' "$scratch/$recipe-local" "$scratch/$recipe-mpi" > /dev/null; then
        echo "|         |   (CSV files of mpi:$np identical to local) | | | | | |" | tee -a "$table"
      else
        echo "|         |   (CSV files of mpi:$np DIFFER from local: $(diff -r -q -x '*.html' -x '*.gsys-analysis' "$scratch/$recipe-local" "$scratch/$recipe-mpi" | head -3 | tr '\n' ' ')) | | | | | |" | tee -a "$table"
      fi
    else
      echo "|         | $recipe (mpi:$np skipped: mpirun not found) | | | | | |" | tee -a "$table"
    fi
  done
done
echo | tee -a "$table"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$table"
echo "recipe_bench: table in $table" >&2
