#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Kineto trace import (issue 22 item 1): `gsys import TRACE` wall time, events/s and peak RSS
# (/usr/bin/time -v), against Holistic Trace Analysis loading the same trace
# (`TraceAnalysis(trace_dir=...)`, HTA from ../shared/tools/hta; that part is skipped, with a line,
# when HTA or its Python is missing). Goal: gsys >= 10x faster than HTA's load, peak RSS <= the
# uncompressed JSON's size.
#   bash bench/kineto/import_bench.sh GSYS [TRACE] [REPEATS]
# Default TRACE: the largest trace of ../shared/fixtures/kineto. Prints one line per run and a
# summary; the best (shortest) run of each side is compared.
set -euo pipefail
cd "$(dirname "$0")/../.."
GSYS=${1:?usage: import_bench.sh GSYS [TRACE] [REPEATS]}
TRACE=${2:-}
REPEATS=${3:-3}
HTA_DIR=${HTA_DIR:-../shared/tools/hta}
PY=${PYTHON:-/usr/bin/python3}
if [ -z "$TRACE" ]; then
  [ -d ../shared/fixtures/kineto ] || {
    echo "import_bench: no TRACE and no ../shared/fixtures/kineto"
    exit 2
  }
  TRACE=$(find ../shared/fixtures/kineto -name '*.json*' -type f -printf '%s %p\n' | sort -n |
          tail -1 | cut -d' ' -f2)
fi
[ -x /usr/bin/time ] || { echo "import_bench: /usr/bin/time (GNU time) is needed"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
case "$TRACE" in
  *.gz) json_bytes=$(gzip -dc "$TRACE" | wc -c) ;;
  *) json_bytes=$(wc -c <"$TRACE") ;;
esac
echo "trace: $TRACE ($(wc -c <"$TRACE") bytes, $json_bytes bytes of JSON)"

# "wall_s max_rss_kb" of a /usr/bin/time -v log.
measure() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
                for (i = 1; i <= n; i++) s = s * 60 + t[i]; wall = s}
              /Maximum resident set size/ {rss = $2}
              END {printf "%.3f %d\n", wall, rss}' "$1"
}

best_g="" best_g_rss=0 events=0
for i in $(seq "$REPEATS"); do
  /usr/bin/time -v "$GSYS" import -f true -o "$tmp/t.gsys-rep" "$TRACE" 2>"$tmp/g.log" >/dev/null
  read -r wall rss < <(measure "$tmp/g.log")
  events=$(sed -n 's/.*; \([0-9,]*\) events in .*/\1/p' "$tmp/g.log" | tr -d ,)
  echo "gsys import run $i: ${wall} s, max RSS ${rss} KiB, $events events"
  if [ -z "$best_g" ] || awk -v a="$wall" -v b="$best_g" 'BEGIN {exit !(a < b)}'; then
    best_g=$wall best_g_rss=$rss
  fi
done
awk -v w="$best_g" -v e="$events" -v r="$best_g_rss" -v j="$json_bytes" 'BEGIN {
  printf "gsys: best %.3f s, %.0f events/s, max RSS %.1f MiB = %.2f x the JSON size\n",
         w, e / (w > 0 ? w : 1e-9), r / 1024, r * 1024 / j}'

if ! PYTHONPATH="$HTA_DIR" "$PY" -c 'import hta.trace_analysis' 2>/dev/null; then
  echo "hta: skipped: HTA ($HTA_DIR) or pandas not importable with $PY"
  exit 0
fi
mkdir "$tmp/hta"
ln -s "$(realpath "$TRACE")" "$tmp/hta/$(basename "$TRACE")"
best_h="" best_h_rss=0
for i in $(seq "$REPEATS"); do
  /usr/bin/time -v env PYTHONPATH="$HTA_DIR" "$PY" -c '
import sys
from hta.trace_analysis import TraceAnalysis
TraceAnalysis(trace_dir=sys.argv[1])' "$tmp/hta" >/dev/null 2>"$tmp/h.log" || {
    echo "hta: failed: $(grep -v '^\s' "$tmp/h.log" | tail -1)"; exit 1; }
  read -r wall rss < <(measure "$tmp/h.log")
  echo "hta TraceAnalysis run $i: ${wall} s, max RSS ${rss} KiB"
  if [ -z "$best_h" ] || awk -v a="$wall" -v b="$best_h" 'BEGIN {exit !(a < b)}'; then
    best_h=$wall best_h_rss=$rss
  fi
done
awk -v g="$best_g" -v h="$best_h" -v gr="$best_g_rss" -v hr="$best_h_rss" 'BEGIN {
  printf "hta: best %.3f s, max RSS %.1f MiB\n", h, hr / 1024
  printf "gsys is %.1fx faster than HTA'"'"'s load (goal >= 10x), %.1fx less memory\n",
         h / (g > 0 ? g : 1e-9), hr / (gr > 0 ? gr : 1)}'
