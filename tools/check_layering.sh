#!/usr/bin/env bash
# Layering check (CONTRIBUTING.md §1): fails on an #include across a forbidden module edge
# and on project-rule violations that are cheap to grep for.
set -uo pipefail
cd "$(dirname "$0")/.."
fail=0
report() { echo "layering: $1"; fail=1; }

# module -> allowed include prefixes (besides its own folder and system headers)
declare -A allowed=(
  [common]="common/"
  [format]="common/ format/"
  [capture]="common/ format/ capture/"
  [launcher]="common/ launcher/"
  [report]="common/ format/ report/"
  [analysis]="common/ report/ analysis/ html/"
  [export]="common/ report/ analysis/ export/"
  [upload]="common/ upload/"
  [html]="common/ html/"
  [serving]="common/ format/ launcher/ report/ serving/"
  [cli]="common/ format/ launcher/ report/ analysis/ export/ upload/ html/ serving/ cli/"
)
for module in "${!allowed[@]}"; do
  [ -d "src/$module" ] || continue
  while IFS= read -r line; do
    file=${line%%:*}
    inc=$(sed -E 's/.*#include "([^"]+)".*/\1/' <<<"${line#*:}")
    ok=0
    for prefix in ${allowed[$module]}; do
      [[ "$inc" == "$prefix"* ]] && ok=1
    done
    # includes relative to the file's own folder (no slash) are fine
    [[ "$inc" != */* ]] && ok=1
    [ $ok -eq 1 ] || report "$file includes \"$inc\" (module '$module' may not depend on it)"
  done < <(grep -rHn '#include "' "src/$module" 2>/dev/null | sed -E 's/^([^:]+):[0-9]+:/\1:/')
done

# Inside report: db <- reader <- import <- kineto (the Kineto trace reader builds on the importer's
# writer). Nothing below kineto may include it; kineto reaches no further up than report.
for sub in db reader import; do
  grep -rHn '#include "report/kineto/' "src/report/$sub" 2>/dev/null \
    && report "src/report/$sub includes report/kineto (kineto sits above it)"
done
grep -rHn '#include "' src/report/kineto 2>/dev/null | grep -v -E '#include "(common|format|report)/' \
  && report "src/report/kineto includes outside common/, format/ and report/"

# The injected library links nothing heavy: no SQLite, protobuf, fmt or iostream.
if [ -d src/capture ]; then
  grep -rEn '#include <(sqlite3\.h|iostream|fstream|sstream|fmt/|google/protobuf)' src/capture \
    && report "src/capture includes a heavy header (sqlite/iostream/fmt/protobuf)"
fi
# Project rules (CONTRIBUTING.md §1).
grep -rEn '^\s*throw\b|[^_a-z]throw ' src --include='*.cc' --include='*.h' | grep -v '_test.cc' \
  && report "'throw' is not used in project code"
grep -rEn 'std::cout|std::cerr' src --include='*.cc' --include='*.h' | grep -v '_test.cc' \
  && report "std::cout/std::cerr are not used (write through cli/output or stdio in main)"
grep -rEn '(^|[^_a-zA-Z:.])exit\(' src --include='*.cc' | grep -v -e 'src/cli/main.cc' -e '_test.cc' \
  -e '_exit(' -e 'src/capture/' -e 'src/launcher/' && report "exit( is only called from cli/main.cc"
[ $fail -eq 0 ] && echo "layering: ok"
exit $fail
