#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# NVTX drops at paced rates with default settings (issue 20 item 2; goal: 0 drops up to 1 M
# pairs/s on one thread and 8 threads x 250 k/s):
#   bash bench/nvtx/rate_bench.sh GSYS OUTDIR [SECONDS]
# For each (threads, pairs/s per thread) it runs bench/nvtx/nvtx_rate under
# `gsys profile -t nvtx` (no GSYS_* tuning) and prints the pairs emitted, the NVTX rows in the
# report, dropped_records from GSYS_DIAGNOSTICS and the process's peak RSS. CONFIGS overrides
# the list ("THREADS:RATE ...").
set -u
GSYS=$(realpath "$1")
OUT=$(mkdir -p "$2" && cd "$2" && pwd)
SECONDS_PER_RUN=${3:-2}
here=$(cd "$(dirname "$0")" && pwd)
g++ -O2 -std=c++20 -I"${CUDA_HOME:-/usr/local/cuda}/include" "$here/nvtx_rate.cc" \
    -o "$OUT/nvtx_rate" -ldl -lpthread || { echo "rate_bench: build failed"; exit 1; }
CONFIGS=${CONFIGS:-"1:200000 1:1000000 1:5000000 8:200000 8:250000 8:1000000"}
count() {  # REPORT -> "rows drops"
  python3 - "$1" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("SELECT count(*) FROM NVTX_EVENTS WHERE eventType = 59").fetchone()[0]
d = db.execute("SELECT coalesce(sum(value), 0) FROM GSYS_DIAGNOSTICS "
               "WHERE name = 'dropped_records'").fetchone()[0]
print(rows, d)
PY
}
printf '%-8s %-10s %-10s %-10s %-10s %-8s %s\n' threads rate/thread emitted rows dropped rss_kb achieved
for c in $CONFIGS; do
  t=${c%%:*}; r=${c##*:}
  rep="$OUT/rate_${t}x$r"
  line=$(/usr/bin/time -f 'rss_kb=%M' -o "$rep.time" "$GSYS" profile -q -t nvtx -f true \
           -o "$rep" -- "$OUT/nvtx_rate" "$t" "$r" "$SECONDS_PER_RUN" 2> "$rep.err")
  emitted=$(sed -n 's/.*pairs=\([0-9]*\).*/\1/p' <<< "$line")
  achieved=$(sed -n 's/.*achieved_per_thread=\([0-9]*\).*/\1/p' <<< "$line")
  read -r rows drops < <(count "$rep.gsys-rep" 2>/dev/null || echo "? ?")
  printf '%-8s %-10s %-10s %-10s %-10s %-8s %s\n' "$t" "$r" "${emitted:-?}" "$rows" "$drops" \
    "$(sed -n 's/rss_kb=//p' "$rep.time")" "${achieved:-?}"
done
