#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Issue 9 on a 2-GPU machine: a DDP loop (ddp_train.py) under torchrun, with no tool and under
# gsys, interleaved; one report per rank (gsys inside torchrun), one report for the tree (gsys
# around torchrun), nsys per rank for counts; then stats/recipes/export on the per-rank reports.
# usage (repository root, build carried as build-gpu): bash bench/ddp/run_ddp.sh OUTDIR [REPS]
# (bench/device_session.sh OUT ddp runs it with GSYS set to its carried build's gsys).
set -u
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
REPS=${2:-3}
ROOT=$PWD
GSYS=${GSYS:-$ROOT/build-gpu/bin/gsys}
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NSYS_LIBS=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu
TRAIN=$ROOT/bench/ddp/ddp_train.py
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export OMP_NUM_THREADS=4 PYTHONUNBUFFERED=1
LOG=$OUT/ddp.log
# The GPU machine has no sqlite3 shell: one query through Python.
sq() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])' "$1" "$2" 2>&1; }
log() { echo "[$(date +%T)] $*" | tee -a "$LOG"; }
log "gpus: $(python3 -c 'import torch; print(torch.cuda.device_count())' 2>&1)"
TR="torchrun --standalone --nproc_per_node=2"
for rep in $(seq "$REPS"); do
  log "rep $rep none: $($TR "$TRAIN" 2>>"$OUT/stderr.log" | grep step_ms | sort | tr '\n' ' ')"
  log "rep $rep gsys: $($TR --no-python "$GSYS" profile -t cuda,nvtx,osrt --pytorch=autograd-nvtx -f true \
      -o "$OUT/rank_%q{RANK}" python3 "$TRAIN" 2>>"$OUT/stderr.log" | grep step_ms | sort | tr '\n' ' ')"
done
log "tree form: $("$GSYS" profile -t cuda,nvtx,osrt --pytorch=autograd-nvtx -f true -o "$OUT/tree" \
    $TR "$TRAIN" 2>>"$OUT/stderr.log" | grep -E 'step_ms|gsys' | sort | tr '\n' ' ')"
log "nsys per rank: $($TR --no-python env LD_LIBRARY_PATH=$NSYS_LIBS "$NSYS" profile -t cuda,nvtx,osrt \
    --pytorch=autograd-nvtx -f true -o "$OUT/nsys_rank_%q{RANK}" --export sqlite python3 "$TRAIN" \
    2>>"$OUT/stderr.log" | grep step_ms | sort | tr '\n' ' ')"
ls -la "$OUT" >> "$LOG"
for r in 0 1; do
  for f in "$OUT/rank_$r.gsys-rep" "$OUT/nsys_rank_$r.sqlite"; do
    [ -s "$f" ] || { log "missing $f"; continue; }
    log "$(basename "$f"): kernels $(sq "$f" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL') nccl_kernels $(sq "$f" "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.shortName WHERE s.value LIKE 'nccl%'") nvtx_NCCL $(sq "$f" "SELECT count(*) FROM NVTX_EVENTS e WHERE e.eventType != 75 AND e.domainId IN (SELECT domainId FROM NVTX_EVENTS WHERE eventType = 75 AND text = 'NCCL')") train_step $(sq "$f" "SELECT count(*) FROM NVTX_EVENTS WHERE text = 'train_step'") pids $(sq "$f" 'SELECT count(DISTINCT globalPid) FROM CUPTI_ACTIVITY_KIND_KERNEL')"
  done
done
[ -s "$OUT/tree.gsys-rep" ] && log "tree.gsys-rep: pids with kernels $(sq "$OUT/tree.gsys-rep" 'SELECT count(DISTINCT globalPid) FROM CUPTI_ACTIVITY_KIND_KERNEL') kernels $(sq "$OUT/tree.gsys-rep" 'SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL')"
# Recipes (when the verb exists in this build).
if "$GSYS" recipe --help >/dev/null 2>&1; then
  for r in nccl_sum nccl_gpu_overlap_trace nccl_gpu_time_util_map cuda_gpu_time_util_map cuda_gpu_kern_sum; do
    "$GSYS" recipe $r --input "$OUT/rank_0.gsys-rep" --input "$OUT/rank_1.gsys-rep" --output "$OUT/recipe_$r" --force-overwrite \
      > "$OUT/recipe_$r.log" 2>&1; log "recipe $r rc=$?"
  done
  "$GSYS" recipe nvtx_pace --name train_step --input "$OUT/rank_0.gsys-rep" --input "$OUT/rank_1.gsys-rep" \
    --output "$OUT/recipe_nvtx_pace" --force-overwrite > "$OUT/recipe_nvtx_pace.log" 2>&1; log "recipe nvtx_pace rc=$?"
fi
for r in 0 1; do
  "$GSYS" stats -r nvtx_sum,cuda_gpu_kern_sum -f csv -o "$OUT/stats_rank_$r" "$OUT/rank_$r.gsys-rep" >/dev/null 2>&1
  "$GSYS" export --type perfetto -f -o "$OUT/rank_$r.pftrace" "$OUT/rank_$r.gsys-rep" >/dev/null 2>&1; log "export rank $r rc=$?"
done
"$GSYS" export --type perfetto -f -o "$OUT/ranks_merged.pftrace" "$OUT/rank_0.gsys-rep" "$OUT/rank_1.gsys-rep" \
  > "$OUT/export_merged.log" 2>&1; log "merged export rc=$? $(cat "$OUT/export_merged.log")"
# Session starts of the two ranks (the merged trace shifts rank 1 by their difference).
for r in 0 1; do log "rank $r session start utc ns: $(sq "$OUT/rank_$r.gsys-rep" 'SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME')"; done
for r in 0 1; do log "rank $r stats kern: $(head -4 "$OUT/stats_rank_${r}_cuda_gpu_kern_sum.csv" 2>/dev/null | tr '\n' '|')"; done
for r in nccl_sum nccl_gpu_overlap_trace nvtx_pace cuda_gpu_time_util_map; do log "recipe $r: $(tail -4 "$OUT/recipe_$r.log" | tr '\n' '|')"; done

