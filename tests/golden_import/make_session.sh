#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Regenerates tests/golden_import/session (the raw session of progs/golden_workload.cc captured by
# gsys itself) and expected.txt (its import, dumped). Run after a change of the raw format or of
# what the capture records, then review `git diff tests/golden_import`:
#
#   tests/golden_import/make_session.sh [BUILD_DIR]     (default: build)
#
# The capture runs with an empty environment (TZ aside) in a scratch folder named /tmp/gsys-golden, so the
# committed session.meta holds no variable or path of the machine that made it (the environment,
# the command line and the working directory are stored in the report verbatim).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "${1:-$root/build}" && pwd)
cmake --build "$build" --target gsys gsys_capture gsys_golden_workload >/dev/null
work=/tmp/gsys-golden
rm -rf "$work"
mkdir -p "$work"
cp "$build/tests/golden_import/gsys_golden_workload" "$work/golden_workload"
# TZ: a zone 5 h 30 min east of UTC, so the report's localTime shows that it comes from the
# session (golden_import.py test_capture_machine_facts_come_from_the_session).
(cd "$work" && env -i PATH=/usr/bin:/bin TZ=IST-5:30 GSYS_KEEP_SESSION=1 \
   "$build/bin/gsys" profile -t nvtx,osrt -o golden -- ./golden_workload)
rm -rf "$here/session"
cp -r "$work/golden.gsys-session" "$here/session"
chmod -R u+rwX,go+rX "$here/session"
rm -rf "$work"
python3 "$here/golden_import.py" --gsys "$build/bin/gsys" --session "$here/session" \
  --expected "$here/expected.txt" --format-header "$root/src/format/record.h" --update
du -sh "$here/session"
