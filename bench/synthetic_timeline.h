// SPDX-License-Identifier: Apache-2.0
// The event model behind synthetic reports: a deterministic simulation of processes whose
// threads issue CUDA API calls (kernel launches, async memcpy/memset, other calls), OS runtime
// calls and nested NVTX push/pop ranges, with kernels and copies queued on GPU streams.
//
// Approach: the simulation walks S = max(api, nvtx, osrt) steps. Step s belongs to process
// s % processes, advances that process's clock by a few microseconds, picks a thread (mostly
// the main one) and issues the events due at s; "due" spreads each count evenly over the steps
// (DueAt), so the totals are exact. A thread never overlaps itself; a stream never overlaps
// itself; a kernel starts after its launch call starts; a launch blocks when its stream is more
// than kMaxQueueNs behind (CUDA's bounded launch queue), which keeps GPU-bound runs realistic.
// NVTX ranges nest per thread (a stack): a push precedes and a pop follows API calls on that
// thread, so ranges enclose the launches they annotate, as nvtx_kern_sum expects.
//
// Run() replays the whole simulation from the seed; the report writer calls it once per table
// so that each table's rows are written contiguously, as `nsys export` does. Memory is O(threads
// + streams + NVTX depth), independent of the event counts.
//
// Threading: single-threaded; one Timeline per run.
#pragma once

#include <cstdint>
#include <vector>

#include "bench/synthetic_names.h"
#include "common/status.h"

namespace gsys::bench {

// What to simulate. Negative counts mean "derive from the others" (ResolveCounts).
struct TimelineOptions {
  int64_t kernels = 1000;
  int64_t api = -1;     // runtime API rows in total, launches included; -1: kernels * 1.1
  int64_t nvtx = 0;     // NVTX push/pop ranges
  int64_t memcpy = -1;  // -1: 30 % of the non-launch API calls
  int64_t memset = -1;  // -1: 10 % of the non-launch API calls
  int64_t osrt = -1;    // -1: api / 20
  int64_t processes = 1;
  int64_t threads = 4;  // per process; thread 0 is the main thread and does most launches
  int64_t streams = 4;  // per process
  int64_t kernel_names = 300;
  uint64_t seed = 1;
};

// Fills in the derived counts and validates: every count >= 0, api >= kernels + memcpy +
// memset (each kernel, memcpy and memset has its own API call), processes/threads/streams/names
// in sane ranges.
Status ResolveCounts(TimelineOptions& options);

struct ApiEvent {
  int64_t start, end, event_class, global_tid, correlation_id;
  enum class Kind { kLaunch, kMemcpy, kMemset, kOther } kind;
  size_t other_index;  // into OtherApiNames() when kind == kOther
};
struct KernelEvent {
  int64_t start, end, device, stream, correlation_id, global_pid, grid_id;
  size_t name_index;  // into the kernel name table
};
struct MemcpyEvent {
  int64_t start, end, device, stream, correlation_id, global_pid, bytes, copy_kind, src_kind,
      dst_kind;
};
struct MemsetEvent {
  int64_t start, end, device, stream, correlation_id, global_pid, bytes, value;
};
struct NvtxEvent {
  int64_t start, end, global_tid;
  size_t name_index;  // into NvtxNames()
};
struct OsrtEvent {
  int64_t start, end, global_tid, nesting_level;
  size_t name_index;  // into OsrtNames()
};

// Receives the simulated events. Each method has a no-op default so a pass that writes one
// table overrides one method. A non-ok Status stops the run.
class TimelineSink {
 public:
  virtual ~TimelineSink() = default;
  virtual Status OnApi(const ApiEvent&) { return OkStatus(); }
  virtual Status OnKernel(const KernelEvent&) { return OkStatus(); }
  virtual Status OnMemcpy(const MemcpyEvent&) { return OkStatus(); }
  virtual Status OnMemset(const MemsetEvent&) { return OkStatus(); }
  virtual Status OnNvtx(const NvtxEvent&) { return OkStatus(); }
  virtual Status OnOsrt(const OsrtEvent&) { return OkStatus(); }
};

// Identity of a simulated process and its threads, for PROCESSES and ThreadNames.
struct ProcessInfo {
  int64_t pid;
  int64_t global_pid;
  int64_t device;
  std::vector<int64_t> global_tids;  // index 0 = main thread
  std::vector<int64_t> stream_ids;
};

inline constexpr int64_t kSessionOriginNs = 400'000'000;  // first event, after "start-up"
inline constexpr int64_t kMaxQueueNs = 5'000'000;

class Timeline {
 public:
  // `options` must have passed ResolveCounts; `kernel_names` has options.kernel_names entries.
  Timeline(const TimelineOptions& options, const std::vector<KernelName>& kernel_names);

  // Simulates everything from the seed and feeds every event to `sink`.
  Status Run(TimelineSink& sink) const;

  const std::vector<ProcessInfo>& processes() const { return processes_; }

 private:
  TimelineOptions options_;
  const std::vector<KernelName>& kernel_names_;
  std::vector<ProcessInfo> processes_;
};

}  // namespace gsys::bench
