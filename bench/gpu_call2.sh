#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The end-of-session run on nvidia-h200-x2 (run from the repository root with build-gpu-slim and
# third_party_dl carried; the build's source path is linked to this checkout):
#   bash bench/gpu_call2.sh OUTDIR
# 1. ctest -L gpu (CUDA capture, cuBLAS/cuDNN, backtraces, metrics: whatever this build has);
# 2. issue 9: bench/ddp/run_ddp.sh (DDP on both GPUs, per-rank reports, recipes, overhead);
# 3. serving: bench/serving_gpu.sh when present;
# 4. launch-loop overhead, gsys default vs nsys, interleaved.
# Returns OUTDIR/digest.txt, OUTDIR/logs.tgz and OUTDIR/reports.tgz (the DDP reports, if small).
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
B=$ROOT/build-gpu
L=$OUTDIR/logs
mkdir -p "$L"
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
source "$ROOT/bench/gpu_link_source.sh"
link_build_source "$ROOT/build-gpu"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
{ nvidia-smi -L; git -C "$ROOT" log --oneline -1 2>/dev/null; } > "$L/machine.txt" 2>&1
(cd "$B" && timeout 200 ctest -L gpu --output-on-failure > "$L/ctest_gpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_gpu.log")
echo "[$(el)s] gpu tests: $(grep -E 'tests passed|rc=' "$L/ctest_gpu.log" | tr '\n' ' ')" | tee -a "$OUTDIR/digest.txt"
grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_gpu.log" | sed 's/  */ /g' >> "$OUTDIR/digest.txt"
W=$(mktemp -d)
timeout 240 bash bench/ddp/run_ddp.sh "$W/ddp" 2 > "$L/ddp_stdout.log" 2>&1
cp "$W/ddp/ddp.log" "$L/" 2>/dev/null; cp "$W/ddp/stderr.log" "$L/ddp_stderr.log" 2>/dev/null
cp -r "$W/ddp/"recipe_* "$W/ddp/"stats_rank_* "$L/" 2>/dev/null
echo "[$(el)s] ddp:" >> "$OUTDIR/digest.txt"; cat "$W/ddp/ddp.log" >> "$OUTDIR/digest.txt" 2>/dev/null
(cd "$W/ddp" && tar -czf "$OUTDIR/reports.tgz" rank_0.gsys-rep rank_1.gsys-rep tree.gsys-rep 2>/dev/null)
if [ "$(stat -c %s "$OUTDIR/reports.tgz" 2>/dev/null || echo 0)" -gt 15000000 ]; then rm -f "$OUTDIR/reports.tgz"; fi
if [ -e bench/serving_gpu.sh ] && [ "$(el)" -lt 420 ]; then
  timeout 120 bash bench/serving_gpu.sh "$B" "$W/serving" > "$L/serving.log" 2>&1
  echo "[$(el)s] serving rc=$?: $(tail -5 "$L/serving.log" | tr '\n' ' ')" >> "$OUTDIR/digest.txt"
fi
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
NSYS_ENV="LD_LIBRARY_PATH=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu"
LOOP=$B/bench-cuda/launch_loop
for rep in 1 2 3; do
  [ "$(el)" -lt 500 ] || break
  echo "launch none $("$LOOP" 200000 | grep -o 'us_per_launch=[0-9.]*')" >> "$L/overhead.log"
  echo "launch gsys $("$B/bin/gsys" profile -t cuda -f true -o "$W/ov" "$LOOP" 200000 2>/dev/null | grep -o 'us_per_launch=[0-9.]*')" >> "$L/overhead.log"
  echo "launch nsys $(env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/ovn" "$LOOP" 200000 2>/dev/null | grep -o 'us_per_launch=[0-9.]*')" >> "$L/overhead.log"
done
python3 - "$L/overhead.log" >> "$OUTDIR/digest.txt" <<'PY'
import re, statistics, sys
v = {}
for line in open(sys.argv[1]):
    m = re.match(r"launch (\w+) us_per_launch=([\d.]+)", line)
    if m: v.setdefault(m.group(1), []).append(float(m.group(2)))
base = statistics.median(v.get("none", [0]))
for k in ("none", "gsys", "nsys"):
    if k in v: print(f"launch {k}: median {statistics.median(v[k]):.3f} added {statistics.median(v[k]) - base:+.3f} runs {v[k]}")
PY
tar -C "$L" -czf "$OUTDIR/logs.tgz" . && rm -rf "$L"
echo "[$(el)s] done" >> "$OUTDIR/digest.txt"
cat "$OUTDIR/digest.txt"
