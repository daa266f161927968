#!/usr/bin/env bash
# Installs the Debian packages gsys needs to build and test, only those missing.
# Uses sudo when not root. Safe to run repeatedly.
set -euo pipefail
packages=(cmake make g++ pkg-config libsqlite3-dev sqlite3 libgtest-dev libgmock-dev
          libbenchmark-dev python3 file protobuf-compiler libdw-dev  # libdw: stack symbolization headers
          libssl-dev libcurl4-openssl-dev  # upload: static libcrypto, curl headers (dlopen'ed)
          dpkg-dev  # make deb: dpkg-shlibdeps computes the package's libc6 version
          clang libclang-rt-dev valgrind  # reliability: libFuzzer, memcheck
          clang-format  # make lint: tools/check_format.sh (clang-format 14 on Debian 12)
          openmpi-bin libopenmpi-dev  # recipe --mode mpi test (gsys dlopens libmpi)
          rapidjson-dev zlib1g-dev  # Kineto trace import: SAX parsing (header-only), gzip (static)
          # HTA (../shared/tools/hta) as a test client of the Kineto export; Debian's python3
          python3-pandas python3-numpy python3-plotly python3-psutil python3-networkx python3-pydot)
# Upload tests run s3rver from npm (tests/upload/package.json); Debian's nodejs/npm unless a
# node is already installed.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# HTML page tests (tests/html) render in Debian's headless chromium; they skip without it, and
# Ubuntu ships Chromium only as a snap, so it is added only where apt has a real package.
if ! command -v chromium >/dev/null 2>&1 &&
   apt-cache show chromium 2>/dev/null | grep -q '^Filename: .*/chromium_'; then
  packages+=(chromium)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "gsys: installing missing packages: ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
# npm packages of the upload tests, exactly as locked (never fetched during a test).
upload_tests="$(dirname "$0")/../tests/upload"
if [ ! -x "$upload_tests/node_modules/.bin/s3rver" ] ||
   [ "$upload_tests/package-lock.json" -nt "$upload_tests/node_modules/.package-lock.json" ]; then
  (cd "$upload_tests" && npm ci --no-audit --no-fund --loglevel=error)
fi
