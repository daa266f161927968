#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Times `stats -r nvtx_kern_sum` and `nvtx_gpu_proj_sum` on deep-nesting reports (see
# deep_nesting_report.py) with gsys and, where NSYS is set, nsys:
#   bash bench/nvtx/deep_nesting.sh GSYS OUTDIR [D_L ...]     (default sizes: 1000 5000)
# Each run is bounded by LIMIT seconds (default 200). Results (tool, report, size, seconds,
# peak KB) go to OUTDIR/times.txt; bench/RESULTS.md "Seventh session" has the H200 figures.
set -u
GSYS=$1; OUT=$(mkdir -p "$2" && cd "$2" && pwd); shift 2
SIZES=${*:-1000 5000}
HERE=$(cd "$(dirname "$0")" && pwd)
xz -dc "$HERE/../../tests/parity/corpus/nvtx_shapes/gsys.gsys-rep.xz" > "$OUT/base.gsys-rep"
for n in $SIZES; do
  python3 "$HERE/deep_nesting_report.py" "$n" "$n" "$OUT/deep$n.sqlite" "$OUT/base.gsys-rep"
  for rep in nvtx_kern_sum nvtx_gpu_proj_sum; do
    for tool in gsys ${NSYS:+nsys}; do
      bin=$GSYS; [ "$tool" = nsys ] && bin=$NSYS
      /usr/bin/time -f "$tool $rep D=L=$n %e s %M KB" timeout "${LIMIT:-200}" "$bin" stats -q \
        -r "$rep" -f csv -o "$OUT/o_$tool$n" --force-overwrite true "$OUT/deep$n.sqlite" \
        > /dev/null 2>> "$OUT/times.txt" || echo "$tool $rep D=L=$n: exit $? (timeout: 124)" >> "$OUT/times.txt"
    done
  done
done
cat "$OUT/times.txt"
