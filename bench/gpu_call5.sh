#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run 5 (nvidia-h200-x2, 32 cores): the rest of device run 4, then the long fuzz runs of
# issue 8 on every core for the time left. From the repository root, with the Release build
# carried as build-gpu-slim and the fuzz pack (bench/fuzz_long.sh --pack) as fuzz-pack:
#   bash bench/gpu_call5.sh OUTDIR [FUZZ_END_S]
# 1. capture.mpi and stacks.* (ctest registers them with the build machine's python3.11 path:
#    linked to this host's python3 when missing);
# 2. gpu.metrics and gpu.python_frames verbose (the low_sm_activity check, the walker's cost);
# 3. backtrace cost at equal thresholds, gsys vs nsys 2025.3.1, on the PyTorch add_ loop;
# 4. bench/fuzz_long.sh until FUZZ_END_S (default 570) seconds after the start; the corpora of
#    the SQLite-backed targets come back (to be replayed under ASan at home).
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
END=${2:-570}
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

# 1. MPI and stacks tests.
py=$(sed -n 's/^Python3_EXECUTABLE:FILEPATH=//p' "$B/CMakeCache.txt")
[ -n "$py" ] && [ ! -e "$py" ] && ln -s "$(command -v python3)" "$py"
(cd "$B" && timeout 150 ctest -R '^(capture\.mpi|stacks\.)' --output-on-failure > "$L/ctest_cpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_cpu.log")
{ echo "[$(el)s] mpi + stacks tests ($py -> python3): $(grep -E 'tests passed|rc=' "$L/ctest_cpu.log" | tr '\n' ' ')"
  grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_cpu.log" | sed 's/  */ /g'; } | tee -a "$D"

# 2. Two GPU cases, verbose.
(cd "$B" && timeout 90 ctest -R '^gpu\.(metrics|python_frames)$' -V > "$L/ctest_gpu_v.log" 2>&1)
{ echo "[$(el)s] gpu.metrics / gpu.python_frames details:"
  grep -E 'ok: |FAIL|low_sm|Samples|NVLink counters|walker|per stack|Passed|Failed' "$L/ctest_gpu_v.log" | cut -c1-220 | head -60; } >> "$D"

# 3. Backtrace cost at equal thresholds (interleaved x2, us per x.add_(1)).
run() {
  local label=$1; shift
  local line
  line=$(OP=add timeout 60 "$@" python3 "$LOOP" 20000 2>>"$L/opt_stderr.log" | grep -o 'us_per_op=[0-9.]*')
  echo "add $label $line" >> "$L/options.log"
}
for rep in 1 2; do
  run none env
  run gsys_cuda "$B/bin/gsys" profile -t cuda -f true -o "$W/g0"
  run gsys_bt80us "$B/bin/gsys" profile -t cuda --cudabacktrace=all:80000 --python-backtrace=cuda -f true -o "$W/g1"
  run gsys_bt1us "$B/bin/gsys" profile -t cuda --cudabacktrace=all:1000 --python-backtrace=cuda -f true -o "$W/g2"
  run gsys_native1us "$B/bin/gsys" profile -t cuda --cudabacktrace=all:1000 -f true -o "$W/g3"
  run nsys_cuda env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" profile -t cuda -f true -o "$W/n0"
  run nsys_bt80us env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" profile -t cuda --cudabacktrace=all:80000 --python-backtrace=cuda -f true -o "$W/n1"
  run nsys_bt1us env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" profile -t cuda --cudabacktrace=all:1000 --python-backtrace=cuda -f true -o "$W/n2"
done
{ echo "[$(el)s] backtrace cost on the add_ loop:"
  python3 "$ROOT/bench/option_medians.py" "$L/options.log"
  for r in g1 g2 g3; do
    [ -f "$W/$r.gsys-rep" ] && python3 - "$W/$r.gsys-rep" "$r" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n, with_stack = db.execute("SELECT count(*), count(callchainId) FROM CUPTI_ACTIVITY_KIND_RUNTIME").fetchone()
print(f"gsys {sys.argv[2]}: {with_stack} of {n} CUDA API calls with a native stack")
PY
  done
  for r in n1 n2; do
    [ -f "$W/$r.nsys-rep" ] && timeout 60 env LD_LIBRARY_PATH=$NSYS_LIB "$NSYS" export -t sqlite -f true -o "$W/$r.sqlite" "$W/$r.nsys-rep" > /dev/null 2>&1 &&
      python3 - "$W/$r.sqlite" "$r" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n, with_stack = db.execute("SELECT count(*), count(callchainId) FROM CUPTI_ACTIVITY_KIND_RUNTIME").fetchone()
print(f"nsys {sys.argv[2]}: {with_stack} of {n} CUDA API calls with a stack")
PY
  done; } >> "$D" 2>&1

# 4. Fuzzing for the time left.
left=$((END - $(el)))
echo "[$(el)s] fuzzing for $left s" >> "$D"
FUZZ_WORK=/tmp/fuzz-work FUZZ_KEEP_WORK=1 bash "$ROOT/fuzz-pack/fuzz_long.sh" "$OUTDIR/fuzz" "$left" > "$L/fuzz.log" 2>&1
cat "$OUTDIR/fuzz/summary.md" >> "$D" 2>/dev/null
for t in import_fuzzer report_reader_fuzzer; do
  [ -d /tmp/fuzz-work/$t/corpus ] && tar -C /tmp/fuzz-work/$t -czf "$OUTDIR/corpus-$t.tgz" corpus
done
ls -la "$OUTDIR" >> "$D"
tar -C "$L" -czf "$OUTDIR/logs.tgz" . && rm -rf "$L"
echo "[$(el)s] done" >> "$D"
