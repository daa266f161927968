# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Sourced by bench/device_session.sh: makes a build carried from the dev VM usable on the device
# machine, whose checkout and Python live at other paths. ROOT is this checkout.
# usage: prepare_build BUILD_DIR

# ctest files of a carried build hold the absolute source path of the machine that built it;
# link that path to this checkout when it does not exist.
link_build_source() {
  local src
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null)
  if [ -n "$src" ] && [ "$src" != "$ROOT" ] && [ ! -e "$src" ]; then
    mkdir -p "$(dirname "$src")" && ln -s "$ROOT" "$src"
  fi
}

prepare_build() {
  local b=$1 built_in py
  link_build_source "$b"
  # ctest files name the build directory they were generated in: give it that name here too.
  built_in=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$b/CMakeCache.txt" 2>/dev/null)
  if [ -n "$built_in" ] && [ ! -e "$built_in" ]; then
    mkdir -p "$(dirname "$built_in")" && ln -s "$b" "$built_in"
  fi
  # FindPython3 cached the build machine's interpreter (a pyenv shim there): use this machine's,
  # through a script (a symlink to a virtual environment's python loses the environment: torch).
  py=$(sed -n 's/^_\?Python3_EXECUTABLE:[A-Z]*=//p' "$b/CMakeCache.txt" 2>/dev/null | head -1)
  if [ -n "$py" ] && [ ! -e "$py" ]; then
    mkdir -p "$(dirname "$py")" &&
      printf '#!/bin/sh\nexec %s "$@"\n' "$(command -v python3)" > "$py" && chmod +x "$py"
  fi
}
