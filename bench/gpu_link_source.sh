# SPDX-License-Identifier: Apache-2.0
# Sourced by the device-run scripts: ctest files of a carried build hold the absolute source path
# of the machine that built it; link that path to this checkout (ROOT) when it does not exist.
# usage: link_build_source BUILD_DIR
link_build_source() {
  local src
  src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null)
  if [ -n "$src" ] && [ "$src" != "$ROOT" ] && [ ! -e "$src" ]; then
    mkdir -p "$(dirname "$src")" && ln -s "$ROOT" "$src"
  fi
}
