#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# `cmake --install BUILD --prefix P` (issue 24 item 1): the exact layout, man pages for every
# verb, no RPATH and no build-tree path, and the tree works after being moved elsewhere.
#   test_install_tree.sh BUILD
set -euo pipefail
INSTALL_TEST=install.tree
source "$(dirname "$0")/install_lib.sh"
build=$(cd "$1" && pwd)
make_scratch "$build"
cmake --install "$build" --prefix "$work/p" >"$work/install.log" || fail "$(cat "$work/install.log")"

# Every file in the tree is expected; every expected file is there.
verbs=$("$build/bin/gsys" --help | awk '/^commands:/{on=1;next} on&&/^  /{print $1} on&&!/^  /{on=0}')
[ -n "$verbs" ] || fail "no verbs in gsys --help"
expected="bin/gsys
lib/gsys/libgsys-inject.so
lib/gsys/libgsys-mpi.so
lib/gsys/python/sitecustomize.py
share/doc/gsys/README.md
share/doc/gsys/changelog.gz
share/doc/gsys/copyright
share/man/man1/gsys.1.gz"
for v in $verbs; do expected+=$'\n'"share/man/man1/gsys-$v.1.gz"; done
for f in "$(dirname "$0")"/../../docs/*.md "$(dirname "$0")"/../../docs/cli/*.md; do
  expected+=$'\n'"share/doc/gsys/docs/${f#*/docs/}"
done
actual=$(cd "$work/p" && find . -type f -o -type l | sed 's|^\./||' | sort)
diff <(sort <<<"$expected") <(echo "$actual") >"$work/layout.diff" \
  || fail "installed files differ from the layout (< expected, > installed): $(cat "$work/layout.diff")"
[ -x "$work/p/bin/gsys" ] || fail "bin/gsys is not executable"
for lib in "$work"/p/lib/gsys/*.so; do
  [ "$(stat -c %a "$lib")" = 644 ] || fail "${lib#"$work"/p/} has mode $(stat -c %a "$lib") (expected 644)"
done

check_elf_files "$work/p" "$build"

# Man pages: gzip'ed roff with a NAME line; groff renders them without a warning when present.
for v in "" $verbs; do
  page="$work/p/share/man/man1/gsys${v:+-$v}.1.gz"
  zcat "$page" | grep -q "^gsys${v:+\\\\-$v} \\\\- " || fail "$page has no NAME line"
  if command -v groff >/dev/null; then
    warn=$(zcat "$page" | LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z 2>&1) || true
    [ -z "$warn" ] || fail "groff warns on ${page##*/}: $warn"
  fi
done
zcat "$work/p/share/man/man1/gsys-profile.1.gz" | grep -q -- '\\-\\-trace' \
  || fail "gsys-profile.1 lacks --trace (not generated from --help?)"

# Moved elsewhere, it still finds its libraries next to itself.
mv "$work/p" "$work/moved"
mkdir "$work/run"
check_runs "$work/moved" "$build/bin/gsys_demo_workload" "$work/run"
note "ok: $(echo "$actual" | wc -l) files, $(du -sk "$work/moved" | cut -f1) KiB"
