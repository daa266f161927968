#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase ddp (issue 9, from bench/gpu_call2.sh step 2; needs 2 GPUs, skipped on one):
# bench/ddp/run_ddp.sh, a DDP loop under torchrun with no tool and under gsys (one report per
# rank, and one for the tree), nsys per rank for counts, then stats, recipes and a merged
# Perfetto export of the two ranks; REPS interleaved repetitions (default 2). The per-rank
# reports come back as OUTDIR/ddp-reports.tgz when under 15 MB.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gpus 2
need_gsys; need_nsys; need_torch
command -v torchrun > /dev/null || fail "missing torchrun"
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
D=$W/ddp
GSYS=$GSYS NSYS=$NSYS timeout $(( PHASE_LIMIT_S - 20 )) \
  bash "$ROOT/bench/ddp/run_ddp.sh" "$D" "${REPS:-2}" > "$LOGS/ddp_stdout.log" 2>&1
rc=$?
cp "$D/ddp.log" "$LOGS/" 2>/dev/null; cp "$D/stderr.log" "$LOGS/ddp_stderr.log" 2>/dev/null
cp -r "$D/"recipe_* "$D/"stats_rank_* "$LOGS/" 2>/dev/null
cat "$D/ddp.log" 2>/dev/null
{ [ -s "$D/rank_0.gsys-rep" ] && [ -s "$D/rank_1.gsys-rep" ]; } ||
  fail "no per-rank reports (see ddp_stdout.log)"
T=$BACK/ddp-reports.tgz
(cd "$D" && tar -czf "$T" rank_0.gsys-rep rank_1.gsys-rep tree.gsys-rep 2>/dev/null)
if [ "$(stat -c %s "$T" 2>/dev/null || echo 0)" -gt 15000000 ]; then rm -f "$T"; fi
exit $rc
