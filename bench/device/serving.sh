#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase serving (issue 7, from bench/gpu_call2.sh step 3): bench/serving_gpu.sh, a PyTorch HTTP
# server under gsys wrap with one capture window, driven by a load generator before, during and
# after it. Goal: no failed request, the server answers after the window, the report and its
# summaries are uploaded while it serves.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_torch
timeout $(( PHASE_LIMIT_S - 10 )) bash "$ROOT/bench/serving_gpu.sh" "$B" "$W/serving" \
  > "$LOGS/serving.log" 2>&1
rc=$?
grep -E '^(requests ok|report|kernels|CUDA API|request ranges|gsys wrap exit|uploaded)' \
  "$LOGS/serving.log"
grep -q '^requests ok' "$LOGS/serving.log" ||
  { echo "serving: no request figures (see serving.log)"; exit 4; }
exit $rc
