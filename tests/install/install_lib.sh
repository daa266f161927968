# SPDX-License-Identifier: Apache-2.0
# Shared by the install tests (sourced): failure/skip helpers and checks on an installed tree.
# Each test exits 0 (pass), 1 (a finding, printed) or 77 (SKIPPED, one line naming what is
# missing), as CONTRIBUTING.md §5 asks.

INSTALL_TEST=${INSTALL_TEST:-install}
fail() { echo "$INSTALL_TEST: FAIL: $*" >&2; exit 1; }
skip() { echo "$INSTALL_TEST: SKIPPED: $*"; exit 77; }
note() { echo "$INSTALL_TEST: $*"; }

# make_scratch BUILD: sets `work` to a new folder under the build tree, removed at exit
# unless GSYS_KEEP_TEST_DIR is set. (Not a $(function): the trap must be this shell's.)
make_scratch() {
  work=$(mktemp -d "$1/tests/install/${INSTALL_TEST}.XXXXXX")
  if [ -z "${GSYS_KEEP_TEST_DIR:-}" ]; then
    # shellcheck disable=SC2064  # expand now: the folder is fixed
    trap "rm -rf '$work'" EXIT
  fi
}

# Libraries an installed ELF file may need: the C library's, nothing else (the C++ runtime,
# SQLite and libcrypto are linked in; libcurl, libdw, CUPTI, NVML and MPI are dlopen()ed).
ALLOWED_NEEDED="libc.so.6 libm.so.6 ld-linux-x86-64.so.2 ld-linux-aarch64.so.1 libdl.so.2
libpthread.so.0 librt.so.1"

# check_elf_files DIR BUILD: every ELF file under DIR needs only the C library, has no
# RPATH/RUNPATH and names no folder of the build tree BUILD.
check_elf_files() {
  local dir=$1 build=$2 f needed n elves=0
  command -v readelf >/dev/null || skip "readelf (binutils) not found"
  while IFS= read -r -d '' f; do
    head -c 4 "$f" | grep -q $'\x7fELF' || continue
    elves=$((elves + 1))
    needed=$(readelf -d "$f" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    for n in $needed; do
      grep -qw -- "$n" <<<"$ALLOWED_NEEDED" || fail "${f#"$dir"/} needs $n (only libc may be NEEDED)"
    done
    if readelf -d "$f" | grep -Eq '\((RPATH|RUNPATH)\)'; then
      fail "${f#"$dir"/} has an RPATH/RUNPATH: $(readelf -d "$f" | grep -E 'R(UN)?PATH')"
    fi
  done < <(find "$dir" -type f -print0)
  [ "$elves" -ge 3 ] || fail "expected gsys and two libraries as ELF files under $dir, found $elves"
  # No file refers back to the build tree (a path compiled in, a generated page, a script).
  if grep -rlaF -- "$build" "$dir" >/dev/null; then
    fail "files name the build tree $build: $(grep -rlaF -- "$build" "$dir" | tr '\n' ' ')"
  fi
}

# check_runs PREFIX PROGRAM WORK: the installed gsys at PREFIX, run from WORK: --version,
# profile -t nvtx,osrt PROGRAM (libraries found next to itself), stats on the report, -t mpi
# and --pytorch find their helpers, and the target is preloaded with PREFIX's library.
check_runs() {
  local prefix program=$2 work=$3 gsys out version
  prefix=$(cd "$1" && pwd)
  gsys="$prefix/bin/gsys"
  (
    cd "$work" || exit 1
    unset GSYS_INJECT_LIBRARY
    version=$("$gsys" --version) || fail "gsys --version failed"
    [[ "$version" =~ ^gsys\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "gsys --version printed '$version'"
    out=$("$gsys" profile -t nvtx,osrt -o run1 -- "$program" 2>&1) \
      || fail "gsys profile failed: $out"
    grep -q "generated .*run1.gsys-rep" <<<"$out" || fail "no report line in: $out"
    out=$("$gsys" stats -r nvtx_sum,osrt_sum run1.gsys-rep 2>&1) || fail "gsys stats failed: $out"
    grep -q "load_batch" <<<"$out" || fail "nvtx_sum lacks the workload's ranges: $out"
    grep -q "NVTX Range Summary" <<<"$out" || fail "stats printed no NVTX summary: $out"
    # The library the target got is the installed one, found relative to gsys.
    out=$("$gsys" profile -t nvtx -o run2 -- /bin/sh -c 'echo "preload=$LD_PRELOAD"' 2>&1) \
      || fail "gsys profile of sh failed: $out"
    grep -q "preload=.*$prefix/lib/gsys/libgsys-inject.so" <<<"$out" \
      || fail "target not preloaded with $prefix/lib/gsys/libgsys-inject.so: $out"
    out=$("$gsys" profile -t nvtx,mpi -o run3 -- /bin/true 2>&1) || fail "-t mpi: $out"
    out=$("$gsys" profile -t nvtx --pytorch autograd-nvtx -o run4 -- /bin/true 2>&1) \
      || fail "--pytorch: $out"
  ) || exit 1
}
