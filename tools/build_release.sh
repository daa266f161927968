#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds gsys alone (no tests, no benchmarks) and installs it: the build stage of the
# Dockerfile, also run by tests/install/test_container.sh.
#   tools/build_release.sh SRC BUILD PREFIX
# Needs only Debian packages (Dockerfile lists them), no CUDA toolkit. Extra configure options
# come from GSYS_CMAKE_ARGS (blank-separated, e.g. -DCMAKE_CXX_COMPILER_LAUNCHER=ccache).
# GSYS_RELEASE_TARGETS builds only those targets and skips the install (the test's quick mode).
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: tools/build_release.sh SRC BUILD PREFIX" >&2
  exit 2
fi
src=$1 build=$2 prefix=$3
jobs=${GSYS_JOBS:-$(nproc)}
# GSYS_CHECK messages name source files relative to SRC, not by this machine's folders.
# shellcheck disable=SC2086  # GSYS_CMAKE_ARGS is a list of options
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DGSYS_BUILD_TESTS=OFF \
  -DCMAKE_CXX_FLAGS="-fmacro-prefix-map=$(cd "$src" && pwd)/=" \
  -DGSYS_BUILD_BENCH=OFF -DGSYS_WERROR=ON ${GSYS_CMAKE_ARGS:-} >"$build.configure.log" \
  || { cat "$build.configure.log"; exit 1; }
if [ -n "${GSYS_RELEASE_TARGETS:-}" ]; then
  # shellcheck disable=SC2086
  cmake --build "$build" -j "$jobs" --target $GSYS_RELEASE_TARGETS
  exit 0
fi
cmake --build "$build" -j "$jobs"
cmake --install "$build" --prefix "$prefix" --strip
"$prefix/bin/gsys" --version
