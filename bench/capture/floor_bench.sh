#!/usr/bin/env bash
# Where the per-call cost of gsys's capture goes on this machine (issue 3 benchmarks):
# bare single-threaded, bare with an idle second thread (as under gsys, which adds its writer
# thread), the minimal LD_PRELOAD wrapper of floor_preload.c, and gsys -t nvtx,osrt.
# usage: bench/capture/floor_bench.sh BUILD_DIR [ROUNDS]   (prints one line per config)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "$1" && pwd)
rounds=${2:-3}
out=$build/bench-capture
mkdir -p "$out"
g++ -O2 -std=c++20 -I"${CUDA_HOME:-/usr/local/cuda}/include" "$here/capture_bench.cc" \
    -o "$out/capture_bench" -ldl -lpthread
gcc -O2 -shared -fPIC "$here/floor_preload.c" -o "$out/floor_preload.so" -ldl
N=${N:-2000000}
cd "$out"
for r in $(seq "$rounds"); do
  for mode in tsc nvtx mutex read; do
    echo "round=$r $mode bare:        $("$out/capture_bench" $mode $N)"
    echo "round=$r $mode idle-thread: $(BENCH_IDLE_THREAD=1 "$out/capture_bench" $mode $N)"
    if [ "$mode" = mutex ] || [ "$mode" = read ]; then
      echo "round=$r $mode floor:       $(LD_PRELOAD=$out/floor_preload.so BENCH_IDLE_THREAD=1 "$out/capture_bench" $mode $N)"
    fi
    if [ "$mode" != tsc ]; then
      echo "round=$r $mode gsys:        $(GSYS_BUFFER_BYTES=8388608 "$build/bin/gsys" profile -f true \
            -t nvtx,osrt -o "$out/floor_$mode" "$out/capture_bench" $mode $N 2>/dev/null)"
    fi
  done
done
