// SPDX-License-Identifier: Apache-2.0
// TrackLayout: which Perfetto track each timeline event goes on (no encoding here; see
// proto_writer.h).
#pragma once

#include <cstdint>
#include <map>
#include <queue>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "export/timeline/timeline_event.h"

namespace gsys::export_ {

// The layout:
//   process "NAME" (pid)                     one per process
//     thread "NAME" (tid)                    one per thread
//       "CUDA API", "NVTX", "OS runtime"     slices of that thread (NVTX marks as instants)
//     "NVTX start/end"                       start/end ranges of the process (async)
//     "GPU N memory (bytes)"                 counter: that process's memory on device N
//   "GPU N (NAME)"                           one per device
//     "Stream S"                             kernels, copies and memsets of that stream
//   "GPU N metrics (NAME)"                   one per sampled GPU (GpuMetricsSource)
//     "SM clock (MHz)", ...                  counter: one per metric
//
// Perfetto slices on one track must nest. Events arrive in start order (ties: longer first), so
// each track keeps a stack of the ends of its open slices; an event that would cross the top of
// the stack (overlapping GPU work, start/end ranges, clock skew) goes on the first sibling lane
// where it nests ("Stream 7 #2"), created when needed. All open ends sit in one min-heap, so
// TakeEndsUpTo returns the slice ends in time order and the output stays sorted.
// Memory: the tracks (bounded by processes, threads, streams and the overlap depth) and the open
// slices, never the number of events. Threading: one thread.
class TrackLayout {
 public:
  struct NewTrack {
    enum class Kind { kProcess, kThread, kNamed, kCounter } kind = Kind::kNamed;
    uint64_t uuid = 0;
    uint64_t parent_uuid = 0;
    int64_t pid = 0;
    int64_t tid = 0;
    std::string name;
    bool bytes = true;  // kCounter: values are bytes
  };
  struct End {
    int64_t ts = 0;
    uint64_t track_uuid = 0;
  };

  // `first_uuid`: where this layout's track uuids start (reports merged into one trace each get
  // their own range); `gpu_label`: prefix of GPU track names ("rank_1: GPU 1 (...)"), or empty.
  explicit TrackLayout(const ReportInfo& info, uint64_t first_uuid = 1, std::string gpu_label = "")
      : info_(info),
        first_uuid_(first_uuid),
        next_uuid_(first_uuid),
        gpu_label_(std::move(gpu_label)) {}

  // Appends to `ends` the ends of open slices at or before `ts`, in time order (inner first).
  void TakeEndsUpTo(int64_t ts, std::vector<End>* ends);
  // Appends every remaining end.
  void TakeAllEnds(std::vector<End>* ends) { TakeEndsUpTo(INT64_MAX, ends); }
  // The track of `event` (a slice unless it is a mark); call TakeEndsUpTo(event.start) first.
  // Tracks created for it are appended to `new_tracks`, parents first.
  uint64_t Place(const TimelineEvent& event, std::vector<NewTrack>* new_tracks);

  // The counter track of `global_pid`'s memory usage on `device` (under its process track),
  // created on first use; new tracks are appended to `new_tracks`, parents first.
  uint64_t MemoryTrack(int64_t global_pid, int64_t device, std::vector<NewTrack>* new_tracks);

  // The counter track of metric `metric` of GPU `device`, under the top-level group `group` of
  // that GPU, both created on first use (new tracks appended to `new_tracks`, parents first).
  uint64_t GpuMetricTrack(int64_t device, std::string_view group, std::string_view metric,
                          bool bytes, std::vector<NewTrack>* new_tracks);

  // The thread track of a CPU sample's thread (PerfSample packets name the thread by pid/tid;
  // the descriptor names it), created on first use.
  uint64_t SampledThreadTrack(int64_t global_tid, std::vector<NewTrack>* new_tracks) {
    return ThreadTrack(global_tid, new_tracks);
  }

  size_t tracks() const { return next_uuid_ - first_uuid_; }
  size_t open_slices() const { return heap_.size(); }

 private:
  struct Lane {
    uint64_t uuid = 0;
    std::vector<int64_t> ends;  // stack of open slice ends, innermost last
  };
  struct Logical {
    uint64_t parent_uuid = 0;
    std::string name;
    std::vector<Lane> lanes;
  };
  struct OpenEnd {
    int64_t end;
    size_t depth;
    Lane* lane;  // lanes are never moved: Logical::lanes reserves kMaxLanes
    bool operator>(const OpenEnd& o) const { return end != o.end ? end > o.end : depth < o.depth; }
  };
  static constexpr size_t kMaxLanes = 64;

  uint64_t NewUuid() { return next_uuid_++; }
  uint64_t ProcessTrack(int64_t global_pid, std::vector<NewTrack>* out);
  uint64_t ThreadTrack(int64_t global_tid, std::vector<NewTrack>* out);
  uint64_t GpuTrack(int64_t device, std::vector<NewTrack>* out);
  Logical& LogicalTrack(const TimelineEvent& event, std::vector<NewTrack>* out);

  const ReportInfo& info_;
  uint64_t first_uuid_;
  uint64_t next_uuid_;
  std::string gpu_label_;
  std::map<int64_t, uint64_t> processes_, threads_, gpus_;
  std::map<std::pair<int64_t, int64_t>, uint64_t> memory_;  // (globalPid, device) -> counter
  std::map<int64_t, uint64_t> metric_groups_;               // device -> group track
  std::map<std::pair<int64_t, std::string>, uint64_t, std::less<>> metrics_;  // (device, metric)
  std::map<std::pair<int, int64_t>, Logical> logical_;
  std::priority_queue<OpenEnd, std::vector<OpenEnd>, std::greater<>> heap_;
};

}  // namespace gsys::export_
