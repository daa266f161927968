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
