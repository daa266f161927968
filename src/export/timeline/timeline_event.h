// SPDX-License-Identifier: Apache-2.0
// TimelineEvent: one row of a report's event tables as the timeline formats (perfetto, chrome)
// see it, independent of the output encoding.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gsys::export_ {

enum class EventKind : uint8_t {
  kCudaApi,      // CUPTI_ACTIVITY_KIND_RUNTIME (runtime and driver calls)
  kKernel,       // CUPTI_ACTIVITY_KIND_KERNEL
  kMemcpy,       // CUPTI_ACTIVITY_KIND_MEMCPY
  kMemset,       // CUPTI_ACTIVITY_KIND_MEMSET
  kNvtxRange,    // NVTX push/pop range (eventType 59, 70): a slice on its thread
  kNvtxAsync,    // NVTX start/end range (eventType 60, 71): may cross threads, overlap freely
  kNvtxMark,     // NVTX mark (eventType 34): an instant
  kOsrt,         // OSRT_API
  kCpuSample,    // COMPOSITE_EVENTS with its SAMPLING_CALLCHAINS stack: an instant on its thread
  kThreadState,  // SCHED_EVENTS, a switch in to the next switch out: "Running" on a CPU
  kLibraryCall,  // CUDNN_EVENTS, CUBLAS_EVENTS, MPI_*_EVENTS: a slice on its thread
};

inline bool IsGpuKind(EventKind kind) {
  return kind == EventKind::kKernel || kind == EventKind::kMemcpy || kind == EventKind::kMemset;
}

// One argument shown with an event (Perfetto debug annotation, Chrome "args" entry).
struct EventArg {
  std::string_view key;  // a string literal
  bool is_string = false;
  int64_t int_value = 0;
  std::string_view string_value;
};

// One frame of a sampled call stack.
struct StackFrame {
  std::string_view function;
  std::string_view module;
};

// Passive data; the string views stay valid until the source produces the next event.
struct TimelineEvent {
  static constexpr size_t kMaxArgs = 12;

  EventKind kind = EventKind::kCudaApi;
  int64_t start = 0;
  int64_t end = 0;         // == start for marks
  int64_t global_pid = 0;  // the process (globalTid with the tid bits cleared)
  int64_t global_tid = 0;  // CPU events: the thread; GPU events: 0
  int64_t device_id = -1;  // GPU events
  int64_t stream_id = -1;  // GPU events
  // Flow arrow id (FlowId): on an API call, the start of an arrow to its GPU work (set only on
  // launch, copy and memset calls); on GPU work, the arrow's end. 0: none.
  uint64_t flow_id = 0;
  int64_t async_id = 0;  // kNvtxAsync, kThreadState: unique per report
  std::string_view name;
  std::string_view category;  // "cuda_runtime", "cuda_driver", "kernel", "gpu_memcpy", ...
  std::array<EventArg, kMaxArgs> args{};
  size_t num_args = 0;
  // kCpuSample: the stack, innermost frame first (may be empty); nullptr for other kinds.
  const std::vector<StackFrame>* stack = nullptr;

  void AddInt(std::string_view key, int64_t value) {
    if (num_args < kMaxArgs) args[num_args++] = EventArg{key, false, value, {}};
  }
  void AddString(std::string_view key, std::string_view value) {
    if (num_args < kMaxArgs) args[num_args++] = EventArg{key, true, 0, value};
  }
};

// The flow arrow id of correlation id `correlation_id` in process `global_pid` (correlation ids
// are numbered per process): the process bits above the 32 bits of the correlation id.
inline uint64_t FlowId(int64_t global_pid, int64_t correlation_id) {
  return ((static_cast<uint64_t>(global_pid) >> 24) << 32) ^
         static_cast<uint64_t>(static_cast<uint32_t>(correlation_id));
}

// pid and tid parts of a serialized global id.
inline int64_t PidOf(int64_t global_id) { return (global_id >> 24) & 0xFFFFFF; }
inline int64_t TidOf(int64_t global_id) { return global_id & 0xFFFFFF; }
inline int64_t ProcessOf(int64_t global_tid) { return global_tid & ~int64_t{0xFFFFFF}; }

// Names and anchors of a report, loaded once (sizes bounded by processes, threads and GPUs).
struct ReportInfo {
  std::optional<int64_t> utc_epoch_ns;           // TARGET_INFO_SESSION_START_TIME
  std::map<int64_t, std::string> process_names;  // globalPid -> name
  std::map<int64_t, std::string> thread_names;   // globalTid -> name
  std::map<int64_t, std::string> gpu_names;      // deviceId -> "NVIDIA H200"
};

}  // namespace gsys::export_
