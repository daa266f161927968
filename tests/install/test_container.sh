#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The Dockerfile (issue 24 items 3 and 4), without a container engine: lint it
# (check_dockerfile.py, and hadolint when installed), then run its `gsys` stage in a scratch
# root as a script, from a context holding only what its COPY lines copy, on a machine where
# CUDA is hidden (GSYS_CUDA_ROOT points at an empty folder): the configure must pass and
# libgsys-inject.so and the demo must build without NVIDIA's headers. Then the `runtime`
# stage: the COPY --from=gsys tree runs `gsys wrap` with GSYS_PROFILE off (exec) and on (a
# window recorded from the no-CUDA demo, read back with gsys stats).
#   test_container.sh SRC BUILD
# Quick by default: the stage builds only libgsys-inject.so, libgsys-mpi.so and the demo
# (GSYS_RELEASE_TARGETS), and BUILD's install stands in for the stage's /opt/gsys.
# GSYS_TEST_FULL_BUILD=1 runs the stage's whole build and install (minutes on 2 cores).
set -euo pipefail
INSTALL_TEST=install.container
source "$(dirname "$0")/install_lib.sh"
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
here=$(cd "$(dirname "$0")" && pwd)

python3 "$here/check_dockerfile.py" --dockerfile "$src/Dockerfile" --context "$src" \
  || fail "Dockerfile lint (above)"
if command -v hadolint >/dev/null; then
  hadolint "$src/Dockerfile" || fail "hadolint (above)"
fi
engine=""
for e in docker podman buildah; do
  if command -v "$e" >/dev/null && "$e" info >/dev/null 2>&1; then engine=$e; break; fi
done
if [ -n "$engine" ] && [ -n "${GSYS_TEST_DOCKER_BUILD:-}" ]; then
  "$engine" build --target gsys -t gsys-test-build "$src" || fail "$engine build"
elif [ -n "$engine" ]; then
  note "$engine is usable: GSYS_TEST_DOCKER_BUILD=1 also builds the image (needs the base image)"
else
  note "no container engine (docker/podman/buildah): the stages run as scripts"
fi

make_scratch "$build"
ctx="$work/context"  # the repository as a build context: tracked files, no build folders
mkdir -p "$ctx"
(cd "$src" && tar --exclude='./build*' --exclude=./.git --exclude=node_modules -cf - .) | (cd "$ctx" && tar -xf -)
root="$work/gsys"
python3 "$here/check_dockerfile.py" --dockerfile "$ctx/Dockerfile" --context "$ctx" \
  --stage gsys --emit-script "$work/gsys.sh" --root "$root"
# The stage's apt-get packages must be here already (no network, no root in a test).
missing=()
for p in $(sed -n 's/^# apt: //p' "$work/gsys.sh"); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] || skip "the Dockerfile's build packages are not installed: ${missing[*]}"

mkdir -p "$work/no-cuda"
export GSYS_CMAKE_ARGS="-DGSYS_CUDA_ROOT=$work/no-cuda"
command -v ccache >/dev/null && GSYS_CMAKE_ARGS+=" -DCMAKE_CXX_COMPILER_LAUNCHER=ccache"
export GSYS_JOBS=${GSYS_JOBS:-2}
full=${GSYS_TEST_FULL_BUILD:-}
[ -n "$full" ] || export GSYS_RELEASE_TARGETS="gsys_capture gsys_capture_mpi gsys_demo_workload"
bash "$work/gsys.sh" >"$work/gsys.log" 2>&1 || fail "stage gsys: $(tail -30 "$work/gsys.log")"
configure_log="$root/build.configure.log"
grep -q "NVTX v3 headers (nvtx3/nvToolsExt.h) not found" "$configure_log" \
  || fail "CUDA was not hidden from the configure: $(grep -i nvtx "$configure_log")"
grep -q "cupti.h not found" "$configure_log" || fail "CUPTI headers found with CUDA hidden"
inject="$root/build/lib/libgsys-inject.so"
[ -f "$inject" ] || fail "the stage built no libgsys-inject.so"
if [ -z "$full" ]; then
  cmake --install "$build" --prefix "$root/opt/gsys" --strip >/dev/null
fi
[ -x "$root/opt/gsys/bin/gsys" ] || fail "stage gsys left no /opt/gsys/bin/gsys"
[ -z "$full" ] || check_elf_files "$root/opt/gsys" "$root/build"

# The runtime stage: COPY --from=gsys, then its ENTRYPOINT (gsys wrap --) on a command.
runtime="$work/runtime"
python3 "$here/check_dockerfile.py" --dockerfile "$ctx/Dockerfile" --context "$ctx" \
  --stage runtime --emit-script "$work/runtime.sh" --root "$runtime" --from-root gsys="$root"
grep -q '^# entrypoint: gsys wrap --$' "$work/runtime.sh" || fail "runtime ENTRYPOINT is not gsys wrap --"
(
  source "$work/runtime.sh"
  [ "$(command -v gsys)" = "$runtime/opt/gsys/bin/gsys" ] || fail "ENV PATH does not find the copied gsys"
  cd "$work"
  # Off: gsys wrap execs the command (same pid).
  out=$(env -u GSYS_PROFILE gsys wrap -- /bin/sh -c 'echo "pid=$$"; kill -0 $PPID' 2>&1) \
    || fail "gsys wrap (off): $out"
  grep -q '^pid=' <<<"$out" || fail "gsys wrap (off) printed: $out"
  # On: one window from the start, closed when the command exits; the demo built without CUDA
  # records through the library built without CUDA.
  mkdir -p "$work/out"
  out=$(GSYS_PROFILE=1 GSYS_PROFILE_DELAY=0 GSYS_PROFILE_DURATION=60 GSYS_PROFILE_OUTPUT="$work/out/" \
        GSYS_PROFILE_TRACE=nvtx,osrt GSYS_INJECT_LIBRARY="$inject" \
        gsys wrap -- "$root/build/bin/gsys_demo_workload" 2>&1) || fail "gsys wrap (on): $out"
  reps=("$work"/out/*.gsys-rep)
  [ -f "${reps[0]}" ] || fail "gsys wrap wrote no report: $out"
  out=$(gsys stats -r nvtx_sum "${reps[0]}" 2>&1) || fail "gsys stats: $out"
  grep -q load_batch <<<"$out" || fail "no NVTX ranges from the no-CUDA build: $out"
) || exit 1
note "ok: Dockerfile lint, stage gsys without CUDA (${full:+full}${full:-quick} build), runtime stage"
