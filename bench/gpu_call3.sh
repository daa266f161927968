#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run for issue 10 (run from the repository root, build carried as build-gpu-slim):
#   bash bench/gpu_call3.sh OUTDIR
# 1. ctest -L gpu: CUDA capture, cuBLAS/cuDNN trace (GEMM+conv program, PyTorch conv net),
#    CUDA/Python backtraces of a PyTorch loop, NVML metrics rate;
# 2. what each option costs on the PyTorch loops (x.add_(1) and a 16x16 matmul), interleaved
#    x3, next to nsys 2025.3.1 with the same options where it has them.
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
(cd "$B" && timeout 240 ctest -L gpu --output-on-failure > "$L/ctest_gpu.log" 2>&1; echo "ctest rc=$?" >> "$L/ctest_gpu.log")
{ echo "[$(el)s] gpu tests: $(grep -E 'tests passed|rc=' "$L/ctest_gpu.log" | tr '\n' ' ')"
  grep -E '^\s*[0-9]+/[0-9]+ Test' "$L/ctest_gpu.log" | sed 's/  */ /g'; } | tee -a "$OUTDIR/digest.txt"
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
NSYS_ENV="LD_LIBRARY_PATH=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu"
LOOP=$ROOT/bench/cuda/torch_loop.py
W=$(mktemp -d)
run() {  # label, then the command prefix (empty for none)
  local label=$1; shift
  local line
  line=$(timeout 90 "$@" python3 "$LOOP" 20000 2>>"$L/opt_stderr.log" | grep -o 'us_per_op=[0-9.]*')
  echo "$label $line" >> "$L/options.log"
}
for rep in 1 2 3; do
  for op in add matmul; do
    [ "$(el)" -lt 480 ] || break 2
    export OP=$op
    run "$op none" env
    run "$op gsys_cuda" "$B/bin/gsys" profile -t cuda -f true -o "$W/g1"
    run "$op gsys_cublas_cudnn" "$B/bin/gsys" profile -t cuda,cublas,cudnn -f true -o "$W/g2"
    run "$op gsys_backtrace" "$B/bin/gsys" profile -t cuda --backtrace=cuda --python-backtrace=cuda -f true -o "$W/g3"
    run "$op gsys_metrics" "$B/bin/gsys" profile -t cuda --gpu-metrics-devices=all -f true -o "$W/g4"
    run "$op nsys_cuda" env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/n1"
    run "$op nsys_cublas_cudnn" env "$NSYS_ENV" "$NSYS" profile -t cuda,cublas,cudnn -f true -o "$W/n2"
    run "$op nsys_backtrace" env "$NSYS_ENV" "$NSYS" profile -t cuda --cudabacktrace=all --python-backtrace=cuda -f true -o "$W/n3"
  done
done
unset OP
python3 "$ROOT/bench/option_medians.py" "$L/options.log" | tee -a "$OUTDIR/digest.txt"
# One matmul capture with cuBLAS trace: call counts next to kernels.
OP=matmul "$B/bin/gsys" profile -t cuda,cublas -f true -o "$W/mm" python3 "$LOOP" 1000 > "$L/mm_profile.log" 2>&1
"$B/bin/gsys" stats -r cublas_api_sum,cuda_gpu_kern_sum "$W/mm.gsys-rep" > "$L/mm_stats.log" 2>&1
echo "[$(el)s] matmul -t cublas stats:" >> "$OUTDIR/digest.txt"; head -40 "$L/mm_stats.log" >> "$OUTDIR/digest.txt"
tar -C "$L" -czf "$OUTDIR/logs.tgz" . && rm -rf "$L"
echo "[$(el)s] done" >> "$OUTDIR/digest.txt"
