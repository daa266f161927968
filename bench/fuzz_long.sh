#!/usr/bin/env bash
# The long libFuzzer runs of issue 8 (docs/reliability.md, "Fuzzing"): every fuzz target at once
# on all cores of this host, each from a copy of its committed seed corpus, until SECONDS have
# passed or every target has run FUZZ_RUNS inputs (10 M).
#
#   bench/fuzz_long.sh OUT_DIR [SECONDS]      fuzz (default 540 s), write the results to OUT_DIR
#   bench/fuzz_long.sh --pack BUILD_DIR DEST  copy the fuzz binaries of a GSYS_FUZZ=ON build, the
#                                             seed corpora and this script into DEST, to carry to
#                                             another host; run there as DEST/fuzz_long.sh OUT [S]
#
# How the cores are split: first every target runs one worker for FUZZ_CALIBRATE seconds
# (default 20) to measure its executions per second on this host; then the cores are shared in
# proportion to the core-seconds each target still needs for FUZZ_RUNS (a slow, SQLite-backed
# target gets many workers, a fast parser one or two). Workers of a target share one corpus
# directory (libFuzzer reloads it every second) and each stops at its share of FUZZ_RUNS or at
# the deadline; a worker that crashes is restarted (up to 10 times) so one bug does not end the
# target's run. Executions are summed from each process's -print_final_stats.
#
# OUT_DIR receives three files (few, so they come back from a rented host): summary.md (one
# table), summary.tsv, findings.tar.gz (crash/timeout/oom inputs and the logs that found them;
# absent when there are none). Work files (corpora, logs) live in FUZZ_WORK (default: a fresh
# directory under /dev/shm when it has room, else under TMPDIR or /tmp); target scratch files too.
#
# Environment: FUZZ_BIN (fuzzer binaries; default bin/ beside this script, else build-fuzz/fuzz),
# FUZZ_CORPUS (seed corpora; default corpus/ beside this script, else fuzz/corpus), FUZZ_RUNS,
# FUZZ_JOBS (workers in all; default nproc, fewer when memory is short), FUZZ_CALIBRATE,
# FUZZ_TARGETS (names to run; default all found), FUZZ_KEEP_WORK=1 (keep FUZZ_WORK),
# FUZZ_RUNS_<target> (that target's goal instead of FUZZ_RUNS, e.g. FUZZ_RUNS_import_fuzzer=3500000
# for what an earlier run left to do).
set -uo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
all_targets="stream_decode_fuzzer import_fuzzer report_reader_fuzzer cli_args_fuzzer
             output_name_fuzzer serving_env_fuzzer s3_response_fuzzer upload_config_fuzzer"

if [ "${1:-}" = "--pack" ]; then
  build="${2:?usage: $0 --pack BUILD_DIR DEST}"
  dest="${3:?usage: $0 --pack BUILD_DIR DEST}"
  repo="$(cd "$here/.." && pwd)"
  mkdir -p "$dest/bin" "$dest/corpus"
  for t in $all_targets; do
    [ -x "$build/fuzz/$t" ] || { echo "pack: $build/fuzz/$t missing (GSYS_FUZZ=ON build?)" >&2; exit 1; }
    # Debug info out, symbol table in: ASan stacks keep function names; the unstripped binary
    # in BUILD_DIR symbolizes file:line (same build, same addresses).
    objcopy --strip-debug "$build/fuzz/$t" "$dest/bin/$t"
    rm -rf "$dest/corpus/$t"
    cp -r "$repo/fuzz/corpus/$t" "$dest/corpus/$t"
  done
  cp "$repo/bench/fuzz_long.sh" "$dest/fuzz_long.sh"
  # Shared libraries outside glibc and libstdc++ travel too (libsqlite3 when not linked in).
  for lib in $(ldd "$dest"/bin/* | awk '/=> \// {print $3}' | sort -u); do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libstdc++.so*|libgcc_s.so*|ld-linux*|libpthread*|libdl*|librt*) ;;
      *) mkdir -p "$dest/lib" && cp -L "$lib" "$dest/lib/" ;;
    esac
  done
  du -sh "$dest"
  exit 0
fi

out="${1:?usage: $0 OUT_DIR [SECONDS] | --pack BUILD_DIR DEST}"
seconds="${2:-540}"
runs="${FUZZ_RUNS:-10000000}"
calibrate="${FUZZ_CALIBRATE:-20}"
if [ -d "$here/bin" ]; then bin="${FUZZ_BIN:-$here/bin}"; else bin="${FUZZ_BIN:-$here/../build-fuzz/fuzz}"; fi
if [ -d "$here/corpus" ]; then corpus="${FUZZ_CORPUS:-$here/corpus}"; else corpus="${FUZZ_CORPUS:-$here/../fuzz/corpus}"; fi
[ -d "$here/lib" ] && export LD_LIBRARY_PATH="$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

targets=()
declare -A goal
for t in ${FUZZ_TARGETS:-$all_targets}; do
  if [ -x "$bin/$t" ] && [ -d "$corpus/$t" ]; then targets+=("$t"); else echo "fuzz_long: skipping $t (no binary or corpus)" >&2; continue; fi
  goal_var="FUZZ_RUNS_$t"
  goal[$t]="${!goal_var:-$runs}"
  case "${goal[$t]}" in ''|*[!0-9]*) echo "fuzz_long: $goal_var must be a count, not '${goal[$t]}'" >&2; exit 2 ;; esac
done
[ ${#targets[@]} -gt 0 ] || { echo "fuzz_long: no fuzz targets in $bin" >&2; exit 1; }

cores=$(nproc)
jobs="${FUZZ_JOBS:-$cores}"
# About 1 GiB per ASan worker (quarantine, SQLite page cache, libFuzzer's corpus).
mem_mb=$(awk '/MemAvailable/ {print int($2 / 1024)}' /proc/meminfo)
if [ -z "${FUZZ_JOBS:-}" ] && [ "$((mem_mb / 1024))" -lt "$jobs" ]; then jobs=$((mem_mb / 1024)); fi
[ "$jobs" -ge 1 ] || jobs=1

# tmpfs when it has room (a container's /dev/shm is often 64 MB): ~16 MB per worker.
shm_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 {print $4}')
if [ -n "${FUZZ_WORK:-}" ]; then work="$FUZZ_WORK"
elif [ -w /dev/shm ] && [ "${shm_kb:-0}" -gt $(( (jobs * 16 + 256) * 1024 )) ]; then
  work="$(mktemp -d /dev/shm/gsys-fuzz-long.XXXXXX)"
else work="$(mktemp -d "${TMPDIR:-/tmp}/gsys-fuzz-long.XXXXXX")"; fi
mkdir -p "$work"
start=$(date +%s)
deadline=$((start + seconds))
echo "fuzz_long: ${#targets[@]} targets, $jobs workers on $cores cores, ${seconds} s; work in $work"
for t in "${targets[@]}"; do echo "fuzz_long: $t until ${goal[$t]} runs"; done

# LeakSanitizer stops the world with ptrace; where a container forbids that it dies at every
# leak check ("LeakSanitizer has encountered a fatal error"): then leaks are not checked.
notes=""
probe="$(mktemp -d "$work/probe.XXXXXX")"
if TMPDIR="$probe" "$bin/${targets[0]}" -runs=1 "$probe" 2>&1 | grep -q 'LeakSanitizer has encountered a fatal error'; then
  export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
  notes="LeakSanitizer cannot run here (ptrace denied): leak checks off."
  echo "fuzz_long: $notes"
fi
rm -rf "$probe"

for t in "${targets[@]}"; do
  mkdir -p "$work/$t/corpus" "$work/$t/artifacts" "$work/$t/logs" "$work/$t/tmp"
  cp "$corpus/$t"/* "$work/$t/corpus/" 2>/dev/null
done

# Executions one log records: the final stats, else the last status line (a killed process).
log_runs() {
  local n
  n=$(awk '/stat::number_of_executed_units:/ {n = $2} END {if (n != "") print n}' "$1")
  [ -n "$n" ] || n=$(grep -aoE '^#[0-9]+' "$1" | tail -1 | tr -d '#')
  echo "${n:-0}"
}
target_runs() {
  local sum=0 f
  for f in "$work/$1"/logs/*.log; do [ -e "$f" ] && sum=$((sum + $(log_runs "$f"))); done
  echo "$sum"
}

# worker TARGET ID SHARE END: fuzz until SHARE executions or the END time, restarting after a
# crash (each restart re-reads the shared corpus).
worker() {
  local t=$1 id=$2 share=$3 until=$4 ran=0 n=0 crashes=0 left now log rc
  while :; do
    now=$(date +%s)
    left=$((until - now))
    [ "$left" -ge 1 ] && [ "$ran" -lt "$share" ] && [ "$crashes" -lt 10 ] || break
    log="$work/$t/logs/w$id-$n.log"
    TMPDIR="$work/$t/tmp" "$bin/$t" -runs=$((share - ran)) -max_total_time="$left" \
      -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 -print_pcs=0 \
      -artifact_prefix="$work/$t/artifacts/" "$work/$t/corpus" >"$log" 2>&1
    rc=$?
    ran=$((ran + $(log_runs "$log")))
    [ "$rc" -eq 0 ] || crashes=$((crashes + 1))
    n=$((n + 1))
  done
  date +%s >>"$work/$t/ends"
}

# Phase 1: one worker per target measures this host's speed.
cal_end=$((start + calibrate))
[ "$cal_end" -lt "$deadline" ] || cal_end=$deadline
for t in "${targets[@]}"; do worker "$t" cal "${goal[$t]}" "$cal_end" & done
wait
declare -A rate cal_runs
for t in "${targets[@]}"; do
  cal_runs[$t]=$(target_runs "$t")
  cal_secs=$(( $(tail -1 "$work/$t/ends") - start ))
  [ "$cal_secs" -ge 1 ] || cal_secs=1
  rate[$t]=$(( (cal_runs[$t] + cal_secs - 1) / cal_secs ))
  [ "${rate[$t]}" -ge 1 ] || rate[$t]=1
  echo "fuzz_long: calibration $t: ${cal_runs[$t]} runs, ${rate[$t]} exec/s per worker"
done

# Phase 2: workers in proportion to the core-seconds each target still needs; a target that
# would finish early with fewer workers gets only those while the slow ones need more.
now=$(date +%s)
left=$((deadline - now))
declare -A workers need
alloc_input=""
for t in "${targets[@]}"; do
  need[$t]=$(( goal[$t] > cal_runs[$t] ? goal[$t] - cal_runs[$t] : 0 ))
  alloc_input+="$t ${need[$t]} ${rate[$t]}"$'\n'
done
while read -r t w; do workers[$t]=$w; done < <(printf '%s' "$alloc_input" | awk -v jobs="$jobs" -v left="$left" '
  { name[NR] = $1; need[NR] = $2; rate[NR] = $3; n = NR }
  END {
    free = jobs
    # Enough workers to finish in the time left, at most; at least one while runs are missing.
    for (i = 1; i <= n; i++) {
      cap[i] = (need[i] > 0 && left > 0) ? int(need[i] / (rate[i] * left)) + 1 : 0
      w[i] = (need[i] > 0) ? 1 : 0
      free -= w[i]
    }
    # Then one at a time to the target with the most work per worker still missing.
    while (free > 0) {
      best = 0; best_load = 0
      for (i = 1; i <= n; i++) {
        if (w[i] >= cap[i]) continue
        load = need[i] / rate[i] / w[i]
        if (load > best_load) { best = i; best_load = load }
      }
      # Every target can finish by the deadline at the calibrated speed: the cores left over
      # still go to the most loaded ones, since a loaded host runs each worker slower than the
      # calibration measured (device run 7: 3x slower on 32 busy cores).
      if (best == 0) {
        for (i = 1; i <= n; i++) {
          if (need[i] == 0) continue
          load = need[i] / rate[i] / w[i]
          if (load > best_load) { best = i; best_load = load }
        }
      }
      if (best == 0) break
      w[best]++; free--
    }
    for (i = 1; i <= n; i++) print name[i], w[i]
  }')
for t in "${targets[@]}"; do
  w=${workers[$t]:-0}
  echo "fuzz_long: $t: $w workers for ${need[$t]} more runs"
  [ "$w" -ge 1 ] || continue
  share=$(( (need[$t] + w - 1) / w ))
  for ((i = 0; i < w; i++)); do worker "$t" "$i" "$share" "$deadline" & done
done
wait

# Results.
{
  echo "| target | executions | goal | reached | workers after calibration | wall s | exec/s (all workers) | exec/s per worker (calibration) | crashes | timeouts | ooms |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
} >"$out/summary.md"
printf 'target\texecutions\tgoal\tworkers\twall_s\texec_per_s\tcal_exec_per_s_per_worker\tcrashes\ttimeouts\tooms\n' >"$out/summary.tsv"
findings=()
for t in "${targets[@]}"; do
  total=$(target_runs "$t")
  # Until the target's last worker stopped (a fast target stops at FUZZ_RUNS).
  wall=$(( $(sort -n "$work/$t/ends" | tail -1) - start ))
  eps=$((total / (wall > 0 ? wall : 1)))
  a="$work/$t/artifacts"
  crashes=$(find "$a" -name 'crash-*' -o -name 'leak-*' -o -name 'deadly*' | wc -l)
  timeouts=$(find "$a" -name 'timeout-*' | wc -l)
  ooms=$(find "$a" -name 'oom-*' | wc -l)
  reached=$([ "$total" -ge "${goal[$t]}" ] && echo yes || echo no)
  echo "| \`$t\` | $total | ${goal[$t]} | $reached | ${workers[$t]:-0} | $wall | $eps | ${rate[$t]} | $crashes | $timeouts | $ooms |" >>"$out/summary.md"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$total" "${goal[$t]}" "${workers[$t]:-0}" "$wall" "$eps" \
    "${rate[$t]}" "$crashes" "$timeouts" "$ooms" >>"$out/summary.tsv"
  if [ $((crashes + timeouts + ooms)) -gt 0 ]; then
    findings+=("$t/artifacts")
    # The logs that report a finding, for the stacks.
    mkdir -p "$work/$t/finding-logs"
    grep -laE 'ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer|LeakSanitizer)|runtime error:|SUMMARY:' \
      "$work/$t"/logs/*.log 2>/dev/null | head -20 | xargs -r cp -t "$work/$t/finding-logs"
    findings+=("$t/finding-logs")
    grep -ahE '^SUMMARY:' "$work/$t"/logs/*.log | sort | uniq -c | sed "s|^|  $t: |" >>"$out/summary.findings"
  fi
done
{
  echo
  [ -z "$notes" ] || echo "$notes"
  echo "Host: $cores cores, $jobs workers (one per target for the first ${calibrate} s, then split as above), $(uname -r), started $(date -u -d "@$start" +%FT%TZ), ${seconds} s budget."
  [ -s "$out/summary.findings" ] && { echo; echo "Findings (SUMMARY lines, counted):"; echo '```'; cat "$out/summary.findings"; echo '```'; }
} >>"$out/summary.md"
rm -f "$out/summary.findings"
if [ ${#findings[@]} -gt 0 ]; then tar -C "$work" -czf "$out/findings.tar.gz" "${findings[@]}"; fi
cat "$out/summary.md"
[ "${FUZZ_KEEP_WORK:-0}" = 1 ] || rm -rf "$work"
