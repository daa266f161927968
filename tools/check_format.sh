#!/usr/bin/env bash
# Format check (CONTRIBUTING.md §1, issue 21 item 7): every C++ file of the tree as clang-format
# 14 writes it under .clang-format (Google style, 100 columns). Other clang-format versions
# format some constructs differently, so the check runs only with version 14 (Debian 12's) and
# otherwise says in one line that it was skipped.
#   tools/check_format.sh          check (exit 1 listing the files that differ)
#   tools/check_format.sh --fix    rewrite them in place
set -uo pipefail
cd "$(dirname "$0")/.."
tool=""
for candidate in clang-format-14 clang-format; do
  if command -v "$candidate" > /dev/null 2>&1 &&
     "$candidate" --version | grep -qE 'version 14\.'; then
    tool=$candidate
    break
  fi
done
if [ -z "$tool" ]; then
  echo "format: skipped (needs clang-format 14; found: $(clang-format --version 2>/dev/null || echo none))"
  exit 0
fi
mapfile -t files < <(git ls-files '*.cc' '*.h' '*.c' '*.cu' | grep -v -e '^third_party/' -e '/corpus/')
if [ "${1:-}" = "--fix" ]; then
  "$tool" -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  "$tool" --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  printf 'format: %s differs from clang-format 14 (tools/check_format.sh --fix)\n' "${bad[@]}"
  exit 1
fi
echo "format: ok (${#files[@]} files)"
