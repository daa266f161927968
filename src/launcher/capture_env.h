// SPDX-License-Identifier: Apache-2.0
// The environment of a profiled target: the inherited variables, the user's -e variables, the
// GSYS_* settings of the capture library (format/capture_env_names.h, docs/env.md) and the
// injection variables (LD_PRELOAD, NVTX_INJECTION64_PATH, CUDA_INJECTION64_PATH).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsys::launcher {

struct CaptureSettings {
  std::string inject_library;  // absolute path of libgsys-inject.so
  std::string mpi_library;     // libgsys-mpi.so, preloaded first when set (-t mpi)
  std::string session_dir;
  std::string trace;  // "nvtx,osrt,cuda" or "none"
  int64_t osrt_threshold_ns = 1000;
  int64_t capture_start_ns = 0;   // CLOCK_MONOTONIC, 0 = from the start
  int64_t capture_stop_ns = 0;    // CLOCK_MONOTONIC, 0 = to the end
  std::string capture_range;      // "", "nvtx", "cudaProfilerApi"
  std::string nvtx_capture;       // RANGE[@DOMAIN]
  std::string capture_range_end;  // stop, stop-shutdown, repeat[:N], ...
  bool nvtx_registered_only = true;
  std::string cuda_graph_trace;  // "", "node", "graph"
  bool cuda_memory_usage = false;
  int cuda_flush_ms = 0;             // GSYS_CUDA_FLUSH_MS (--cuda-flush-interval); 0 = the default
  bool cuda_trace_all_apis = false;  // --cuda-trace-all-apis: runtime-all in GSYS_CUDA_KINDS
  std::string pytorch;               // "", "autograd-nvtx", "autograd-shapes-nvtx"
  std::string python_dir;            // directory of gsys's sitecustomize.py (with `pytorch`)
  std::string cuda_backtrace;        // GSYS_CUDA_BACKTRACE list ("all:1000"), "" = off
  bool python_backtrace = false;
  bool sample = false;  // -s process-tree
  int sampling_frequency = 1000;
  bool cpuctxsw = false;
  // Sanitizer runtimes the target executable needs (ElfSanitizerNeeds): with libasan among
  // them, ASan's link-order check is waived so the program starts (sanitizer_runtime.h).
  std::vector<std::string> sanitizer_needs;
  // GSYS_OUTPUT_VARS: the -o %q{} names unset for gsys, comma-separated (per-rank reports).
  std::string output_vars;
};

// `base` is the inherited environment (empty with --inherit-environment=false), `user` the
// -e NAME=VALUE list. Later entries win; LD_PRELOAD keeps what the user had after our library,
// except sanitizer runtimes, which go first (OrderPreload, sanitizer_runtime.h).
std::vector<std::string> BuildCaptureEnv(const std::vector<std::string>& base,
                                         const std::vector<std::string>& user,
                                         const CaptureSettings& settings);

}  // namespace gsys::launcher
