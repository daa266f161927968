#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase backtrace-cost (issue 10, from bench/gpu_call4.sh step 4 and bench/gpu_call5.sh step 3):
# what CUDA-API backtraces cost on the PyTorch add_ loop (bench/cuda/torch_loop.py 20000),
# gsys vs nsys 2025.3.1 at each tool's default threshold and at equal thresholds (80 us, nsys's
# default; 1 us), interleaved REPS times (default 2), medians; how many CUDA API calls got a
# stack in each report, and the top cuda_api_callers sites of gsys's Python-backtrace capture.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_nsys; need_torch
REPS=${REPS:-2}
run() {  # label, then the command prefix
  local label=$1; shift
  local line
  line=$(OP=add timeout 60 "$@" python3 "$TORCH_LOOP" 20000 2>>"$LOGS/opt_stderr.log" | grep -o 'us_per_op=[0-9.]*')
  echo "add $label $line" >> "$LOGS/options.log"
}
for rep in $(seq "$REPS"); do
  [ "$(left)" -gt 150 ] || { echo "backtrace-cost: out of time at rep $rep"; break; }
  run none env
  run gsys_cuda "$GSYS" profile -t cuda -f true -o "$W/g0"
  run gsys_pybt "$GSYS" profile -t cuda --python-backtrace=cuda -f true -o "$W/gp"
  run gsys_bt80us "$GSYS" profile -t cuda --cudabacktrace=all:80000 --python-backtrace=cuda -f true -o "$W/g1"
  run gsys_bt1us "$GSYS" profile -t cuda --cudabacktrace=all:1000 --python-backtrace=cuda -f true -o "$W/g2"
  run gsys_native1us "$GSYS" profile -t cuda --cudabacktrace=all:1000 -f true -o "$W/g3"
  run nsys_cuda env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/n0"
  run nsys_pybt env "$NSYS_ENV" "$NSYS" profile -t cuda --python-backtrace=cuda -f true -o "$W/np"
  run nsys_bt80us env "$NSYS_ENV" "$NSYS" profile -t cuda --cudabacktrace=all:80000 --python-backtrace=cuda -f true -o "$W/n1"
  run nsys_bt1us env "$NSYS_ENV" "$NSYS" profile -t cuda --cudabacktrace=all:1000 --python-backtrace=cuda -f true -o "$W/n2"
done
echo "[$(el)s] backtrace cost on the add_ loop:"
python3 "$ROOT/bench/option_medians.py" "$LOGS/options.log" 2>&1
rc=$?
cat > "$W/stacks.py" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
n, with_stack = db.execute("SELECT count(*), count(callchainId) FROM CUPTI_ACTIVITY_KIND_RUNTIME").fetchone()
print(f"{sys.argv[2]}: {with_stack} of {n} CUDA API calls with a stack")
PY
for r in gp g1 g2 g3; do
  [ -f "$W/$r.gsys-rep" ] && python3 "$W/stacks.py" "$W/$r.gsys-rep" "gsys $r"
done
for r in np n1 n2; do
  [ -f "$W/$r.nsys-rep" ] && timeout 60 env "$NSYS_ENV" "$NSYS" export -t sqlite -f true -o "$W/$r.sqlite" "$W/$r.nsys-rep" > /dev/null 2>&1 &&
    python3 "$W/stacks.py" "$W/$r.sqlite" "nsys $r"
done
echo "gsys --python-backtrace=cuda callers (default threshold):"
"$GSYS" stats -r cuda_api_callers "$W/gp.gsys-rep" 2>&1 | head -12
exit $rc
