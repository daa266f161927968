#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# One GPU-machine call with named phases (bench/README.md lists them, their goals and figures).
# Run from the repository root with the release build carried without object files as
# build-gpu-slim (plus third_party_dl for the phases that run nsys, fuzz-pack for fuzz-long):
#   bash bench/device_session.sh OUTDIR [PHASE...]     (default: gpu identity reliab)
# Each phase is bench/device/NAME.sh (ctest_phase.sh for the ctest ones) under its own time
# limit (LIMIT_<name>=S overrides, '-' spelled '_'); its logs are packed into OUTDIR/logs.tgz,
# its digest lines go to stdout and OUTDIR/digest.txt, then "== PHASE: ok|FAILED rc=N|skipped".
# The device tool returns at most 8 files: machine.txt, digest.txt, logs.tgz and what phases
# put in OUTDIR on purpose (fuzz corpora, DDP reports). Exit status 1 when a phase failed.
set -u
PHASE_LIST=(gpu identity reliab stacks-mpi gpu-details parity overhead cupti-bare stats-speed
  options backtrace-cost capture-costs sampling-cost metrics-export rules-export serving ddp
  recipe deep-nesting fuzz-long)
if [ $# -lt 1 ]; then
  echo "usage: bash bench/device_session.sh OUTDIR [PHASE...] (phases: ${PHASE_LIST[*]})" >&2
  exit 2
fi
OUT=$(mkdir -p "$1" && cd "$1" && pwd) || exit 2
shift
PHASES=${*:-gpu identity reliab}
ROOT=$PWD
export B=${B:-$ROOT/build-gpu-slim}  # the carried build; B=build for a local run
HERE=$ROOT/bench/device

script_for() {
  case $1 in
    gpu|identity|reliab|stacks-mpi|gpu-details) echo "$HERE/ctest_phase.sh" ;;
    *) echo "$HERE/${1//-/_}.sh" ;;
  esac
}
limit_for() {  # seconds; the device allows 600 per call, so a call picks phases that fit
  local var="LIMIT_${1//-/_}"
  if [ -n "${!var:-}" ]; then echo "${!var}"; return; fi
  case $1 in
    gpu-details|rules-export|stacks-mpi|serving) echo 150 ;;
    parity|stats-speed|metrics-export|sampling-cost) echo 240 ;;
    capture-costs|cupti-bare|ddp) echo 300 ;;
    fuzz-long) echo $(( ${FUZZ_SECONDS:-480} + 60 )) ;;
    options|recipe|deep-nesting) echo 560 ;;
    *) echo 400 ;;
  esac
}
# Check every name before spending device time.
for phase in $PHASES; do
  if [[ " ${PHASE_LIST[*]} " != *" $phase "* ]]; then
    echo "device_session: unknown phase '$phase' (phases: ${PHASE_LIST[*]})" >&2
    exit 2
  fi
done
if [ -d "$B" ]; then
  # shellcheck source=bench/device/link_build.sh
  source "$HERE/link_build.sh"
  prepare_build "$B"
fi
{
  nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, torch.version.cuda)'
  git -C "$ROOT" rev-parse --short HEAD 2>/dev/null; nproc
} > "$OUT/machine.txt" 2>&1
head -3 "$OUT/machine.txt" | tee "$OUT/digest.txt"
ok=""; failed=""; skipped=""
for phase in $PHASES; do
  limit=$(limit_for "$phase")
  logs=$OUT/logs/$phase
  mkdir -p "$logs"
  t0=$(date +%s)
  PHASE=$phase LOGS=$logs BACK=$OUT PHASE_LIMIT_S=$limit \
    timeout -k 10 "$limit" bash "$(script_for "$phase")" "$phase" 2> "$logs/stderr.log" |
    tee -a "$OUT/digest.txt"
  rc=${PIPESTATUS[0]}
  took=$(( $(date +%s) - t0 ))
  case $rc in
    0) state=ok; ok="$ok $phase" ;;
    77) state=skipped; skipped="$skipped $phase" ;;
    124|137) state="FAILED rc=$rc (over its ${limit} s limit)"; failed="$failed $phase" ;;
    *) state="FAILED rc=$rc"; failed="$failed $phase" ;;
  esac
  echo "== $phase: $state in $took s" | tee -a "$OUT/digest.txt"
  if [ "$rc" != 0 ] && [ "$rc" != 77 ]; then
    tail -n 5 "$logs/stderr.log" | tee -a "$OUT/digest.txt"
  fi
done
tar -C "$OUT/logs" -czf "$OUT/logs.tgz" . && rm -rf "$OUT/logs"
files=$(find "$OUT" -maxdepth 1 -type f | wc -l)
{
  echo "== phases ok:${ok:- none}; failed:${failed:- none}; skipped:${skipped:- none}"
  [ "$files" -le 8 ] || echo "== $files files in $OUT: only 8 come back from the device"
} | tee -a "$OUT/digest.txt"
[ -z "$failed" ]
