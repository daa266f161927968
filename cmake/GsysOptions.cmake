# One place for every gsys build option: each is printed, and bad combinations fail here.
include_guard(GLOBAL)

function(gsys_option name help default)
  option(${name} "${help}" ${default})
  message(STATUS "gsys option ${name} = ${${name}}")
endfunction()

gsys_option(GSYS_BUILD_TESTS "Build unit, golden and CLI tests" ON)
gsys_option(GSYS_BUILD_BENCH "Build benchmarks and the synthetic report generator" ON)
gsys_option(GSYS_WERROR "Treat warnings as errors" ON)
set(GSYS_SANITIZE "" CACHE STRING "Sanitizers: '', 'address,undefined' or 'thread'")
message(STATUS "gsys option GSYS_SANITIZE = '${GSYS_SANITIZE}'")
if(GSYS_SANITIZE MATCHES "thread" AND GSYS_SANITIZE MATCHES "address")
  message(FATAL_ERROR "GSYS_SANITIZE: thread and address sanitizers cannot be combined")
endif()
# Link the C++ runtime and SQLite statically so the CLI runs on other distributions
# (the GPU machine is Ubuntu 24.04; builds happen on Debian 12).
gsys_option(GSYS_STATIC_RUNTIME "Link libstdc++/libgcc and SQLite statically" ON)
# libFuzzer targets (fuzz/): needs clang (CC=clang CXX=clang++); instruments every target with
# ASan+UBSan and coverage. Without it the fuzz targets replay their seed corpora as tests.
gsys_option(GSYS_FUZZ "Build fuzz/ as libFuzzer binaries (clang only)" OFF)
if(GSYS_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "GSYS_FUZZ needs clang: configure with CC=clang CXX=clang++")
  endif()
  if(GSYS_SANITIZE)
    message(FATAL_ERROR "GSYS_FUZZ brings its own sanitizers: leave GSYS_SANITIZE empty")
  endif()
  # The long runs may trade ASan for speed (GSYS_FUZZ_SANITIZERS=undefined: the SQLite-backed
  # targets run ~3x faster); their corpora are then replayed under the default pair.
  set(GSYS_FUZZ_SANITIZERS "address,undefined" CACHE STRING "Sanitizers of the fuzz build")
  add_compile_options(-fsanitize=fuzzer-no-link,${GSYS_FUZZ_SANITIZERS} -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${GSYS_FUZZ_SANITIZERS})
  set(GSYS_STATIC_RUNTIME OFF CACHE BOOL "" FORCE)
endif()
# Where the CUDA toolkit's headers are looked for (NVTX client headers for the test programs,
# CUPTI, cuBLAS/cuDNN; all optional: without them gsys builds without CUDA capture and the
# NVTX test programs). Pointing it at an empty folder builds as on a machine without CUDA.
if(DEFINED ENV{CUDA_HOME} AND NOT "$ENV{CUDA_HOME}" STREQUAL "")
  set(gsys_cuda_root_default "$ENV{CUDA_HOME}")
else()
  set(gsys_cuda_root_default "/usr/local/cuda")
endif()
set(GSYS_CUDA_ROOT "${gsys_cuda_root_default}" CACHE PATH "CUDA toolkit folder (optional)")
message(STATUS "gsys option GSYS_CUDA_ROOT = ${GSYS_CUDA_ROOT}")
# The real nsys exports the golden, export and reader tests read in place. They are not in the
# repository (../shared/fixtures/nsys beside a team checkout): tests that need them skip, naming
# the folder, when it is absent, so that a bare clone still passes.
set(GSYS_NSYS_FIXTURES "${PROJECT_SOURCE_DIR}/../shared/fixtures/nsys" CACHE PATH
    "Folder of real nsys SQLite exports (optional)")
cmake_path(NORMAL_PATH GSYS_NSYS_FIXTURES)
if(IS_DIRECTORY "${GSYS_NSYS_FIXTURES}")
  message(STATUS "gsys option GSYS_NSYS_FIXTURES = ${GSYS_NSYS_FIXTURES}")
else()
  message(STATUS "gsys option GSYS_NSYS_FIXTURES = ${GSYS_NSYS_FIXTURES} (not found: the tests "
                 "that read nsys exports will be SKIPPED)")
endif()
