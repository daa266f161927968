#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Phase fuzz-long (issue 8, from bench/gpu_call5.sh step 4 and bench/gpu_call6.sh to
# gpu_call8.sh): the long libFuzzer runs, every core of this host, for FUZZ_SECONDS (default 480),
# from the fuzz pack carried as fuzz-pack (bench/fuzz_long.sh --pack BUILD fuzz-pack). Goal:
# >= 10 M executions per target over the runs (docs/reliability.md). The environment passes
# through to bench/fuzz_long.sh: FUZZ_TARGETS, FUZZ_RUNS, FUZZ_RUNS_<target> (what earlier runs
# left to do), FUZZ_JOBS. The two SQLite-backed targets continue from fuzz-pack/corpus-TARGET.tgz
# when carried (a corpus an earlier call brought back), and their grown corpora come back as
# OUTDIR/corpus-TARGET.tgz for an ASan+UBSan replay at home. (Device run 6 ran two instances to
# split the cores by hand; fuzz_long.sh now gives the cores left over to the most loaded targets.)
# shellcheck source=bench/device/lib.sh
source "$(dirname "$0")/lib.sh"
P=$ROOT/fuzz-pack
need_file "$P/fuzz_long.sh" "carry bench/fuzz_long.sh --pack BUILD fuzz-pack as fuzz-pack"
need_file "$P/bin"
for t in import_fuzzer report_reader_fuzzer; do
  [ -f "$P/corpus-$t.tgz" ] || continue
  tmp=$(mktemp -d)
  tar -xzf "$P/corpus-$t.tgz" -C "$tmp" && mkdir -p "$P/corpus/$t" &&
    cp -n "$tmp/corpus/"* "$P/corpus/$t/" 2>/dev/null
  echo "continuing $t from corpus-$t.tgz ($(find "$tmp/corpus" -type f | wc -l) inputs)"
  rm -rf "$tmp"
done
FW=$W/fuzz-work
FUZZ_WORK=$FW FUZZ_KEEP_WORK=1 bash "$P/fuzz_long.sh" "$LOGS/fuzz" "${FUZZ_SECONDS:-480}" \
  > "$LOGS/fuzz.log" 2>&1
rc=$?
for t in import_fuzzer report_reader_fuzzer; do
  [ -d "$FW/$t/corpus" ] && tar -C "$FW/$t" -czf "$BACK/corpus-$t.tgz" corpus
done
echo "$(nproc) cpus; $(uptime)"
need_figures "$LOGS/fuzz/summary.md"
cat "$LOGS/fuzz/summary.md"
exit $rc
