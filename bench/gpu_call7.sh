#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run 7 (nvidia-h200-x2, 32 cores): the rest of issue 8's long fuzz runs, from the
# repository root with the fuzz pack carried as fuzz-pack (bench/fuzz_long.sh --pack, the two
# SQLite-backed targets from a GSYS_FUZZ_SANITIZERS=undefined build):
#   bash bench/gpu_call7.sh OUTDIR [SECONDS]
# One fuzz_long.sh over the six targets that had not yet run 10 M inputs after device runs 5 and
# 6, each up to what it still missed (FUZZ_RUNS_<target>, docs/reliability.md). The importer and
# reader continue from the corpora run 6 grew (fuzz-pack/corpus-TARGET.tgz, when carried); their
# corpora come back for an ASan+UBSan replay at home.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
SECONDS_LEFT=${2:-540}
ROOT=$PWD
for t in import_fuzzer report_reader_fuzzer; do
  [ -f "$ROOT/fuzz-pack/corpus-$t.tgz" ] || continue
  tmp=$(mktemp -d)
  tar -xzf "$ROOT/fuzz-pack/corpus-$t.tgz" -C "$tmp" && cp -n "$tmp/corpus/"* "$ROOT/fuzz-pack/corpus/$t/" 2>/dev/null
  rm -rf "$tmp"
done
export FUZZ_RUNS_import_fuzzer=${FUZZ_RUNS_import_fuzzer:-3459741}
export FUZZ_RUNS_report_reader_fuzzer=${FUZZ_RUNS_report_reader_fuzzer:-3157256}
export FUZZ_RUNS_cli_args_fuzzer=${FUZZ_RUNS_cli_args_fuzzer:-5554328}
export FUZZ_RUNS_output_name_fuzzer=${FUZZ_RUNS_output_name_fuzzer:-6487456}
export FUZZ_RUNS_serving_env_fuzzer=${FUZZ_RUNS_serving_env_fuzzer:-2157292}
export FUZZ_RUNS_s3_response_fuzzer=${FUZZ_RUNS_s3_response_fuzzer:-6004592}
FUZZ_WORK=/tmp/fw7 FUZZ_KEEP_WORK=1 \
  FUZZ_TARGETS="import_fuzzer report_reader_fuzzer cli_args_fuzzer output_name_fuzzer serving_env_fuzzer s3_response_fuzzer" \
  bash "$ROOT/fuzz-pack/fuzz_long.sh" "$OUTDIR/fuzz" "$SECONDS_LEFT" > "$OUTDIR/fuzz.log" 2>&1
for t in import_fuzzer report_reader_fuzzer; do
  [ -d /tmp/fw7/$t/corpus ] && tar -C /tmp/fw7/$t -czf "$OUTDIR/corpus-$t.tgz" corpus
done
nproc; uptime
cat "$OUTDIR/fuzz/summary.md" 2>/dev/null
