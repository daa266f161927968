#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase metrics-export (issue 10 item 3, was bench/gpu_metrics_export.sh plus bench/gpu_call4.sh
# step 3): GPU metrics as Perfetto/Chrome counter tracks on real NVML data: a capture with
# --gpu-metrics-devices=all at 100 Hz (a PyTorch loop), exported both ways and checked sample by
# sample against GSYS_GPU_METRICS (tests/export/check_gpu_metric_tracks.py); then an nsys
# 2025.3.1 capture with --gpu-metrics-devices=all read by gsys summary and gsys export. SLICE=1
# also returns a 200 ms slice of nsys's export (how tests/fixtures/
# nsys2025.3.1-gpu-metrics-slice.sqlite was made).
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_nsys; need_torch
need_file "$ROOT/tests/export/check_gpu_metric_tracks.py"
OUTDIR=$W/metrics
mkdir -p "$OUTDIR"
CMD=(python3 "$TORCH_LOOP" 20000)
{ echo "command: ${CMD[*]}"
  timeout 180 "$GSYS" profile -f true -o "$OUTDIR/metrics" -t cuda --gpu-metrics-devices=all \
    --gpu-metrics-frequency=100 "${CMD[@]}" 2>&1 | grep -E '^gsys' | tail -4
  timeout 120 python3 "$ROOT/tests/export/check_gpu_metric_tracks.py" --gsys "$GSYS" \
    --report "$OUTDIR/metrics.gsys-rep"
  echo "check rc=$?"
  "$GSYS" export --type perfetto -f true -o "$OUTDIR/metrics.pftrace" "$OUTDIR/metrics.gsys-rep"
  "$GSYS" export --type chrome -f true -o "$OUTDIR/metrics.json" "$OUTDIR/metrics.gsys-rep"
  python3 - "$OUTDIR/metrics.gsys-rep" <<'PY'
import sqlite3, sys
for row in sqlite3.connect(sys.argv[1]).execute("""SELECT deviceId, count(*), min(smClockMHz),
    max(smClockMHz), max(gpuUtilization), max(powerMilliwatts) FROM GSYS_GPU_METRICS GROUP BY 1"""):
    print("device, samples, sm clock min/max, util max, power max:", *row)
PY
} > "$LOGS/metrics_export.log" 2>&1
grep -vE '^\s*$' "$LOGS/metrics_export.log" | tail -12
grep -q '^check rc=0' "$LOGS/metrics_export.log" || rc=1
# nsys's GPU_METRICS read by gsys.
OP=matmul timeout 90 env "$NSYS_ENV" "$NSYS" profile -t cuda --gpu-metrics-devices=all \
  --gpu-metrics-frequency=1000 -f true -o "$W/nsys_gm" python3 "$TORCH_LOOP" 3000 > "$LOGS/nsys_gm.log" 2>&1
timeout 90 env "$NSYS_ENV" "$NSYS" export -t sqlite -f true -o "$W/nsys_gm.sqlite" "$W/nsys_gm.nsys-rep" >> "$LOGS/nsys_gm.log" 2>&1
[ -s "$W/nsys_gm.sqlite" ] || fail "nsys wrote no export (see nsys_gm.log)"
echo "[$(el)s] nsys --gpu-metrics-devices export:"
python3 - "$W/nsys_gm.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT count(*), count(DISTINCT typeId), count(DISTINCT metricId) FROM GPU_METRICS").fetchone())
for row in db.execute("SELECT typeId, sourceId, typeName, metricId, metricName FROM TARGET_INFO_GPU_METRICS ORDER BY typeId, metricId LIMIT 40"):
    print(row)
PY
"$GSYS" summary -f -o "$W/nsys_gm.html" "$W/nsys_gm.sqlite" 2>&1 && grep -o 'Sampled GPU metrics' "$W/nsys_gm.html" | head -1
"$GSYS" export --type perfetto -f true -o "$W/nsys_gm.pftrace" "$W/nsys_gm.sqlite" 2>&1 && stat -c 'perfetto bytes %s' "$W/nsys_gm.pftrace"
if [ "${SLICE:-0}" = 1 ]; then
  python3 - "$W/nsys_gm.sqlite" "$BACK/nsys2025.3.1-gpu-metrics-slice.sqlite" <<'PY'
import sqlite3, sys
src, dst = sys.argv[1], sys.argv[2]
db = sqlite3.connect(dst)
db.execute("ATTACH ? AS s", (src,))
for (t,) in db.execute("SELECT name FROM s.sqlite_master WHERE type='table' AND name IN ('TARGET_INFO_GPU_METRICS','ANALYSIS_DETAILS','TARGET_INFO_GPU','TARGET_INFO_SESSION_START_TIME','META_DATA_EXPORT','StringIds')").fetchall():
    db.execute("CREATE TABLE main.%s AS SELECT * FROM s.%s" % (t, t))
db.execute("CREATE TABLE main.GPU_METRICS AS SELECT * FROM s.GPU_METRICS WHERE timestamp < (SELECT min(timestamp) FROM s.GPU_METRICS) + 200000000")
db.commit()
print("fixture rows", db.execute("SELECT count(*) FROM main.GPU_METRICS").fetchone())
PY
fi
exit "${rc:-0}"
