#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase deep-nesting (issue 17, the seventh session's H200 run): bench/nvtx/deep_nesting.sh, the
# time and peak memory of stats -r nvtx_kern_sum and nvtx_gpu_proj_sum on reports with D push/pop
# ranges nested D deep around L = D launches, gsys next to nsys 2025.3.1. SIZES (default 1000;
# 5000 takes 60-120 s per run and tool) and LIMIT (seconds per run, default 200).
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_nsys
command -v xz > /dev/null || fail "missing xz (the corpus report is xz-compressed)"
# shellcheck disable=SC2086
NSYS=$NSYS timeout $(( PHASE_LIMIT_S - 10 )) \
  bash "$ROOT/bench/nvtx/deep_nesting.sh" "$GSYS" "$W/deep" ${SIZES:-1000} > "$LOGS/deep_nesting.log" 2>&1
rc=$?
cp "$W/deep/times.txt" "$LOGS/" 2>/dev/null
need_figures "$W/deep/times.txt"
cat "$W/deep/times.txt"
exit $rc
