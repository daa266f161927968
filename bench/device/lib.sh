# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash disable=SC2034  # (the phases use what it sets)
# Sourced by every phase script of bench/device_session.sh (bench/device/*.sh), which runs it
# from the repository root with PHASE, LOGS (the phase's log folder, packed into logs.tgz), BACK
# (OUTDIR: a file put there comes back as it is) and PHASE_LIMIT_S exported. What a phase prints
# on stdout is its part of the digest; a missing prerequisite ends it with one line and exit 3,
# a machine it cannot use with exit 77 (skipped), so no phase reports empty numbers as a result.
set -u
ROOT=$PWD
: "${PHASE:?run through bench/device_session.sh}" "${LOGS:?}" "${BACK:?}"
PHASE_LIMIT_S=${PHASE_LIMIT_S:-600}
B=${B:-$ROOT/build-gpu-slim}
GSYS=$B/bin/gsys
NSYS=${NSYS:-/opt/nvidia/nsight-compute/2025.3.1/host/target-linux-x64/nsys}
NSYS_LIB=$ROOT/third_party_dl/root/usr/lib/x86_64-linux-gnu
# nsys's importer needs libdw/libelf, which the device machine lacks: only nsys gets them.
NSYS_ENV="LD_LIBRARY_PATH=$NSYS_LIB${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
TORCH_LOOP=$ROOT/bench/cuda/torch_loop.py
LAUNCH_LOOP=$B/bench-cuda/launch_loop
PROGS=$B/tests/gpu/progs
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
T0=$(date +%s)
el() { echo $(( $(date +%s) - T0 )); }
# Seconds left of this phase's limit (loops stop early instead of being killed mid-run).
left() { echo $(( PHASE_LIMIT_S - $(el) )); }

fail() { echo "$PHASE: $*"; exit 3; }
skip() { echo "$PHASE: skipped: $*"; exit 77; }
need_file() { [ -e "$1" ] || fail "missing $1${2:+ ($2)}"; }
need_gsys() { [ -x "$GSYS" ] || fail "missing $GSYS (carry the release build as build-gpu-slim)"; }
need_nsys() {
  [ -x "$NSYS" ] || fail "missing nsys at $NSYS (set NSYS to nsys 2025.3.1)"
  [ -d "$NSYS_LIB" ] || fail "missing $NSYS_LIB (carry third_party_dl: libdw/libelf for nsys)"
}
need_torch() {
  python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null ||
    fail "python3 cannot import torch with CUDA"
}
gpu_count() { nvidia-smi -L 2>/dev/null | grep -c '^GPU'; }
need_gpus() {
  local n
  n=$(gpu_count)
  [ "$n" -ge "$1" ] || skip "needs $1 GPUs, this machine has $n"
}
# A summary that came out empty is a failed measurement, not a result.
need_figures() {
  [ -s "$1" ] || { echo "$PHASE: no figures in $(basename "$1") (see logs.tgz)"; exit 4; }
}
