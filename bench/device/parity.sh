#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase parity (issues 2 and 4, from bench/gpu_session.sh (b) and (c)): the same programs
# (tests/gpu kernels_streams and copies, a small-op torch loop) under nsys -t cuda (+ sqlite
# export) and gsys profile -t cuda; then nsys stats vs gsys stats on nsys's export, one CSV file
# per report compared byte for byte (goal: identical), and per-name kernel/memcpy/memset/API
# counts of the nsys export vs the gsys report (goal: GPU work equal; API rows differ as
# docs/differences-from-nsys.md says). Exit 1 when a stats file differs.
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_gsys; need_nsys; need_torch
need_file "$PROGS/kernels_streams" "a build with CUDA: tests/gpu/progs"
OUT=$LOGS
cat > "$W/torch_small.py" <<'PY'
import torch
x = torch.randn(64, 64, device="cuda"); y = torch.randn(64, 64, device="cuda")
for i in range(200):
    z = (x @ y).relu_().add_(1.0).mul(0.5).sum()
    x.copy_(y); y.fill_(float(i % 3))
torch.cuda.synchronize(); print("done", float(z))
PY
declare -A CMD=([kernels_streams]="$PROGS/kernels_streams" [copies]="$PROGS/copies"
                [torch]="python3 $W/torch_small.py")
for name in kernels_streams copies torch; do
  # shellcheck disable=SC2086
  timeout 90 env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/nsys_$name" --export sqlite ${CMD[$name]} \
    > "$OUT/nsys_profile_$name.log" 2>&1
  # shellcheck disable=SC2086
  timeout 60 "$GSYS" profile -t cuda -f true -o "$W/gsys_$name" ${CMD[$name]} > "$OUT/gsys_profile_$name.log" 2>&1
  echo "[$(el)s] $name: nsys sqlite $(test -s "$W/nsys_$name.sqlite" && echo ok || echo MISSING), gsys $(grep -h 'CUDA:\|generated' "$OUT/gsys_profile_$name.log" | tr '\n' ' ')"
done

# Stats identity on nsys's export. One CSV file per report from each tool (the console lines
# differ by design: nsys names its Python scripts, gsys its reports), compared byte for byte.
R=cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum
compared=0; different=0
for name in kernels_streams copies torch; do
  X=$W/nsys_$name.sqlite
  [ -s "$X" ] || continue
  (cd "$W" && timeout 60 env "$NSYS_ENV" "$NSYS" stats -r $R -f csv -o "$W/n_$name" --force-overwrite true "$X") \
    > "$OUT/stats_nsys_$name.log" 2>&1
  (cd "$W" && timeout 60 "$GSYS" stats -r $R -f csv -o "$W/g_$name" --force-overwrite true "$X") \
    > "$OUT/stats_gsys_$name.log" 2>&1
  for rep in ${R//,/ }; do
    a=$W/n_${name}_$rep.csv; b=$W/g_${name}_$rep.csv
    cp "$a" "$OUT/stats_nsys_${name}_$rep.csv" 2>/dev/null; cp "$b" "$OUT/stats_gsys_${name}_$rep.csv" 2>/dev/null
    if [ -e "$a" ] && cmp -s "$a" "$b"; then r=IDENTICAL; else r=DIFFERENT; different=$((different + 1)); fi
    compared=$((compared + 1))
    diff "$a" "$b" > "$OUT/stats_${name}_$rep.diff" 2>&1 || head -12 "$OUT/stats_${name}_$rep.diff"
    echo "[$(el)s] stats $name $rep: $r ($(wc -l < "$a" 2>/dev/null || echo 0) lines)"
  done
done
[ "$compared" -gt 0 ] || fail "no nsys export to compare (see nsys_profile_*.log)"

# Per-name counts, nsys export vs gsys report.
cat > "$W/counts.py" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
def q(title, sql):
    try:
        rows = db.execute(sql).fetchall()
    except sqlite3.Error as e:
        rows = [("(no table)", str(e))]
    for r in rows:
        print(title, *r, sep="\t")
q("kernel", """SELECT s.value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k
  JOIN StringIds s ON s.id = k.shortName GROUP BY 1 ORDER BY 1""")
q("memcpy", "SELECT copyKind, bytes, COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY GROUP BY 1, 2 ORDER BY 1, 2")
q("memset", "SELECT bytes, value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMSET GROUP BY 1, 2 ORDER BY 1, 2")
q("api", """SELECT s.value, COUNT(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r
  JOIN StringIds s ON s.id = r.nameId GROUP BY 1 ORDER BY 1""")
PY
for name in kernels_streams copies torch; do
  [ -s "$W/nsys_$name.sqlite" ] && python3 "$W/counts.py" "$W/nsys_$name.sqlite" > "$OUT/counts_nsys_$name.tsv"
  [ -s "$W/gsys_$name.gsys-rep" ] && python3 "$W/counts.py" "$W/gsys_$name.gsys-rep" > "$OUT/counts_gsys_$name.tsv"
  diff "$OUT/counts_nsys_$name.tsv" "$OUT/counts_gsys_$name.tsv" > "$OUT/counts_$name.diff" 2>&1
  for k in kernel memcpy memset api; do
    same=$(diff <(grep "^$k	" "$OUT/counts_nsys_$name.tsv") <(grep "^$k	" "$OUT/counts_gsys_$name.tsv") > /dev/null 2>&1 && echo same || echo differ)
    echo "$name $k $same" >> "$OUT/counts_summary.txt"
  done
  echo "[$(el)s] counts $name: $(grep "^$name " "$OUT/counts_summary.txt" | cut -d' ' -f2,3 | tr '\n' ' ')"
done
echo "stats files identical: $((compared - different)) of $compared"
[ "$different" = 0 ]
