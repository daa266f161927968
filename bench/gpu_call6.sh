#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run 6 (nvidia-h200-x2, 32 cores): the second half of issue 8's long fuzz runs, from the
# repository root with the fuzz pack carried as fuzz-pack (bench/fuzz_long.sh --pack, the two
# SQLite-backed targets from a GSYS_FUZZ_SANITIZERS=undefined build):
#   bash bench/gpu_call6.sh OUTDIR [SECONDS]
# Two fuzz_long.sh instances at once: the five fast parsers on 7 workers up to the executions
# they still missed after device run 5 (FAST_RUNS), and import_fuzzer + report_reader_fuzzer on
# the other 25. The two slow targets' corpora come back for an ASan replay at home.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
SECONDS_LEFT=${2:-540}
ROOT=$PWD
# Continue from the corpora device run 5 grew, when carried (fuzz-pack/corpus-TARGET.tgz).
for t in import_fuzzer report_reader_fuzzer; do
  [ -f "$ROOT/fuzz-pack/corpus-$t.tgz" ] && tar -xzf "$ROOT/fuzz-pack/corpus-$t.tgz" -C "$ROOT/fuzz-pack/corpus" &&
    cp -n "$ROOT/fuzz-pack/corpus/corpus/"* "$ROOT/fuzz-pack/corpus/$t/" 2>/dev/null; rm -rf "$ROOT/fuzz-pack/corpus/corpus"
done
FUZZ_WORK=/tmp/fw-fast FUZZ_JOBS=7 FUZZ_RUNS=${FAST_RUNS:-9000000} \
  FUZZ_TARGETS="cli_args_fuzzer output_name_fuzzer serving_env_fuzzer s3_response_fuzzer upload_config_fuzzer" \
  bash "$ROOT/fuzz-pack/fuzz_long.sh" "$OUTDIR/fast" "$SECONDS_LEFT" > "$OUTDIR/fast.log" 2>&1 &
FUZZ_WORK=/tmp/fw-slow FUZZ_KEEP_WORK=1 FUZZ_JOBS=25 FUZZ_TARGETS="import_fuzzer report_reader_fuzzer" \
  bash "$ROOT/fuzz-pack/fuzz_long.sh" "$OUTDIR/slow" "$SECONDS_LEFT" > "$OUTDIR/slow.log" 2>&1 &
wait
for t in import_fuzzer report_reader_fuzzer; do
  [ -d /tmp/fw-slow/$t/corpus ] && tar -C /tmp/fw-slow/$t -czf "$OUTDIR/corpus-$t.tgz" corpus
done
cat "$OUTDIR/fast/summary.md" "$OUTDIR/slow/summary.md" 2>/dev/null
