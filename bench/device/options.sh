#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase options (issue 10, from bench/gpu_call3.sh): what each capture option costs on the
# PyTorch loops (bench/cuda/torch_loop.py 20000: x.add_(1), and OP=matmul a 16x16 torch.mm, one
# cuBLAS call per op), gsys next to nsys 2025.3.1 with the same options where it has them,
# interleaved REPS times (default 3), medians; then one 1 000-matmul capture with -t cuda,cublas
# and its cublas_api_sum / cuda_gpu_kern_sum (call counts next to kernels).
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_nsys; need_torch
REPS=${REPS:-3}
run() {  # label, then the command prefix (env for none)
  local label=$1; shift
  local line
  line=$(timeout 90 "$@" python3 "$TORCH_LOOP" 20000 2>>"$LOGS/opt_stderr.log" | grep -o 'us_per_op=[0-9.]*')
  echo "$label $line" >> "$LOGS/options.log"
}
for rep in $(seq "$REPS"); do
  for op in add matmul; do
    [ "$(left)" -gt 120 ] || { echo "options: out of time at rep $rep"; break 2; }
    export OP=$op
    run "$op none" env
    run "$op gsys_cuda" "$GSYS" profile -t cuda -f true -o "$W/g1"
    run "$op gsys_cublas_cudnn" "$GSYS" profile -t cuda,cublas,cudnn -f true -o "$W/g2"
    run "$op gsys_backtrace" "$GSYS" profile -t cuda --backtrace=cuda --python-backtrace=cuda -f true -o "$W/g3"
    run "$op gsys_metrics" "$GSYS" profile -t cuda --gpu-metrics-devices=all -f true -o "$W/g4"
    run "$op nsys_cuda" env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/n1"
    run "$op nsys_cublas_cudnn" env "$NSYS_ENV" "$NSYS" profile -t cuda,cublas,cudnn -f true -o "$W/n2"
    run "$op nsys_backtrace" env "$NSYS_ENV" "$NSYS" profile -t cuda --cudabacktrace=all --python-backtrace=cuda -f true -o "$W/n3"
  done
done
unset OP
python3 "$ROOT/bench/option_medians.py" "$LOGS/options.log" 2>&1
rc=$?
# One matmul capture with cuBLAS trace: call counts next to kernels.
OP=matmul timeout 60 "$GSYS" profile -t cuda,cublas -f true -o "$W/mm" python3 "$TORCH_LOOP" 1000 > "$LOGS/mm_profile.log" 2>&1
"$GSYS" stats -r cublas_api_sum,cuda_gpu_kern_sum "$W/mm.gsys-rep" > "$LOGS/mm_stats.log" 2>&1
echo "[$(el)s] matmul -t cublas stats:"; head -40 "$LOGS/mm_stats.log"
exit $rc
