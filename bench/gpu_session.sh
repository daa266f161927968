#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One GPU-machine session for issue 4 (CUDA capture through `gsys profile`), everything under
# OUTDIR, under 7 minutes. Run from the repository root with build-gpu and third_party_dl
# carried:   bash bench/gpu_session.sh OUTDIR
# (a) ctest -L gpu in build-gpu;
# (b) the same programs (tests/gpu kernels_streams and copies, a small-op torch loop) under
#     nsys -t cuda (+ sqlite export) and gsys profile -t cuda;
# (c) nsys stats vs gsys stats on nsys's export (must be byte-identical), and per-name
#     kernel/memcpy/memset/API counts of the nsys export vs the gsys report;
# (d) overhead: 200k empty launches and the torch loop, none/gsys/nsys interleaved x3, medians.
# The device tool returns at most 8 files: reports stay in a temp dir, the small logs are packed
# into OUTDIR/logs.tgz, and a digest (failed tests, diff heads, medians) goes to stdout.
set -u
OUT=$(mkdir -p "$1" && cd "$1" && pwd)/logs
mkdir -p "$OUT"
T0=$(date +%s)
left() { echo $((${PLAN_S:-470} - ($(date +%s) - T0))); }  # seconds left of the 470 s plan
ROOT=$PWD
# ctest files hold absolute paths of the build machine's checkout.
source "$ROOT/bench/gpu_link_source.sh"
link_build_source "$ROOT/build-gpu"
B=$ROOT/build-gpu
GSYS=$B/bin/gsys
NSYS=/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys
NSYS_LIBS=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu
NSYS_ENV="LD_LIBRARY_PATH=$NSYS_LIBS${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"  # nsys's importer needs libdw/libelf
PROGS=$B/tests/gpu/progs
LOOP=$B/bench-cuda/launch_loop
TORCH_LOOP=$ROOT/bench/cuda/torch_loop.py
W=$(mktemp -d)
log() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$OUT/session.log"; }

{
  nvidia-smi -L; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
  env "$NSYS_ENV" "$NSYS" --version; git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || true
} > "$OUT/machine.txt" 2>&1
log "machine: $(head -2 "$OUT/machine.txt" | tr '\n' ' ')"

# (a) GPU tests.
(cd "$B" && timeout 170 ctest -L gpu --output-on-failure > "$OUT/ctest_gpu.log" 2>&1; echo "ctest rc=$?" >> "$OUT/ctest_gpu.log")
log "(a) $(grep -E 'tests passed|rc=' "$OUT/ctest_gpu.log" | tr '\n' ' ')"

# (b) the same programs under nsys and gsys.
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
  log "(b) $name: nsys sqlite $(test -s "$W/nsys_$name.sqlite" && echo ok || echo MISSING), gsys $(grep -h 'CUDA:\|generated' "$OUT/gsys_profile_$name.log" | tr '\n' ' ')"
done

# (c) stats identity on nsys's export, and count comparison nsys export vs gsys report.
R=cuda_gpu_kern_sum,cuda_api_sum,cuda_gpu_mem_time_sum,cuda_gpu_mem_size_sum
for name in kernels_streams copies torch; do
  X=$W/nsys_$name.sqlite
  [ -s "$X" ] || continue
  # One CSV file per report from each tool (the console lines differ by design: nsys names its
  # Python scripts, gsys its reports), compared byte for byte.
  (cd "$W" && timeout 60 env "$NSYS_ENV" "$NSYS" stats -r $R -f csv -o "$W/n_$name" --force-overwrite true "$X") \
    > "$OUT/stats_nsys_$name.log" 2>&1
  (cd "$W" && timeout 60 "$GSYS" stats -r $R -f csv -o "$W/g_$name" --force-overwrite true "$X") \
    > "$OUT/stats_gsys_$name.log" 2>&1
  for rep in ${R//,/ }; do
    a=$W/n_${name}_$rep.csv; b=$W/g_${name}_$rep.csv
    cp "$a" "$OUT/stats_nsys_${name}_$rep.csv" 2>/dev/null; cp "$b" "$OUT/stats_gsys_${name}_$rep.csv" 2>/dev/null
    if [ -e "$a" ] && cmp -s "$a" "$b"; then r=IDENTICAL; else r=DIFFERENT; fi
    diff "$a" "$b" > "$OUT/stats_${name}_$rep.diff" 2>&1
    log "(c) stats $name $rep: $r ($(cat "$a" 2>/dev/null | wc -l) lines)"
  done
done
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
  log "(c) counts $name: $(grep "^$name " "$OUT/counts_summary.txt" | cut -d' ' -f2,3 | tr '\n' ' ')"
done

# (d) overhead, interleaved repetitions.
: > "$OUT/overhead_raw.log"
one() {  # label, tool, command...
  local label=$1 tool=$2; shift 2
  local line
  case $tool in
    none) line=$(timeout 60 "$@" 2>> "$OUT/overhead_stderr.log" | grep -E 'us_per_(launch|op)=' | tail -1) ;;
    gsys) line=$(timeout 60 "$GSYS" profile -t cuda -f true -o "$W/ovh_gsys" "$@" 2>> "$OUT/overhead_stderr.log" | grep -E 'us_per_(launch|op)=' | tail -1) ;;
    nsys) line=$(timeout 90 env "$NSYS_ENV" "$NSYS" profile -t cuda -f true -o "$W/ovh_nsys" "$@" 2>> "$OUT/overhead_stderr.log" | grep -E 'us_per_(launch|op)=' | tail -1) ;;
  esac
  echo "$label:$tool $line" | tee -a "$OUT/overhead_raw.log"
}
for rep in 1 2 3; do
  for tool in none gsys nsys; do
    [ "$(left)" -gt 30 ] || { log "(d) out of time at launch rep $rep"; break 2; }
    one launch $tool "$LOOP" 200000
  done
done
for rep in 1 2 3; do
  for tool in none gsys nsys; do
    [ "$(left)" -gt 30 ] || { log "(d) out of time at torch rep $rep"; break 2; }
    one torch $tool python3 "$TORCH_LOOP" 30000
  done
done
python3 - "$OUT/overhead_raw.log" <<'PY' | tee "$OUT/overhead_summary.txt"
import re, statistics, sys
vals = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+):(\S+) us_per_(?:launch|op)=([\d.]+)", line)
    if m: vals.setdefault((m.group(1), m.group(2)), []).append(float(m.group(3)))
for bench in ("launch", "torch"):
    base = vals.get((bench, "none"))
    b0 = statistics.median(base) if base else None
    for tool in ("none", "gsys", "nsys"):
        v = vals.get((bench, tool))
        if not v: continue
        med = statistics.median(v)
        added = f"+{med - b0:.3f}" if b0 is not None else "?"
        print(f"{bench:7s} {tool:5s} median {med:7.3f} us  added {added:>7s}  runs {' '.join(f'{x:.3f}' for x in v)}")
PY
# (e) gsys stats speed on synthetic reports (idle machine, pinned to 2 cores like the dev box).
GEN=$B/bin/gsys_gen_report
if [ -x "$GEN" ] && [ "$(left)" -gt 60 ]; then
  timeout 60 "$GEN" --kernels 750000 --api 750000 --osrt 0 -o "$W/a.sqlite" > /dev/null 2>&1
  for i in 1 2 3; do
    /usr/bin/time -f "stats_a wall %e cpu %U+%S rss %M" taskset -c 0,1 "$GSYS" stats -q -f csv \
      -r cuda_gpu_kern_sum,cuda_api_sum "$W/a.sqlite" > /dev/null 2>> "$OUT/stats_speed.txt"
  done
  if [ "$(left)" -gt 90 ]; then
    timeout 90 "$GEN" --kernels 10000000 --api 10200000 --nvtx 2000000 -o "$W/b.sqlite" > /dev/null 2>&1
    for i in 1 2 3; do
      [ "$(left)" -gt 20 ] || break
      /usr/bin/time -f "stats_b_default wall %e cpu %U+%S rss %M" taskset -c 0,1 "$GSYS" stats -q \
        -f csv "$W/b.sqlite" > /dev/null 2>> "$OUT/stats_speed.txt"
    done
  fi
  log "(e) $(tr '\n' ';' < "$OUT/stats_speed.txt")"
fi
log "done"
{
  echo "== failed gpu tests"; grep -E '\*\*\*Failed|\(Failed\)|FAIL' "$OUT/ctest_gpu.log" | head -20
  for f in "$OUT"/stats_*.diff "$OUT"/counts_*.diff; do echo "== $(basename "$f")"; head -12 "$f"; done
  cat "$OUT/overhead_summary.txt"; cat "$OUT/stats_speed.txt" 2>/dev/null
} | tee "$OUT/../digest.txt"
tar -C "$OUT" -czf "$OUT/../logs.tgz" . && rm -rf "$OUT" "$W"
