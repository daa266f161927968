// SPDX-License-Identifier: Apache-2.0
// The GSYS_* environment variables through which the launcher (gsys profile/launch/wrap:
// launcher/capture_env.cc) hands the capture settings to libgsys-inject.so (capture/entry/env.cc
// parses them once, at library init). Defined here once, for both sides; documented in
// docs/env.md. tools/check_layering.sh fails on a copy of one of these names outside format/.
#pragma once

namespace gsys::format {

// Directory that receives one raw stream per process. Unset: the library stays inert.
inline constexpr const char* kEnvSessionDir = "GSYS_SESSION_DIR";
// Comma list of capture domains: cuda, nvtx, osrt, cublas, cudnn. Unset: cuda,nvtx,osrt
// (nsys's default).
inline constexpr const char* kEnvTrace = "GSYS_TRACE";
// OS-runtime calls shorter than this many ns are not recorded. Default 1000 (nsys's).
inline constexpr const char* kEnvOsrtThresholdNs = "GSYS_OSRT_THRESHOLD_NS";
// Bytes of each per-thread ring buffer (rounded up to a power of two). Default 512 KiB.
inline constexpr const char* kEnvBufferBytes = "GSYS_BUFFER_BYTES";
// Upper bound on all thread buffers of one process. Default 64 MiB.
inline constexpr const char* kEnvMemoryLimitBytes = "GSYS_MEMORY_LIMIT_BYTES";
// Writer drain period in ms (1..250). Default 100.
inline constexpr const char* kEnvFlushIntervalMs = "GSYS_FLUSH_INTERVAL_MS";
// Free bytes the capture leaves on the session directory's filesystem (sink/disk_reserve.h):
// it stops writing before free space would drop below this. Unset: min(5 % of the filesystem,
// 1 GiB); 0: no reserve.
inline constexpr const char* kEnvDiskReserveBytes = "GSYS_DISK_RESERVE_BYTES";
// Capture window in CLOCK_MONOTONIC ns (from -y/--delay and -d/--duration); 0 = unbounded.
inline constexpr const char* kEnvCaptureStartNs = "GSYS_CAPTURE_START_NS";
inline constexpr const char* kEnvCaptureStopNs = "GSYS_CAPTURE_STOP_NS";
// NVTX capture range trigger "RANGE[@DOMAIN]" (-c nvtx -p ...); "@*" = any domain.
inline constexpr const char* kEnvNvtxCapture = "GSYS_NVTX_CAPTURE";
// What happens when the NVTX capture range ends: stop, stop-shutdown, repeat[:N],
// repeat-shutdown:N, none.
inline constexpr const char* kEnvCaptureRangeEnd = "GSYS_CAPTURE_RANGE_END";
// 1 (default): the NVTX trigger matches registered strings only (nsys's default); 0: also plain.
inline constexpr const char* kEnvNvtxRegisteredOnly = "GSYS_NVTX_REGISTERED_ONLY";
// Absolute path of libgsys-inject.so, re-added to LD_PRELOAD/NVTX_INJECTION64_PATH when a
// process execs with an environment that lost them.
inline constexpr const char* kEnvInjectPath = "GSYS_INJECT_PATH";
// "1": the library logs what it does to stderr (init, flushes, errors).
inline constexpr const char* kEnvLog = "GSYS_LOG";
// Comma list of variable names (-o %q{VAR} unset for gsys, set inside the tree): each process
// image writes their values at its start into "<pid>-<stream_id>.vars" (format/process_vars.h),
// so `gsys profile` writes one report per distinct value. Unset: no .vars files.
inline constexpr const char* kEnvOutputVars = "GSYS_OUTPUT_VARS";
// Event clock: "tsc" (default where the TSC is invariant) or "monotonic".
inline constexpr const char* kEnvClock = "GSYS_CLOCK";

// CUDA capture (started by InitializeInjection, which CUDA_INJECTION64_PATH makes the driver
// call during cuInit). "graph" or "node" (default): --cuda-graph-trace.
inline constexpr const char* kEnvCudaGraphTrace = "GSYS_CUDA_GRAPH_TRACE";
// "1": --cuda-memory-usage=true (allocation/free records).
inline constexpr const char* kEnvCudaMemoryUsage = "GSYS_CUDA_MEMORY_USAGE";
// "cudaProfilerApi": -c cudaProfilerApi; recording starts at cudaProfilerStart.
inline constexpr const char* kEnvCaptureRange = "GSYS_CAPTURE_RANGE";
// CUPTI buffer flush period in ms (1..250). Default 200.
inline constexpr const char* kEnvCudaFlushMs = "GSYS_CUDA_FLUSH_MS";
// Expert/benchmark override of the CUPTI activity kinds, a comma list of: runtime, driver,
// driver-launch, kernel, memcpy, memset, sync, graph, memory, overhead, runtime-all, none.
inline constexpr const char* kEnvCudaKinds = "GSYS_CUDA_KINDS";

// Stacks (capture/stack, docs/env.md). --cudabacktrace: comma list of CATEGORY:THRESHOLD_NS
// (kernel, memory, sync, other); a call of a listed category at least that long gets a stack.
inline constexpr const char* kEnvCudaBacktrace = "GSYS_CUDA_BACKTRACE";
// "cuda": --python-backtrace=cuda, the Python stack too at those calls.
inline constexpr const char* kEnvPythonBacktrace = "GSYS_PYTHON_BACKTRACE";
// "process-tree": -s, periodic CPU samples; GSYS_SAMPLING_FREQUENCY in Hz (100..8000).
inline constexpr const char* kEnvSample = "GSYS_SAMPLE";
inline constexpr const char* kEnvSamplingFrequency = "GSYS_SAMPLING_FREQUENCY";
// "process-tree": --cpuctxsw, thread context switches where the kernel allows it.
inline constexpr const char* kEnvCpuctxsw = "GSYS_CPUCTXSW";
// "perf" or "timer": force how -s samples (default: perf_event, else the timer signal).
inline constexpr const char* kEnvSamplingMethod = "GSYS_SAMPLING_METHOD";
// Test hook: "FUNCTION[:python]": recorded calls of this OS-runtime function get a stack site
// (and the Python stack), so stacks are testable without CUDA.
inline constexpr const char* kEnvTestStackAt = "GSYS_TEST_STACK_AT";

// --pytorch: read by launcher/python/sitecustomize.py (the Python side of the capture), which
// the launcher puts on PYTHONPATH.
inline constexpr const char* kEnvPytorch = "GSYS_PYTORCH";

}  // namespace gsys::format
