#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run 8 (nvidia-h200-x2): the last of issue 8's long fuzz runs and the ctest cases that
# did not start on the host in runs 4-6. From the repository root with the fuzz pack carried as
# fuzz-pack and the release build as build-gpu-slim (linked as build):
#   bash bench/gpu_call8.sh OUTDIR [FUZZ_SECONDS]
# 1. cli_args_fuzzer and s3_response_fuzzer on every core up to what they still missed after
#    device run 7 (FUZZ_RUNS_<target>).
# 2. The ctest cases registered with the build machine's python3.11 that runs 4-6 could not start
#    (capture.mpi, stacks.*: the host has python3.12 only, so python3.11 is made a link to it for
#    this run), then the GPU-labelled cases again on this build.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
FUZZ_SECONDS=${2:-150}
ROOT=$PWD
export FUZZ_RUNS_cli_args_fuzzer=${FUZZ_RUNS_cli_args_fuzzer:-3142535}
export FUZZ_RUNS_s3_response_fuzzer=${FUZZ_RUNS_s3_response_fuzzer:-2610304}
FUZZ_WORK=/tmp/fw8 FUZZ_TARGETS="cli_args_fuzzer s3_response_fuzzer" \
  bash "$ROOT/fuzz-pack/fuzz_long.sh" "$OUTDIR/fuzz" "$FUZZ_SECONDS" > "$OUTDIR/fuzz.log" 2>&1
cat "$OUTDIR/fuzz/summary.md"

py=$(grep -m1 '^Python3_EXECUTABLE' build/CMakeCache.txt | cut -d= -f2)
[ -n "$py" ] && [ ! -e "$py" ] && ln -s "$(command -v python3)" "$py" && echo "linked $py -> python3"
cd build && ctest -j 8 -R '^(capture\.mpi|stacks\.)' --output-on-failure > "$OUTDIR/ctest-stacks-mpi.log" 2>&1
echo "ctest stacks/mpi rc=$?"; tail -n 25 "$OUTDIR/ctest-stacks-mpi.log"
ctest -j 4 -L gpu --output-on-failure > "$OUTDIR/ctest-gpu.log" 2>&1
echo "ctest gpu rc=$?"; grep -E 'tests passed|Not Run|Failed|\*\*\*|Test +#' "$OUTDIR/ctest-gpu.log" | tail -n 40
