#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Device run 8 (nvidia-h200-x2): the last of issue 8's long fuzz runs and the ctest cases that
# did not start on the host in runs 4-6. From the repository root with the fuzz pack carried as
# fuzz-pack and the release build as build-gpu-slim (linked as build):
#   bash bench/gpu_call8.sh OUTDIR [FUZZ_SECONDS]
# 1. cli_args_fuzzer and s3_response_fuzzer on every core up to what they still missed after
#    device run 7 (FUZZ_RUNS_<target>).
# 2. The ctest cases registered with the build machine's python3.11 that runs 4-6 could not start
#    (capture.mpi, stacks.*: the host has another python3 path, so the build's interpreter path
#    is made a link to the host's python3 for this run), then the GPU-labelled cases again.
# GPU_CALL8_FUZZ=0 skips step 1 and STACKS_ONLY=1 the GPU cases.
set -u
OUTDIR=$(mkdir -p "$1" && cd "$1" && pwd)
FUZZ_SECONDS=${2:-150}
ROOT=$PWD
export FUZZ_RUNS_cli_args_fuzzer=${FUZZ_RUNS_cli_args_fuzzer:-3142535}
export FUZZ_RUNS_s3_response_fuzzer=${FUZZ_RUNS_s3_response_fuzzer:-2610304}
[ "${GPU_CALL8_FUZZ:-1}" = 0 ] || FUZZ_WORK=/tmp/fw8 FUZZ_TARGETS="cli_args_fuzzer s3_response_fuzzer" \
  bash "$ROOT/fuzz-pack/fuzz_long.sh" "$OUTDIR/fuzz" "$FUZZ_SECONDS" > "$OUTDIR/fuzz.log" 2>&1
cat "$OUTDIR/fuzz/summary.md" 2>/dev/null

# FindPython3 caches the interpreter it found as _Python3_EXECUTABLE (a pyenv shim on the build VM).
py=$(grep -m1 '^_\?Python3_EXECUTABLE' build/CMakeCache.txt | cut -d= -f2)
if [ -n "$py" ] && [ ! -e "$py" ]; then
  mkdir -p "$(dirname "$py")" && ln -s "$(command -v python3)" "$py" && echo "linked $py -> python3"
fi
cd build && ctest -j 8 -R '^(capture\.mpi|stacks\.)' --output-on-failure > "$OUTDIR/ctest-stacks-mpi.log" 2>&1
echo "ctest stacks/mpi rc=$?"; tail -n 25 "$OUTDIR/ctest-stacks-mpi.log"
[ "${STACKS_ONLY:-0}" = 1 ] && exit 0
ctest -j 4 -L gpu --output-on-failure > "$OUTDIR/ctest-gpu.log" 2>&1
echo "ctest gpu rc=$?"; grep -E 'tests passed|Not Run|Failed|\*\*\*|Test +#' "$OUTDIR/ctest-gpu.log" | tail -n 40
