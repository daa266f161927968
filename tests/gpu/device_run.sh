#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One device call: the gpu ctest tier, a few probes, then the CUDA benchmarks, logs in $OUT.
# Run from the repository root with build-cuda carried.
set -u
OUT=${OUT:-/tmp/gsys-out}
mkdir -p "$OUT"
ROOT=$PWD
if [ "$ROOT" != /work/main ] && [ ! -e /work/main ]; then mkdir -p /work && ln -s "$ROOT" /work/main; fi
cd /work/main
nvidia-smi -L > "$OUT/gpu.txt" 2>&1; nvidia-smi --query-gpu=driver_version --format=csv >> "$OUT/gpu.txt" 2>&1
python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)' >> "$OUT/gpu.txt" 2>&1
(cd build-cuda && timeout 300 ctest -L gpu --output-on-failure > "$OUT/ctest_gpu.log" 2>&1; echo "ctest rc=$?" >> "$OUT/ctest_gpu.log")
grep -E "Test +#|tests passed|rc=" "$OUT/ctest_gpu.log"
# Probe: verbose init, and what driver-API records look like next to runtime ones.
P=$(mktemp -d)
GSYS_LOG=1 GSYS_SESSION_DIR=$P CUDA_INJECTION64_PATH=build-cuda/src/capture/cupti/libgsys-cuda-inject.so \
  GSYS_CUDA_KINDS=runtime,driver,kernel,memcpy,sync build-cuda/tests/gpu/progs/copies > "$OUT/probe.log" 2>&1
build-cuda/tests/gpu/gsys_cuda_report "$P" "$OUT/probe_driver.sqlite" >> "$OUT/probe.log" 2>&1
python3 - "$OUT/probe_driver.sqlite" >> "$OUT/probe.log" 2>&1 <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("""SELECT eventClass, s.value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r
  JOIN StringIds s ON s.id = r.nameId GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 40""").fetchall())
print("memcpy corr ->", db.execute("""SELECT m.copyKind, s.value FROM CUPTI_ACTIVITY_KIND_MEMCPY m
  LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = m.correlationId
  LEFT JOIN StringIds s ON s.id = r.nameId""").fetchall())
print("sync ->", db.execute("""SELECT y.syncType, s.value FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION y
  LEFT JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = y.correlationId
  LEFT JOIN StringIds s ON s.id = r.nameId""").fetchall())
PY
rm -rf "$P"
timeout 330 bench/cuda/run_bench.sh build-cuda "$OUT" 3 > "$OUT/bench.log" 2>&1
cat "$OUT/bench_summary.txt"; grep -E "^c:|us_per_launch=.*launches=1000000|M\s" "$OUT/bench_raw.log"
