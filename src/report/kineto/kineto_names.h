// SPDX-License-Identifier: Apache-2.0
// The vocabulary of Kineto traces mapped onto nsys's: event categories, memcpy and memset names
// ("Memcpy HtoD (Pinned -> Device)", written by Kineto and by gsys's own Kineto exporter),
// synchronization kinds and torch dtype sizes. Pure functions.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gsys::report::kineto {

enum class EventClass {
  kCpuOp,           // cpu_op (Operator in older traces)
  kUserAnnotation,  // user_annotation (record_function)
  kPythonFunction,  // python_function (with_stack)
  kRuntime,         // cuda_runtime
  kDriver,          // cuda_driver
  kKernel,          // kernel
  kMemcpy,          // gpu_memcpy
  kMemset,          // gpu_memset
  kSync,            // cuda_sync
  kTraceSpan,       // Trace: the profiler's own span
  kOther,           // anything gsys has no table for
};

// Case-insensitive, older names included (Kernel, Memcpy, Runtime, Operator).
EventClass ClassifyCategory(std::string_view cat);

// NVTX category ids gsys gives the CPU-side classes (NVTX_EVENTS.category) and their names.
int64_t NvtxCategoryOf(EventClass c);
std::string_view NvtxCategoryName(int64_t category);

struct CopyKinds {
  int64_t copy_kind = 0;               // ENUM_CUDA_MEMCPY_OPER
  int64_t src_kind = 7, dst_kind = 7;  // ENUM_CUDA_MEM_KIND (7 unknown)
};
// "Memcpy HtoD (Pinned -> Device)"; `kind_arg` (ROCm's args.kind, "HtoD") when the name lacks it.
CopyKinds ParseMemcpyName(std::string_view name, std::string_view kind_arg);
// "Memset (Device)" -> ENUM_CUDA_MEM_KIND.
int64_t ParseMemsetKind(std::string_view name);
// cuda_sync_kind ("Stream Sync", "Event Sync", "Stream Wait Event", "Context Sync") ->
// ENUM_CUPTI_SYNC_TYPE; 0 unknown.
int64_t ParseSyncKind(std::string_view kind);
// A kernel name as nsys and gsys's demangler spell it: CUPTI's "(anonymous namespace)" is
// "<unnamed>" there (report/import/cuda/cuda_names.h), so one kernel has one name in every report.
std::string NsysKernelName(std::string_view kineto_name);

// Bytes per element of a torch dtype name ("Float" 4, "BFloat16" 2); nullopt when unknown.
std::optional<int64_t> DtypeSize(std::string_view dtype);

}  // namespace gsys::report::kineto
