#!/usr/bin/env bash
# make demo: placeholder until the stats verb and capture land.
set -euo pipefail
build=${1:-build}
"$build/bin/gsys" --help
