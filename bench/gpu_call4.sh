#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run for issues 10 and 6 (run from the repository root, Release build with
# GSYS_BUILD_BENCH=ON carried as build-gpu-slim), on nvidia-h200-x2 (2 GPUs, 32 cores):
#   bash bench/gpu_call4.sh OUTDIR
# 1. the recipe benchmark's 64 reports are generated in the background (GEN_JOBS=24) while
#    2. ctest -L gpu runs (CUDA capture, cuBLAS/cuDNN trace, CUDA + Python backtraces of
#       PyTorch launches made without the GIL, NVML/NVLink/GPM metrics), then capture.mpi and
#       stacks.* (-t mpi under Open MPI 4.1.6, the perf_event sampler) on this Ubuntu host;
# 3. what --python-backtrace=cuda costs on the PyTorch add_ loop, gsys vs nsys 2025.3.1;
# 4. the recipe benchmark (issue 6): cuda_gpu_kern_sum and nccl_gpu_overlap_trace over 64 x 1 M
#    kernel reports on 2 cores (taskset) and under mpirun -np 2.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
B=$ROOT/build-gpu
L=$OUTDIR/logs
mkdir -p "$L"
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
source "$ROOT/bench/gpu_link_source.sh"
link_build_source "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# 1. reports for the recipe benchmark, in the background on cores 4..31.
DATA=/tmp/recipe-data
( GEN_ONLY=1 GEN_JOBS=24 DISTINCT=32 DATA_DIR=$DATA taskset -c 4-31 \
    bash "$ROOT/bench/recipe_bench.sh" "$B" > "$L/recipe_gen.log" 2>&1; echo "gen rc=$?" >> "$L/recipe_gen.log" ) &
GEN=$!

# 2. GPU tests, then the MPI and sampling tests, on cores 0..3.
(cd "$B" && taskset -c 0-3 timeout 300 ctest -L gpu --output-on-failure > "$L/ctest_gpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_gpu.log")
{ echo "[$(el)s] gpu tests: $(grep -E 'tests passed|rc=' "$L/ctest_gpu.log" | tr '\n' ' ')"
  grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_gpu.log" | sed 's/  */ /g'; } | tee -a "$OUTDIR/digest.txt"
(cd "$B" && taskset -c 0-3 timeout 200 ctest -R '^(capture\.mpi|stacks\.)' --output-on-failure > "$L/ctest_cpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_cpu.log")
{ echo "[$(el)s] mpi + stacks tests: $(grep -E 'tests passed|rc=' "$L/ctest_cpu.log" | tr '\n' ' ')"
  grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_cpu.log" | sed 's/  */ /g'; } | tee -a "$OUTDIR/digest.txt"
wait $GEN
echo "[$(el)s] recipe reports: $(tail -3 "$L/recipe_gen.log" | tr '\n' ' ')" | tee -a "$OUTDIR/digest.txt"

# 3. --python-backtrace=cuda cost on the add_ loop (interleaved x3), gsys vs nsys.
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
NSYS_ENV="LD_LIBRARY_PATH=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu"
LOOP=$ROOT/bench/cuda/torch_loop.py
W=$(mktemp -d)
run() {  # label, then the command prefix
  local label=$1; shift
  local line
  line=$(OP=add timeout 90 "$@" python3 "$LOOP" 20000 2>>"$L/opt_stderr.log" | grep -o 'us_per_op=[0-9.]*')
  echo "$label $line" >> "$L/options.log"
}
for rep in 1 2 3; do
  [ "$(el)" -lt 330 ] || break
  run "none" env
  run "gsys_cuda" "$B/bin/gsys" profile -t cuda -f true -o "$W/g1"
  run "gsys_pybt" "$B/bin/gsys" profile -t cuda --python-backtrace=cuda -f true -o "$W/g2"
  run "nsys_cuda" env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/n1"
  run "nsys_pybt" env "$NSYS_ENV" "$NSYS" profile -t cuda --python-backtrace=cuda -f true -o "$W/n2"
done
python3 - "$L/options.log" <<'PY' | tee -a "$OUTDIR/digest.txt"
import re, statistics, sys
v = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\w+) us_per_op=([\d.]+)", line)
    if m: v.setdefault(m.group(1), []).append(float(m.group(2)))
base = statistics.median(v.get("none", [0]))
for cfg, xs in sorted(v.items()):
    print(f"add {cfg:10s} median {statistics.median(xs):7.3f} us/op  added {statistics.median(xs) - base:+7.3f}  runs {xs}")
PY
"$B/bin/gsys" stats -r cuda_api_callers "$W/g2.gsys-rep" 2>&1 | head -20 > "$L/pybt_callers.log"
echo "[$(el)s] gsys --python-backtrace callers:" >> "$OUTDIR/digest.txt"; cat "$L/pybt_callers.log" >> "$OUTDIR/digest.txt"

# 4. recipe benchmark on 2 cores, local and mpirun -np 2.
( DATA_DIR=$DATA TASKSET=0,1 OUT_DIR=$OUTDIR/recipe timeout $((560 - $(el))) \
    bash "$ROOT/bench/recipe_bench.sh" "$B" > "$L/recipe_bench.log" 2>&1; echo "bench rc=$?" >> "$L/recipe_bench.log" )
echo "[$(el)s] recipe bench:" >> "$OUTDIR/digest.txt"; tail -20 "$L/recipe_bench.log" >> "$OUTDIR/digest.txt"
tar -C "$L" -czf "$OUTDIR/logs.tgz" . && rm -rf "$L"
echo "[$(el)s] done" >> "$OUTDIR/digest.txt"
