#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase sampling-cost (issue 10 item 4, was bench/gpu_sampling_cost.sh): CPU sampling methods
# measured on a quiet machine (the H200 host; no GPU is used): what one sample costs the sampled
# thread and the sampler thread, per method (bench/cpu_sampling_cost.py), and whether the
# kernel's frame-pointer callchain would have been right (bench/perf_sample_probe.c). The 2-core
# dev VM is too loaded for these (its CPU clocks vary up to 2x for the same work).
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_file "$B/tests/stacks/gsys_stack_prog"
command -v cc > /dev/null || fail "missing cc (perf_sample_probe.c is compiled here)"
D=$LOGS/sampling.txt
{ echo "host: $(nproc) cpus, $(uname -r)," \
    "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid)"
  (cd "$B" && timeout 120 ctest -R 'stacks\.sampling' 2>&1 | grep -E 'Test +#|tests passed')
  for t in sampling_perf sampling_timer; do
    timeout 60 python3 tests/stacks/test_stacks.py --gsys "$GSYS" \
      --prog "$B/tests/stacks/gsys_stack_prog" $t 2>&1 | tail -1
  done
  cc -O2 -fomit-frame-pointer -rdynamic bench/perf_sample_probe.c -o "$W/probe" -ldl
  cc -O2 -fno-omit-frame-pointer -rdynamic bench/perf_sample_probe.c -o "$W/probe_fp" -ldl
  for hz in 1000 8000; do
    for i in 1 2 3; do
      echo "probe (no frame pointers) 2000M steps $hz Hz, run $i"; "$W/probe" 2000 $hz
    done
    echo "probe (frame pointers) $hz Hz"; "$W/probe_fp" 2000 $hz | tail -1
    [ "$(left)" -gt 60 ] || { echo "sampling-cost: out of time at $hz Hz"; break; }
    timeout $(( $(left) - 20 )) python3 bench/cpu_sampling_cost.py --gsys "$GSYS" \
      --prog "$B/tests/stacks/gsys_stack_prog" --work 2000 --reps "${REPS:-9}" --hz $hz
  done
} > "$D" 2>&1
tail -n 30 "$D"
grep -qE '^(perf|timer) +[1-9]' "$D" ||
  { echo "sampling-cost: cpu_sampling_cost.py gave no figure"; exit 4; }
