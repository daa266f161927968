#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase stats-speed (issue 2 item 5, from bench/gpu_session.sh (e)): gsys stats on synthetic
# reports made here by gsys_gen_report (seed 1), on this idle host pinned to 2 cores like the dev
# VM, 3 runs each under /usr/bin/time. Goals: (a) -r cuda_gpu_kern_sum,cuda_api_sum on 750 k
# kernels + 750 k launches <= 0.3 s (nsys 2025.3.1: 2.35 s); (b) the default set on 10 M kernels
# + 10.2 M API + 2 M NVTX <= 5 s. bench/stats_bench.sh is the same measurement for the dev VM.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
GEN=$B/bin/gsys_gen_report
need_gsys; need_file "$GEN" "a build with GSYS_BUILD_BENCH=ON"; need_file /usr/bin/time
S=$LOGS/stats_speed.txt
timeout 60 "$GEN" --kernels 750000 --api 750000 --osrt 0 -o "$W/a.sqlite" > /dev/null 2>&1 ||
  fail "gsys_gen_report failed on report (a)"
for _ in 1 2 3; do
  /usr/bin/time -f "stats_a wall %e cpu %U+%S rss %M" taskset -c 0,1 "$GSYS" stats -q -f csv \
    -r cuda_gpu_kern_sum,cuda_api_sum "$W/a.sqlite" > /dev/null 2>> "$S"
done
if [ "$(left)" -gt 90 ]; then
  timeout 90 "$GEN" --kernels 10000000 --api 10200000 --nvtx 2000000 -o "$W/b.sqlite" \
    > /dev/null 2>&1 ||
    fail "gsys_gen_report failed on report (b)"
  for _ in 1 2 3; do
    [ "$(left)" -gt 20 ] || break
    /usr/bin/time -f "stats_b_default wall %e cpu %U+%S rss %M" taskset -c 0,1 "$GSYS" stats -q \
      -f csv "$W/b.sqlite" > /dev/null 2>> "$S"
  done
else
  echo "stats-speed: no time left for report (b)"
fi
need_figures "$S"
cat "$S"
