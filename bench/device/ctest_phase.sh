#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The ctest phases of bench/device_session.sh (the tiers that need the device machine):
#   gpu          ctest -L gpu: CUDA programs with exactly known activity (issue 4, 10)
#   identity     ctest -L identity: the behaviour-identity tier, with CUDA capture as a sixth way
#                of running and the PyTorch case (DataLoader workers, CUDA, KeyboardInterrupt)
#   reliab       ctest -L reliability (fault, stress, security, hostile inputs) on this machine
#   stacks-mpi   capture.mpi and stacks.* (-t mpi under Open MPI, the perf_event sampler), which
#                need the host's python3 in place of the build machine's (device_session links it)
#   gpu-details  gpu.metrics and gpu.python_frames verbose: the low_sm_activity check, the NVLink
#                and GPM counters per sample, the Python frame walker's cost (device run 5)
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
need_file "$B/CTestTestfile.cmake" "carry the release build as build-gpu-slim"
case $PHASE in
  gpu) args=(-j 4 -L gpu) ;;
  identity) args=(-j 8 -L identity) ;;
  reliab) args=(-j 8 -L reliability) ;;
  stacks-mpi) args=(-j 8 -R '^(capture\.mpi|stacks\.)') ;;
  gpu-details) args=(-R '^gpu\.(metrics|python_frames)$' -V) ;;
  *) fail "not a ctest phase" ;;
esac
log=$LOGS/ctest-$PHASE.log
(cd "$B" && timeout $(( PHASE_LIMIT_S - 15 )) ctest "${args[@]}" -LE valgrind --output-on-failure \
   > "$log" 2>&1)
rc=$?
if [ "$PHASE" = gpu-details ]; then
  grep -E 'ok: |FAIL|low_sm|Samples|NVLink counters|walker|per stack|Passed|Failed' "$log" |
    cut -c1-220 | head -60
else
  grep -E 'tests passed|\*\*\*|Failed|Not Run|Skipped' "$log" | tail -n 30
fi
grep -q 'tests passed' "$log" || fail "ctest printed no result (see ctest-$PHASE.log)"
exit $rc
