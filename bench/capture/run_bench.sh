#!/usr/bin/env bash
# Capture benchmarks (issue 3). usage: bench/capture/run_bench.sh [BUILD_DIR]
# BUILD_DIR holds bin/gsys and lib/libgsys-inject.so (a Release/RelWithDebInfo build).
# Builds the bench programs with g++ into BUILD_DIR/bench-capture, then prints:
#   per-op cost bare vs under gsys (NVTX push+pop, mutex lock+unlock, 1-byte /dev/zero read),
#   import throughput for 10 M NVTX events, report bytes per event, capture memory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
out=$build/bench-capture
mkdir -p "$out"
nvtx_inc=${CUDA_HOME:-/usr/local/cuda}/include
g++ -O2 -std=c++20 -I"$nvtx_inc" "$here/capture_bench.cc" -o "$out/capture_bench" -ldl -lpthread
g++ -O2 -std=c++20 -I"$root/src" "$here/raw_gen.cc" "$root/src/format/chunk.cc" \
    "$root/src/format/crc32c.cc" -o "$out/raw_gen"
gsys=$build/bin/gsys
cd "$out"
N=${N:-2000000}
for mode in nvtx mutex read; do
  bare=$("$out/capture_bench" $mode $N)
  traced=$(GSYS_BUFFER_BYTES=${GSYS_BUFFER_BYTES:-8388608} "$gsys" profile -f true -t nvtx,osrt \
           -o "$out/bench_$mode" "$out/capture_bench" $mode $N 2>/dev/null)
  drops=$(sqlite3 "$out/bench_$mode.gsys-rep" \
          "SELECT coalesce(sum(value),0) FROM GSYS_DIAGNOSTICS WHERE name='dropped_records'")
  echo "$mode bare:   $bare"
  echo "$mode gsys:   $traced dropped_records=$drops"
done
EVENTS=${EVENTS:-10000000}
rm -rf "$out/raw_session" "$out/raw.gsys-rep"
"$out/raw_gen" "$out/raw_session" "$EVENTS"
raw_bytes=$(du -b "$out/raw_session/1000-1.gsysraw" | cut -f1)
start=$(date +%s.%N)
"$gsys" import -q "$out/raw_session" -o "$out/raw.gsys-rep"
end=$(date +%s.%N)
rows=$(sqlite3 "$out/raw.gsys-rep" "SELECT count(*) FROM NVTX_EVENTS")
rep_bytes=$(du -b "$out/raw.gsys-rep" | cut -f1)
python3 - "$start" "$end" "$rows" "$raw_bytes" "$rep_bytes" <<'PY'
import sys
s, e, rows, raw, rep = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
print(f"import: {rows} NVTX events in {e-s:.2f} s = {rows/(e-s)/1e6:.2f} M events/s; "
      f"raw {raw/rows:.1f} B/event, report {rep/rows:.1f} B/event")
PY
