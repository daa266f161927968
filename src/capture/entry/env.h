// SPDX-License-Identifier: Apache-2.0
// Every GSYS_* environment variable the CLI passes to the capture library (documented in
// docs/env.md). Parsed once, at library init, by ReadCaptureConfig(); nothing else in capture
// calls getenv, except entry/process_vars.cc, which reads the user's variables that
// GSYS_OUTPUT_VARS names.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gsys::capture {

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
// Directory of a CUDA toolkit to find libcupti in when it is not next to libcudart.
inline constexpr const char* kEnvCudaHome = "CUDA_HOME";

// Read (not set) by the library API trace: the dlopen hook searches it as ld.so would.
inline constexpr const char* kEnvLdLibraryPath = "LD_LIBRARY_PATH";
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

inline constexpr size_t kMaxPathBytes = 1024;
inline constexpr size_t kMaxTriggerBytes = 256;

enum class RangeEnd { kStop, kStopShutdown, kRepeat, kNone };

// Bit set of what CUPTI records.
enum CudaKindBits : uint32_t {
  kCudaRuntime = 1u << 0,
  kCudaDriver = 1u << 1,        // every driver API call
  kCudaDriverLaunch = 1u << 2,  // only driver launch/graph-launch calls (Triton, CUDA graphs)
  kCudaKernel = 1u << 3,
  kCudaMemcpy = 1u << 4,
  kCudaMemset = 1u << 5,
  kCudaSync = 1u << 6,
  kCudaGraph = 1u << 7,  // one record per graph launch instead of per node
  kCudaMemory = 1u << 8,
  kCudaOverhead = 1u << 9,
  kCudaRuntimeAll = 1u << 10,  // also the trivial runtime calls nsys leaves out (cudaGetDevice...)
};

// --cudabacktrace / --python-backtrace.
struct BacktraceConfig {
  bool cuda_enabled = false;
  // By cupti::ApiCategory (0 unused, kernel, memory, sync, other): -1 = no stacks.
  int64_t threshold_ns[5] = {-1, -1, -1, -1, -1};
  bool python = false;
};

// -s/--sample, --sampling-frequency, --cpuctxsw.
enum class SamplingMethod { kAuto, kPerf, kTimer };  // GSYS_SAMPLING_METHOD: unset|perf|timer

struct SamplingConfig {
  bool sample = false;
  int frequency_hz = 1000;
  bool ctxsw = false;
  SamplingMethod method = SamplingMethod::kAuto;
};

// Parses a GSYS_CUDA_BACKTRACE list into `config` (unknown words are ignored).
void ParseCudaBacktrace(const char* list, BacktraceConfig* config);

// The CUDA part of the settings, handed to capture/cupti as one value.
struct CudaConfig {
  bool enabled = false;  // GSYS_SESSION_DIR set and "cuda" in GSYS_TRACE
  char session_dir[kMaxPathBytes] = {};
  char cuda_home[kMaxPathBytes] = {};
  uint32_t kinds = kCudaRuntime | kCudaDriverLaunch | kCudaKernel | kCudaMemcpy | kCudaMemset |
                   kCudaSync;  // not kCudaOverhead: +1.5 us per launch on the H200 (bench/RESULTS.md)
  bool profiler_api_range = false;
  RangeEnd range_end = RangeEnd::kStopShutdown;
  int flush_ms = 200;
  int64_t capture_start_ns = 0;  // -y/-d window (CLOCK_MONOTONIC), 0 = unbounded
  int64_t capture_stop_ns = 0;
  // The session's shared `recording` word (control page) when there is one: the tracer's flush
  // thread follows it, so windows opened by the launcher or by another process reach CUDA.
  const std::atomic<uint32_t>* session_recording = nullptr;
  bool log = false;
  BacktraceConfig backtrace;
};

// The parsed settings. Plain data with fixed-size strings: no allocation at init.
struct CaptureConfig {
  bool enabled = false;  // GSYS_SESSION_DIR set and usable
  char session_dir[kMaxPathBytes] = {};
  char inject_path[kMaxPathBytes] = {};
  bool trace_nvtx = true;
  bool trace_osrt = true;
  bool trace_cuda = true;
  bool trace_cublas = false;  // -t cublas: cuBLAS/cuBLASLt API calls (capture/libapi)
  bool trace_cudnn = false;   // -t cudnn: cuDNN API calls (capture/libapi)
  bool trace_mpi = false;     // -t mpi: MPI calls (libgsys-mpi.so, capture/mpi)
  char ld_library_path[4 * kMaxPathBytes] = {};  // the process's LD_LIBRARY_PATH at start
  int64_t osrt_threshold_ns = 1000;
  size_t buffer_bytes = 512 * 1024;
  size_t memory_limit_bytes = 64u << 20;
  int flush_interval_ms = 100;
  int64_t disk_reserve_bytes = -1;  // GSYS_DISK_RESERVE_BYTES; -1: the default rule, 0: off
  int64_t capture_start_ns = 0;
  int64_t capture_stop_ns = 0;
  bool nvtx_trigger = false;
  char trigger_range[kMaxTriggerBytes] = {};
  char trigger_domain[kMaxTriggerBytes] = {};  // empty = default domain
  bool trigger_any_domain = false;
  bool trigger_registered_only = true;
  RangeEnd range_end = RangeEnd::kStopShutdown;
  int range_repeat = 0;  // repeat count; 0 = unlimited
  bool log = false;
  bool allow_tsc = true;
  char output_vars[512] = {};  // GSYS_OUTPUT_VARS, empty = none
  CudaConfig cuda;
  SamplingConfig sampling;
  int test_stack_osrt_function = -1;  // GSYS_TEST_STACK_AT (format::OsrtFunction id)
  bool test_stack_python = false;
};

// Reads the GSYS_* variables. Never fails: bad values fall back to defaults.
void ReadCaptureConfig(CaptureConfig* config);

// Parses a GSYS_CUDA_KINDS list into CudaKindBits; unknown words are ignored.
uint32_t ParseCudaKinds(const char* list);

}  // namespace gsys::capture
