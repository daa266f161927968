#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# CPU sampling methods (issue 10 item 4) measured on a quiet machine (the H200 host; no GPU is
# used): what one sample costs the sampled thread and the sampler thread, per method, and
# whether the kernel's frame-pointer callchain would have been right. The 2-core dev VM is too
# loaded for these (its CPU clocks vary up to 2x for the same work).
#   bash bench/gpu_sampling_cost.sh OUTDIR        (from the repository root; a carried Release
#                                                  build in $BUILD, default build-gpu)
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
ROOT=$PWD
B=$ROOT/${BUILD:-build-gpu}
source "$ROOT/bench/gpu_link_source.sh"
link_build_source "$B"
D=$OUTDIR/digest.txt
{ echo "host: $(nproc) cpus, $(uname -r), perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
  (cd "$B" && timeout 120 ctest -R 'stacks\.sampling' 2>&1 | grep -E 'Test +#|tests passed')
  for t in sampling_perf sampling_timer; do
    timeout 60 python3 tests/stacks/test_stacks.py --gsys "$B/bin/gsys" \
      --prog "$B/tests/stacks/gsys_stack_prog" $t 2>&1 | tail -1
  done
  cc -O2 -fomit-frame-pointer -rdynamic bench/perf_sample_probe.c -o "$OUTDIR/probe" -ldl
  cc -O2 -fno-omit-frame-pointer -rdynamic bench/perf_sample_probe.c -o "$OUTDIR/probe_fp" -ldl
  for hz in 1000 8000; do
    for i in 1 2 3; do
      echo "probe (no frame pointers) 2000M steps $hz Hz, run $i"; "$OUTDIR/probe" 2000 $hz
    done
    echo "probe (frame pointers) $hz Hz"; "$OUTDIR/probe_fp" 2000 $hz | tail -1
    timeout 200 python3 bench/cpu_sampling_cost.py --gsys "$B/bin/gsys" \
      --prog "$B/tests/stacks/gsys_stack_prog" --work 2000 --reps 9 --hz $hz
  done
} 2>&1 | tee "$D"
