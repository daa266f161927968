// SPDX-License-Identifier: Apache-2.0
// Name tables for synthetic reports: kernel names (long, templated, PyTorch/CUTLASS/cuBLAS/
// NCCL/Triton-like), CUDA runtime and driver API names with nsys's `_vNNNN` suffixes, OS
// runtime functions, NVTX range texts and thread names. Everything here is a pure function of
// its arguments, so reports are reproducible from --seed alone.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gsys::bench {

// One kernel function as nsys records it, plus fixed launch parameters (a given kernel is
// usually launched with the same configuration, so these are per name, not per row).
struct KernelName {
  std::string demangled;   // full name with templates and parameters
  std::string short_name;  // base function name
  std::string mangled;     // Itanium-style for C++ kernels, same as `demangled` for extern "C"
  int64_t base_ns = 0;     // typical duration; rows jitter around it
  int64_t grid_x = 1;
  int64_t block_x = 128;
  int64_t registers = 32;
  int64_t static_shared = 0;
  int64_t dynamic_shared = 0;
};

// Builds `count` distinct kernel names. Name k is the k-th most frequent under the generator's
// Zipf sampler, and the families rotate so every popularity band mixes elementwise, reduction,
// GEMM, attention and communication kernels.
std::vector<KernelName> MakeKernelNames(size_t count);

// A CUDA API function that launches no GPU work (the generator's "other" calls).
struct ApiName {
  std::string name;     // as in StringIds, e.g. "cudaEventRecord_v3020"
  int64_t event_class;  // 0 CUDA runtime, 1 CUDA driver (ENUM_NSYS_EVENT_CLASS)
  int64_t base_ns;      // typical duration
  bool syncs_stream;    // blocks until the stream drains (cudaStreamSynchronize)
  bool syncs_device;    // blocks until every stream drains (cudaDeviceSynchronize)
};

// API names for the calls that are not launches, memcpys or memsets, most frequent first.
const std::vector<ApiName>& OtherApiNames();

inline constexpr const char* kLaunchApiName = "cudaLaunchKernel_v7000";
inline constexpr const char* kMemcpyApiName = "cudaMemcpyAsync_v3020";
inline constexpr const char* kMemsetApiName = "cudaMemsetAsync_v3020";

// An OS runtime function traced by nsys's osrt, most frequent first.
struct OsrtName {
  std::string name;
  int64_t base_ns;
};
const std::vector<OsrtName>& OsrtNames();

// NVTX range texts (PyTorch-like), most frequent first.
const std::vector<std::string>& NvtxNames();

// Thread names of a synthetic process; index 0 is the main thread.
std::string ThreadName(size_t index, const std::string& process_name);

}  // namespace gsys::bench
