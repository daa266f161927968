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
  [launcher]="common/ format/ launcher/"
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
# The session contract (CONTRIBUTING.md §2) lives in format/ only: a session-directory file name
# or a GSYS_* variable the launcher passes to the capture library is spelled as a string literal
# nowhere else in src/ (tests excluded: they pin the bytes independently). Code uses the
# constants of format/session_files.h and format/capture_env_names.h.
contract_hits() {  # code lines (comments stripped) of src/ outside format/ matching ERE $1
  grep -rEn --include='*.cc' --include='*.h' "$1" src \
    | grep -v -e '^src/format/' -e '_test\.cc:' -e '_test_util\.' \
    | sed -E 's#^([^:]+:[0-9]+:)[[:space:]]*//.*#\1#; s#[[:space:]]//[^"]*$##' \
    | grep -E "$1"
}
# Names distinctive enough to flag wherever a string literal holds them (messages included).
session_files='session\.meta|shutdown-request|gpu_metrics\.tsv|gpu_metrics_devices\.tsv|\.gsysraw|\.stopped-|\.gsys-session|disk-reserve'
contract_hits "\"[^\"]*($session_files)" \
  && report "a session-directory file name is spelled outside src/format/ (use format/session_files.h)"
# Short suffixes: flagged as a whole literal; generic words ("info", "control", "requests"):
# only where they are joined to a path.
contract_hits '"[^"]*\.(vars|req|resp)"|"[^"]*/(info|control|requests)/?"|/ "(info|control|requests)"' \
  && report "a session-directory file name is spelled outside src/format/ (use format/session_files.h)"
# The env var names of the contract, taken from their one definition; a literal that is the name
# (or NAME=...) is a second copy, a mention inside help text is not.
env_names=$(grep -ohE '"GSYS_[A-Z0-9_]+"' src/format/capture_env_names.h src/format/session_files.h \
  | tr -d '"' | paste -sd'|')
if [ -n "$env_names" ]; then
  contract_hits "\"($env_names)(\"|=)" \
    && report "a contract env var name is spelled outside src/format/ (use format/capture_env_names.h or session_files.h)"
else
  report "no GSYS_* names found in src/format/capture_env_names.h"  # the check would pass vacuously
fi

[ $fail -eq 0 ] && echo "layering: ok"
exit $fail
