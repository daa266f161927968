// SPDX-License-Identifier: Apache-2.0
// Every GSYS_* environment variable the CLI passes to the capture library (documented in
// docs/env.md). Parsed once, at library init, by ReadCaptureConfig(); nothing else in capture
// calls getenv, except entry/process_vars.cc, which reads the user's variables that
// GSYS_OUTPUT_VARS names.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "format/capture_env_names.h"

namespace gsys::capture {

// The GSYS_* names themselves are the launcher's and the library's shared contract:
// format/capture_env_names.h. These two are the system's, read (not set) by the library.
// Directory of a CUDA toolkit to find libcupti in when it is not next to libcudart.
inline constexpr const char* kEnvCudaHome = "CUDA_HOME";
// Read (not set) by the library API trace: the dlopen hook searches it as ld.so would.
inline constexpr const char* kEnvLdLibraryPath = "LD_LIBRARY_PATH";

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
  uint32_t kinds =
      kCudaRuntime | kCudaDriverLaunch | kCudaKernel | kCudaMemcpy | kCudaMemset |
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
