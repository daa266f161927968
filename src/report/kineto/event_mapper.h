// SPDX-License-Identifier: Apache-2.0
// EventMapper: the TraceSink that turns Kineto events into report rows as they stream in.
//   cpu_op / user_annotation / python_function  -> NVTX_EVENTS push/pop ranges (category 1/2/3,
//                                                  named in NVTX category rows), on their thread
//   cuda_runtime / cuda_driver                   -> CUPTI_ACTIVITY_KIND_RUNTIME (eventClass 0/1)
//   kernel, gpu_memcpy, gpu_memset, cuda_sync    -> CUPTI_ACTIVITY_KIND_KERNEL, _MEMCPY, _MEMSET,
//                                                  _SYNCHRONIZATION (device, context, stream,
//                                                  correlation as Kineto recorded them)
//   "Collective name" args (NCCL kernels, record_param_comms) -> GSYS_COLLECTIVES
//   M process/thread names, deviceProperties     -> PROCESSES, ThreadNames, TARGET_INFO_GPU
// Timestamps become ns since the session start (the earliest event): rows are written relative
// to the first event seen and shifted once at Finish when an earlier one came later.
// GPU rows belong to the trace's process (Kineto puts them on pid = device): the first process
// with CPU events. Whatever has no table is counted (GSYS_DIAGNOSTICS), never silently dropped.
// Memory: per-trace maps of names, threads, streams and correlation ids; no events are kept.
// One thread.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "common/status.h"
#include "report/import/report_writer.h"
#include "report/kineto/table_writer.h"
#include "report/kineto/trace_handler.h"

namespace gsys::report::kineto {

struct MapperStats {
  uint64_t cpu_ops = 0, annotations = 0, python_functions = 0, runtime = 0, driver = 0, kernels = 0,
           memcpys = 0, memsets = 0, syncs = 0, collectives = 0, events = 0, processes = 0;
  uint64_t unmapped = 0, malformed = 0, tids_renumbered = 0, pids_renumbered = 0, gpu_unmatched = 0,
           strings_truncated = 0;
  std::map<std::string, uint64_t> unmapped_by_kind;  // "gpu_user_annotation", "ph i", ...
};

class EventMapper : public TraceSink {
 public:
  explicit EventMapper(ReportWriter* writer) : w_(writer) {}
  Status Begin();

  bool OnEvent(const TraceEvent& e) override;
  void OnDevice(const DeviceProperties& d) override { devices_.push_back(d); }
  void OnDistributed(const DistributedInfo& d) override {
    dist_ = d;
    has_dist_ = true;
  }
  void OnTopScalar(const std::string& key, const std::string& value) override;

  // After the parse: the time shift, processes, threads, GPUs, streams, NVTX categories,
  // session tables and diagnostics.
  // `non_objects`: traceEvents entries that were not objects (counted as malformed).
  Status Finish(uint64_t truncated_strings, uint64_t non_objects);

  // The first error a row insert hit (the parse stops on it).
  const Status& status() const { return status_; }
  const MapperStats& stats() const { return stats_; }
  // The session start in Kineto's clock (ns) and as UTC ns (0 when the trace does not say).
  int64_t origin_ns() const { return origin_ + shift_; }
  int64_t utc_start_ns() const;
  const std::map<std::string, std::string>& top_scalars() const { return top_; }
  const DistributedInfo* distributed() const { return has_dist_ ? &dist_ : nullptr; }

 private:
  Status Map(const TraceEvent& e);
  Status MapCpuRange(const TraceEvent& e, int64_t category);
  Status MapRuntime(const TraceEvent& e, int64_t event_class);
  Status MapKernel(const TraceEvent& e);
  Status MapMemcpy(const TraceEvent& e);
  Status MapMemset(const TraceEvent& e);
  Status MapSync(const TraceEvent& e);
  Status MapCollective(const TraceEvent& e, bool gpu, int64_t start, int64_t end, Opt gtid);
  void MapMetadata(const TraceEvent& e);
  void Unmapped(const TraceEvent& e);
  // ns since the provisional origin (the first event's ts).
  int64_t Rel(int64_t ns);
  uint32_t Pid(int64_t pid);
  uint32_t Tid(uint32_t pid, const TrackId& tid);
  Opt MainGlobalPid() const;
  int64_t GpuDevice(const TraceEvent& e) const;
  int64_t GpuStream(const TraceEvent& e) const;
  void NoteGpu(const TraceEvent& e, int64_t device);
  // [start, end] of complete event `e` on the report's timeline; extends the trace's end.
  std::pair<int64_t, int64_t> EventSpan(const TraceEvent& e);
  Result<int64_t> Intern(std::string_view s) { return w_->Intern(s); }
  Status ShiftTimes();
  Status WriteProcessesAndThreads();
  Status WriteGpus();
  Status WriteDiagnostics();

  ReportWriter* w_;
  TableWriter tables_;
  Status status_;
  MapperStats stats_;
  bool origin_set_ = false;
  int64_t origin_ = 0, shift_ = 0;  // shift_ <= 0: the earliest start relative to origin_
  int64_t min_rel_ = 0, max_rel_ = 0;
  std::optional<uint32_t> main_pid_;
  std::map<uint32_t, uint64_t> cpu_pids_;  // pid -> events
  std::map<int64_t, uint32_t> pid_map_;    // pids outside 24 bits -> renumbered
  std::map<std::pair<uint32_t, std::string>, uint32_t> tid_map_;  // renumbered tids
  std::map<uint32_t, uint32_t> next_tid_;  // per pid, the next renumbered tid (counts down)
  std::set<std::pair<uint32_t, uint32_t>> threads_;  // (pid, tid) with events
  std::map<std::pair<uint32_t, uint32_t>, std::string> thread_names_;
  std::map<int64_t, std::string> process_names_;  // raw Kineto pid -> name
  std::unordered_map<std::string, std::pair<int64_t, int64_t>> kernel_names_;
  std::unordered_set<int64_t> api_correlations_, gpu_correlations_;
  std::set<std::tuple<int64_t, int64_t, int64_t>> streams_;  // (device, context, stream)
  std::set<int64_t> gpu_devices_;
  std::set<int64_t> nvtx_categories_;
  std::vector<DeviceProperties> devices_;
  DistributedInfo dist_;
  bool has_dist_ = false;
  std::map<std::string, std::string> top_;
  bool null_gpu_pid_ = false;  // GPU rows written before the process was known
};

}  // namespace gsys::report::kineto
