// SPDX-License-Identifier: Apache-2.0
// The GSYS_* variables of CUDA capture (documented in docs/env.md, next to env.h's). Parsed
// once in InitializeInjection by ReadCudaConfig().
#pragma once

#include <cstddef>
#include <cstdint>

namespace gsys::capture {

// GSYS_TRACE (env.h) containing "cuda" turns CUDA capture on; the CLI's default is
// cuda,nvtx,osrt as nsys's. These refine it:
// "graph" or "node" (default): --cuda-graph-trace.
inline constexpr const char* kEnvCudaGraphTrace = "GSYS_CUDA_GRAPH_TRACE";
// "1": --cuda-memory-usage=true (allocation/free records).
inline constexpr const char* kEnvCudaMemoryUsage = "GSYS_CUDA_MEMORY_USAGE";
// "cudaProfilerApi": -c cudaProfilerApi; CUDA recording starts at cudaProfilerStart.
inline constexpr const char* kEnvCaptureRange = "GSYS_CAPTURE_RANGE";
// CUDA buffer flush period in ms (1..250). Default 200.
inline constexpr const char* kEnvCudaFlushMs = "GSYS_CUDA_FLUSH_MS";
// Expert/benchmark override of the CUPTI activity kinds, a comma list of: runtime, driver,
// driver-launch, kernel, memcpy, memset, sync, graph, memory, overhead, none.
inline constexpr const char* kEnvCudaKinds = "GSYS_CUDA_KINDS";
// Directory of a CUDA toolkit to find libcupti in when it is not next to libcudart.
inline constexpr const char* kEnvCudaHome = "CUDA_HOME";

enum class CudaRangeEnd { kStop, kStopShutdown, kRepeat, kNone };

// Bit set of what CUPTI records (CudaKindBits).
enum CudaKindBits : uint32_t {
  kCudaRuntime = 1u << 0,
  kCudaDriver = 1u << 1,        // every driver API call
  kCudaDriverLaunch = 1u << 2,  // only driver launch/graph-launch calls (Triton, CUDA graphs)
  kCudaKernel = 1u << 3,
  kCudaMemcpy = 1u << 4,
  kCudaMemset = 1u << 5,
  kCudaSync = 1u << 6,
  kCudaGraph = 1u << 7,         // one record per graph launch instead of per node
  kCudaMemory = 1u << 8,
  kCudaOverhead = 1u << 9,
};

struct CudaConfig {
  bool enabled = false;  // GSYS_SESSION_DIR set and "cuda" in GSYS_TRACE
  char session_dir[1024] = {};
  char cuda_home[1024] = {};
  uint32_t kinds = kCudaRuntime | kCudaDriverLaunch | kCudaKernel | kCudaMemcpy | kCudaMemset |
                   kCudaSync;
  bool profiler_api_range = false;
  CudaRangeEnd range_end = CudaRangeEnd::kStopShutdown;
  int flush_ms = 200;
  bool log = false;
};

// Reads the variables above plus GSYS_SESSION_DIR, GSYS_TRACE, GSYS_CAPTURE_RANGE_END and
// GSYS_LOG. Never fails: bad values fall back to defaults.
void ReadCudaConfig(CudaConfig* config);

// Parses a GSYS_CUDA_KINDS list into CudaKindBits; unknown words are ignored.
uint32_t ParseCudaKinds(const char* list);

}  // namespace gsys::capture
