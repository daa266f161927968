#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One GPU-machine call with named phases (bench/README.md). Run from the repository root with
# the release build carried without object files as build-gpu-slim:
#   bash bench/device_session.sh OUTDIR [PHASE...]     (default: every phase, in this order)
# Phases:
#   gpu       ctest -L gpu (CUDA programs with exactly known activity)
#   identity  ctest -L identity: the behaviour-identity tier, here with CUDA capture as a sixth
#             way of running and the PyTorch case (DataLoader workers, CUDA, KeyboardInterrupt)
#   reliab    ctest -L reliability (fault, stress, security, hostile inputs) on this machine
# Logs go to OUTDIR (at most 8 files come back); a digest goes to stdout.
set -u
OUT=$(mkdir -p "$1" && cd "$1" && pwd)
shift
PHASES=${*:-gpu identity reliab}
ROOT=$PWD
B=$ROOT/build-gpu-slim
source "$ROOT/bench/gpu_link_source.sh"
link_build_source "$B"
# ctest files name the build directory they were generated in: give it that name here too.
built_in=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$B/CMakeCache.txt")
if [ -n "$built_in" ] && [ ! -e "$built_in" ]; then
  mkdir -p "$(dirname "$built_in")" && ln -s "$B" "$built_in"
fi
# FindPython3 cached the build machine's interpreter (a pyenv shim there): use this machine's,
# through a script (a symlink to a virtual environment's python loses the environment: torch).
py=$(sed -n 's/^_\?Python3_EXECUTABLE:[A-Z]*=//p' "$B/CMakeCache.txt" | head -1)
if [ -n "$py" ] && [ ! -e "$py" ]; then
  mkdir -p "$(dirname "$py")" && printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v python3)" > "$py"
  chmod +x "$py"
fi
{
  nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
  git -C "$ROOT" rev-parse --short HEAD 2>/dev/null
} > "$OUT/machine.txt" 2>&1
head -3 "$OUT/machine.txt"
for phase in $PHASES; do
  case $phase in
    gpu) label=gpu; jobs=4 ;;
    identity) label=identity; jobs=8 ;;
    reliab) label=reliability; jobs=8 ;;
    *) echo "unknown phase $phase"; continue ;;
  esac
  t0=$(date +%s)
  (cd "$B" && timeout 400 ctest -j "$jobs" -L "$label" -LE valgrind --output-on-failure \
     > "$OUT/ctest-$phase.log" 2>&1)
  echo "== $phase: rc=$? in $(( $(date +%s) - t0 )) s"
  grep -E 'tests passed|\*\*\*|Failed|Not Run|Skipped' "$OUT/ctest-$phase.log" | tail -n 30
done
