#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run for issues 10 and 6 (run from the repository root; Release build with
# GSYS_BUILD_BENCH=ON carried as build-gpu-slim, libdw/libelf for nsys's importer in
# third_party_dl), on nvidia-h200-x2 (2 GPUs, 32 cores), within ~590 s:
#   bash bench/gpu_call4.sh OUTDIR
# 1. the recipe benchmark's 64 reports are generated in the background on cores 4..31 while
# 2. ctest -L gpu runs on cores 0..3 (CUDA capture, cuBLAS/cuDNN trace, CUDA + Python backtraces
#    of PyTorch launches made without the GIL, NVML/NVLink/GPM metrics and low_sm_activity), then
#    capture.mpi and stacks.* (-t mpi under Open MPI 4.1.6, the perf_event sampler);
# 3. GPU metrics exported as counter tracks from a real capture (bench/gpu_metrics_export.sh) and
#    an nsys 2025.3.1 capture with --gpu-metrics-devices read by gsys summary/export;
# 4. what --python-backtrace=cuda costs on the PyTorch add_ loop, gsys vs nsys (interleaved x2);
# 5. CPU-sampling cost on the quiet host (bench/gpu_sampling_cost.sh, time-boxed);
# 6. the recipe benchmark (issue 6): cuda_gpu_kern_sum and nccl_gpu_overlap_trace over 64 x 1 M
#    kernel reports on 2 cores (CPUS=0,1) and under mpirun -np 2, time-boxed to the call's end.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
B=$ROOT/build-gpu
L=$OUTDIR/logs
D=$OUTDIR/digest.txt
mkdir -p "$L"
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
source "$ROOT/bench/gpu_link_source.sh"
link_build_source "$B"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
NSYS_LIB=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu
LOOP=$ROOT/bench/cuda/torch_loop.py
W=$(mktemp -d)

# 1. reports for the recipe benchmark, in the background.
DATA=/tmp/recipe-data
( GEN_ONLY=1 GEN_JOBS=24 DISTINCT=24 REPORTS=64 DATA_DIR=$DATA taskset -c 4-31 \
    bash "$ROOT/bench/recipe_bench.sh" "$B" > "$L/recipe_gen.log" 2>&1; echo "gen rc=$?" >> "$L/recipe_gen.log" ) &
GEN=$!

# 2. GPU tests, then the MPI and sampling tests.
(cd "$B" && taskset -c 0-3 timeout 200 ctest -L gpu --output-on-failure > "$L/ctest_gpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_gpu.log")
{ echo "[$(el)s] gpu tests: $(grep -E 'tests passed|rc=' "$L/ctest_gpu.log" | tr '\n' ' ')"
  grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_gpu.log" | sed 's/  */ /g'
  grep -E 'walker|us per stack|Hz: GPU|low_sm_activity|NVLink counters' "$L/ctest_gpu.log" | head -20; } | tee -a "$D"
(cd "$B" && taskset -c 0-3 timeout 120 ctest -R '^(capture\.mpi|stacks\.)' --output-on-failure > "$L/ctest_cpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_cpu.log")
{ echo "[$(el)s] mpi + stacks tests: $(grep -E 'tests passed|rc=' "$L/ctest_cpu.log" | tr '\n' ' ')"
  grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_cpu.log" | sed 's/  */ /g'; } | tee -a "$D"

# 3. GPU metrics: gsys capture exported as counters; nsys's GPU_METRICS read by gsys.
BUILD=build-gpu timeout 90 bash "$ROOT/bench/gpu_metrics_export.sh" "$W/metrics" > "$L/metrics_export.log" 2>&1
{ echo "[$(el)s] metrics export:"; grep -vE '^\s*$' "$W/metrics/digest.txt" | tail -12; } >> "$D"
OP=matmul timeout 90 env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" profile -t cuda --gpu-metrics-devices=all \
  --gpu-metrics-frequency=1000 -f true -o "$W/nsys_gm" python3 "$LOOP" 3000 > "$L/nsys_gm.log" 2>&1
timeout 90 env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" export -t sqlite -f true -o "$W/nsys_gm.sqlite" "$W/nsys_gm.nsys-rep" >> "$L/nsys_gm.log" 2>&1
{ echo "[$(el)s] nsys --gpu-metrics-devices export:"
  python3 - "$W/nsys_gm.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT count(*), count(DISTINCT typeId), count(DISTINCT metricId) FROM GPU_METRICS").fetchone())
for row in db.execute("SELECT typeId, sourceId, typeName, metricId, metricName FROM TARGET_INFO_GPU_METRICS ORDER BY typeId, metricId LIMIT 40"):
    print(row)
PY
  "$B/bin/gsys" summary -f -o "$W/nsys_gm.html" "$W/nsys_gm.sqlite" && grep -o 'Sampled GPU metrics' "$W/nsys_gm.html" | head -1
  "$B/bin/gsys" export --type perfetto -f true -o "$W/nsys_gm.pftrace" "$W/nsys_gm.sqlite" && ls -la "$W/nsys_gm.pftrace" | awk '{print "perfetto bytes", $5}'
} >> "$D" 2>&1
# A small slice of the nsys export, to become a test fixture (GPU metrics tables + session info).
python3 - "$W/nsys_gm.sqlite" "$OUTDIR/nsys2025.3.1-gpu-metrics-slice.sqlite" <<'PY' >> "$D" 2>&1
import sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
db = sqlite3.connect(dst)
db.execute("ATTACH ? AS s", (src,))
for (t,) in db.execute("SELECT name FROM s.sqlite_master WHERE type='table' AND name IN ('TARGET_INFO_GPU_METRICS','ANALYSIS_DETAILS','TARGET_INFO_GPU','TARGET_INFO_SESSION_START_TIME','META_DATA_EXPORT','StringIds')").fetchall():
    db.execute("CREATE TABLE main.%s AS SELECT * FROM s.%s" % (t, t))
db.execute("CREATE TABLE main.GPU_METRICS AS SELECT * FROM s.GPU_METRICS WHERE timestamp < (SELECT min(timestamp) FROM s.GPU_METRICS) + 200000000")
db.commit()
print("fixture rows", db.execute("SELECT count(*) FROM main.GPU_METRICS").fetchone())
PY

wait $GEN
echo "[$(el)s] recipe reports: $(tail -2 "$L/recipe_gen.log" | tr '\n' ' ')" | tee -a "$D"

# 4. --python-backtrace=cuda cost on the add_ loop (interleaved x2), gsys vs nsys.
run() {  # label, then the command prefix
  local label=$1; shift
  local line
  line=$(OP=add timeout 60 "$@" python3 "$LOOP" 20000 2>>"$L/opt_stderr.log" | grep -o 'us_per_op=[0-9.]*')
  echo "add $label $line" >> "$L/options.log"
}
for rep in 1 2; do
  run "none" env
  run "gsys_cuda" "$B/bin/gsys" profile -t cuda -f true -o "$W/g1"
  run "gsys_pybt" "$B/bin/gsys" profile -t cuda --python-backtrace=cuda -f true -o "$W/g2"
  run "nsys_cuda" env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" profile -t cuda -f true -o "$W/n1"
  run "nsys_pybt" env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" profile -t cuda --python-backtrace=cuda -f true -o "$W/n2"
done
{ echo "[$(el)s] --python-backtrace=cuda on the add_ loop:"
  python3 "$ROOT/bench/option_medians.py" "$L/options.log"
  echo "gsys --python-backtrace=cuda callers (default threshold):"
  "$B/bin/gsys" stats -r cuda_api_callers "$W/g2.gsys-rep" 2>&1 | head -12; } >> "$D" 2>&1

# 5. CPU-sampling cost on this quiet host.
BUILD=build-gpu timeout 75 bash "$ROOT/bench/gpu_sampling_cost.sh" "$W/sampling" > "$L/sampling.log" 2>&1
{ echo "[$(el)s] sampling cost:"; cat "$W/sampling/digest.txt" 2>/dev/null | tail -30; } >> "$D"

# 6. recipe benchmark on 2 cores, local and mpirun -np 2, until the call's end.
( DATA_DIR=$DATA REPORTS=64 DISTINCT=24 CPUS=0,1 OUT_DIR=$OUTDIR/recipe timeout $((585 - $(el))) \
    bash "$ROOT/bench/recipe_bench.sh" "$B" > "$L/recipe_bench.log" 2>&1; echo "bench rc=$?" >> "$L/recipe_bench.log" )
{ echo "[$(el)s] recipe bench:"; tail -16 "$L/recipe_bench.log"; } >> "$D"
tar -C "$L" -czf "$OUTDIR/logs.tgz" . && rm -rf "$L"
echo "[$(el)s] done" >> "$D"
