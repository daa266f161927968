#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase overhead (issues 4 and 20, from bench/gpu_session.sh (d) and bench/gpu_call2.sh step 4):
# 200 000 empty-kernel launches (bench/cuda/launch_loop) and the PyTorch x.add_(1) loop
# (bench/cuda/torch_loop.py 30000) with no tool, a bare CUPTI injection, gsys profile -t cuda and
# nsys 2025.3.1 -t cuda, interleaved REPS times (default 5), medians and per-repetition pairs.
# Goal (issue 20): gsys's added time <= bare CUPTI's + 10 % on both loops, and <= nsys's in at
# least 4 of 5 pairs. TOOLS="none bare gsys nsys" picks the tools, BARE_CUPTI_KINDS the bare
# injection's kinds (default kernel,runtime: bench/cuda/bare_cupti_inject.cc).
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
REPS=${REPS:-5}
TOOLS=${TOOLS:-none bare gsys nsys}
BARE=$B/bench-cuda/libbare-cupti-inject.so
need_gsys; need_file "$LAUNCH_LOOP" "bench/cuda, built with nvcc"; need_torch
case " $TOOLS " in *" nsys "*) need_nsys ;; esac
case " $TOOLS " in *" bare "*) need_file "$BARE" "bench/cuda, built with nvcc" ;; esac
RAW=$LOGS/overhead_raw.log
: > "$RAW"
one() {  # loop, tool, command...
  local loop=$1 tool=$2; shift 2
  local line
  case $tool in
    none) line=$(timeout 60 "$@" 2>> "$LOGS/overhead_stderr.log") ;;
    bare) line=$(CUDA_INJECTION64_PATH=$BARE BARE_CUPTI_KINDS=${BARE_CUPTI_KINDS:-kernel,runtime} \
                 timeout 60 "$@" 2>> "$LOGS/overhead_stderr.log") ;;
    gsys) line=$(timeout 60 "$GSYS" profile -t cuda -f true -o "$W/ovh_gsys" "$@" \
                 2>> "$LOGS/overhead_stderr.log") ;;
    nsys) line=$(timeout 90 env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/ovh_nsys" "$@" \
                 2>> "$LOGS/overhead_stderr.log") ;;
  esac
  echo "$loop $tool $(grep -oE 'us_per_(launch|op)=[0-9.]+' <<< "$line" | tail -1)" >> "$RAW"
}
for loop in launch torch; do
  for rep in $(seq "$REPS"); do
    for tool in $TOOLS; do
      [ "$(left)" -gt 40 ] || { echo "overhead: out of time at $loop rep $rep"; break 3; }
      if [ $loop = launch ]; then one launch "$tool" "$LAUNCH_LOOP" 200000
      else one torch "$tool" python3 "$TORCH_LOOP" 30000; fi
    done
  done
done
python3 "$ROOT/bench/option_medians.py" --pair gsys:nsys --pair gsys:bare "$RAW" 2>&1 |
  tee "$LOGS/overhead_summary.txt"
exit "${PIPESTATUS[0]}"
