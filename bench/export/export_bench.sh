#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `gsys export --type perfetto|chrome` against `gsys stats` (default set) on one synthetic report:
# wall, user, sys (s) and max RSS (KB), the median of N runs, interleaved. With BASELINE=OTHER_GSYS
# the same runs of that binary interleave with ours and both outputs must be byte-identical.
#
#   bash bench/export/export_bench.sh BUILD_DIR [KERNELS] [RUNS]
#   e.g. BASELINE=/tmp/gsys-old bash bench/export/export_bench.sh build 1000000 3
#
# TYPES="perfetto" measures one type only. Every run starts after `sync`: an output larger than
# the kernel's dirty-page limit (vm.dirty_ratio) is written at the disk's speed, and the dirty
# pages one run leaves would otherwise slow the next.
#
# Reports and outputs go to ${WORK:-/tmp/gsys-export-bench}; a report is made once per size
# (KERNELS kernels, 1.02 x KERNELS API calls, KERNELS / 5 NVTX ranges, as bench/RESULTS.md's
# 10 M report) and kept.
set -euo pipefail

build=${1:?usage: export_bench.sh BUILD_DIR [KERNELS] [RUNS]}
kernels=${2:-1000000}
runs=${3:-3}
work=${WORK:-/tmp/gsys-export-bench}
gsys=$build/bin/gsys
mkdir -p "$work"
report=$work/k$kernels.sqlite
if [[ ! -f $report ]]; then
  "$build/bin/gsys_gen_report" -q --kernels "$kernels" --api $((kernels * 102 / 100)) \
    --nvtx $((kernels / 5)) -o "$report"
fi
echo "report $report: $(du -hL "$report" | cut -f1); $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg)"

# run NAME CMD...: one timed run, appended to $work/NAME.times as "wall user sys rss".
run() {
  local name=$1
  shift
  sync
  /usr/bin/time -f '%e %U %S %M' -o "$work/time.tmp" "$@" >/dev/null 2>&1
  cat "$work/time.tmp" >>"$work/$name.times"
}

median() {  # column $2 of file $1
  sort -g -k"$2","$2" "$1" | awk -v c="$2" '{v[NR]=$c} END {print v[int((NR+1)/2)]}'
}

rm -f "$work"/*.times
for ((i = 0; i < runs; i++)); do
  for type in ${TYPES:-perfetto chrome}; do
    for who in new ${BASELINE:+old}; do
      bin=$gsys
      [[ $who == old ]] && bin=$BASELINE
      rm -f "$work/$who.$type"
      run "$who-$type" "$bin" export --type "$type" -f true -o "$work/$who.$type" "$report"
    done
    if [[ -n ${BASELINE:-} ]] && ! cmp -s "$work/new.$type" "$work/old.$type"; then
      echo "export_bench: $type output differs from the baseline's" >&2
      exit 1
    fi
  done
  run stats "$gsys" stats -q -f csv -o "$work/s" --force-overwrite true "$report"
done

printf '%-14s %8s %8s %8s %10s %12s\n' what wall user sys rss_KB output_B
for f in "$work"/*.times; do
  name=$(basename "$f" .times)
  out=$work/${name/-/.}
  size=$([[ -f $out ]] && stat -c %s "$out" || echo -)
  printf '%-14s %8s %8s %8s %10s %12s\n' "$name" "$(median "$f" 1)" "$(median "$f" 2)" \
    "$(median "$f" 3)" "$(median "$f" 4)" "$size"
done
rm -f "$work"/new.* "$work"/old.*
