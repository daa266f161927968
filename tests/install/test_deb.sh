#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Debian package (issue 24 item 2): CPack builds it from BUILD's binaries (no rebuild), its
# control fields and files are checked, it is installed with dpkg into a scratch root (no
# superuser needed), the installed gsys profiles a program and reads the report, and dpkg
# removes it again. lintian runs when installed (errors fail; warnings are printed).
#   test_deb.sh BUILD
set -euo pipefail
INSTALL_TEST=install.deb
source "$(dirname "$0")/install_lib.sh"
build=$(cd "$1" && pwd)
for tool in cpack dpkg dpkg-deb; do
  command -v "$tool" >/dev/null || skip "$tool not found (Debian's dpkg; cmake's cpack)"
done
make_scratch "$build"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1 \
  || fail "cpack: $(cat "$work/cpack.log")"
debs=("$work"/deb/*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "expected one .deb in $work/deb: ${debs[*]}"
deb=${debs[0]}
version=$("$build/bin/gsys" --version | cut -d' ' -f2)
arch=$(dpkg --print-architecture)
[ "$(basename "$deb")" = "gsys_${version}_${arch}.deb" ] || fail "package named $(basename "$deb")"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = gsys ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version) (gsys says $version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
# Run-time dependencies: the C library only; libcurl (uploads) is recommended, not required.
[[ "$(field Depends)" =~ ^libc6(\ \(\>=\ [0-9.]+\))?$ ]] || fail "Depends: '$(field Depends)' (expected libc6 only)"
[ "$(field Recommends)" = libcurl4 ] || fail "Recommends: '$(field Recommends)'"
[ -z "$(field Pre-Depends)" ] || fail "Pre-Depends: $(field Pre-Depends)"

# Files: all root-owned, all under /usr, private libraries only in /usr/lib/gsys.
dpkg-deb -c "$deb" >"$work/contents"
awk '$2 != "root/root" {print}' "$work/contents" | grep . && fail "entries not owned by root/root"
awk '{print $6}' "$work/contents" | grep -Ev '^\./(usr(/.*)?)?$' && fail "entries outside /usr"
awk '{print $6}' "$work/contents" | grep -E '^\./usr/lib/' | grep -Ev '^\./usr/lib/(gsys(/.*)?)?$' \
  && fail "files in /usr/lib outside /usr/lib/gsys"
dpkg-deb -x "$deb" "$work/x"
check_elf_files "$work/x" "$build"
for elf in "$work/x/usr/bin/gsys" "$work"/x/usr/lib/gsys/*.so; do
  readelf -S "$elf" | grep -q '\.symtab' && fail "${elf#"$work"/x} is not stripped"
done

# Install into a scratch root with its own dpkg database, as a normal user can.
root="$work/root"
mkdir -p "$root/var/lib/dpkg/updates" "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/triggers"
touch "$root/var/lib/dpkg/status" "$root/var/lib/dpkg/available"
dpkg_root=(dpkg --root="$root" --log=/dev/null --force-not-root --force-depends
           --force-script-chrootless)
"${dpkg_root[@]}" -i "$deb" >"$work/dpkg.log" 2>&1 || fail "dpkg -i: $(cat "$work/dpkg.log")"
"${dpkg_root[@]}" -L gsys | grep -qx /usr/bin/gsys || fail "dpkg -L gsys lacks /usr/bin/gsys"
[ -x "$root/usr/bin/gsys" ] || fail "dpkg -i left no $root/usr/bin/gsys"
mkdir "$work/run"
check_runs "$root/usr" "$build/bin/gsys_demo_workload" "$work/run"
"${dpkg_root[@]}" -r gsys >"$work/dpkg.log" 2>&1 || fail "dpkg -r: $(cat "$work/dpkg.log")"
left=$( (find "$root/usr" -type f 2>/dev/null || true) | head -5)
[ -z "$left" ] || fail "dpkg -r left files: $left"

size=$(stat -c %s "$deb")
note "$(basename "$deb"): $((size / 1024)) KiB, Installed-Size $(field Installed-Size) KiB, Depends: $(field Depends); Recommends: $(field Recommends); Suggests: $(field Suggests)"

if command -v lintian >/dev/null; then
  # Known: maintscript-calls-ldconfig (docs/install.md). Errors fail; the rest is printed.
  lintian --no-cfg --allow-root "$deb" >"$work/lintian.log" 2>&1 || true
  sed 's/^/  lintian: /' "$work/lintian.log"
  if grep -q '^E: ' "$work/lintian.log"; then fail "lintian reports errors (above)"; fi
else
  note "lintian not installed: not run (apt-get install lintian)"
fi
