// SPDX-License-Identifier: Apache-2.0
#include "export/perfetto/track_layout.h"

#include <algorithm>

namespace gsys::export_ {
namespace {

// Kinds of logical track (the first half of their key).
enum Group {
  kCudaApi = 0,
  kNvtx = 1,
  kOsrt = 2,
  kNvtxAsync = 3,
  kGpuStream = 4,
  kThreadState = 5,
  kLibrary = 6
};

Group GroupOf(EventKind kind) {
  switch (kind) {
    case EventKind::kCudaApi:
      return kCudaApi;
    case EventKind::kNvtxRange:
    case EventKind::kNvtxMark:
      return kNvtx;
    case EventKind::kNvtxAsync:
      return kNvtxAsync;
    case EventKind::kOsrt:
      return kOsrt;
    case EventKind::kKernel:
    case EventKind::kMemcpy:
    case EventKind::kMemset:
      return kGpuStream;
    case EventKind::kCpuSample:
      return kNvtx;  // not placed: samples are PerfSample packets
    case EventKind::kThreadState:
      return kThreadState;
    case EventKind::kLibraryCall:
      return kLibrary;
  }
  return kCudaApi;
}

}  // namespace

void TrackLayout::TakeEndsUpTo(int64_t ts, std::vector<End>* ends) {
  while (!heap_.empty() && heap_.top().end <= ts) {
    OpenEnd top = heap_.top();
    heap_.pop();
    // Inner slices end first (heap order), so this is the top of its lane's stack.
    top.lane->ends.pop_back();
    ends->push_back(End{top.end, top.lane->uuid});
  }
}

uint64_t TrackLayout::ProcessTrack(int64_t global_pid, std::vector<NewTrack>* out) {
  auto it = processes_.find(global_pid);
  if (it != processes_.end()) return it->second;
  uint64_t uuid = NewUuid();
  processes_.emplace(global_pid, uuid);
  NewTrack track{NewTrack::Kind::kProcess, uuid, 0, PidOf(global_pid), 0, ""};
  auto name = info_.process_names.find(global_pid);
  if (name != info_.process_names.end()) track.name = name->second;
  out->push_back(std::move(track));
  return uuid;
}

uint64_t TrackLayout::ThreadTrack(int64_t global_tid, std::vector<NewTrack>* out) {
  auto it = threads_.find(global_tid);
  if (it != threads_.end()) return it->second;
  uint64_t parent = ProcessTrack(ProcessOf(global_tid), out);
  uint64_t uuid = NewUuid();
  threads_.emplace(global_tid, uuid);
  NewTrack track{NewTrack::Kind::kThread, uuid, parent, PidOf(global_tid), TidOf(global_tid), ""};
  auto name = info_.thread_names.find(global_tid);
  if (name != info_.thread_names.end()) track.name = name->second;
  out->push_back(std::move(track));
  return uuid;
}

uint64_t TrackLayout::GpuTrack(int64_t device, std::vector<NewTrack>* out) {
  auto it = gpus_.find(device);
  if (it != gpus_.end()) return it->second;
  uint64_t uuid = NewUuid();
  gpus_.emplace(device, uuid);
  std::string name =
      (gpu_label_.empty() ? "" : gpu_label_ + ": ") + "GPU " + std::to_string(device);
  auto gpu = info_.gpu_names.find(device);
  if (gpu != info_.gpu_names.end()) name += " (" + gpu->second + ")";
  out->push_back(NewTrack{NewTrack::Kind::kNamed, uuid, 0, 0, 0, name});
  return uuid;
}

uint64_t TrackLayout::MemoryTrack(int64_t global_pid, int64_t device,
                                  std::vector<NewTrack>* new_tracks) {
  auto it = memory_.find({global_pid, device});
  if (it != memory_.end()) return it->second;
  uint64_t parent = ProcessTrack(global_pid, new_tracks);
  uint64_t uuid = NewUuid();
  memory_.emplace(std::make_pair(global_pid, device), uuid);
  new_tracks->push_back(NewTrack{NewTrack::Kind::kCounter, uuid, parent, 0, 0,
                                 "GPU " + std::to_string(device) + " memory (bytes)"});
  return uuid;
}

uint64_t TrackLayout::GpuMetricTrack(int64_t device, std::string_view group,
                                     std::string_view metric, bool bytes,
                                     std::vector<NewTrack>* new_tracks) {
  auto it = metrics_.find(std::make_pair(device, std::string(metric)));
  if (it != metrics_.end()) return it->second;
  auto [g, inserted] = metric_groups_.try_emplace(device, 0);
  if (inserted) {
    g->second = NewUuid();
    std::string name = (gpu_label_.empty() ? "" : gpu_label_ + ": ") + std::string(group);
    new_tracks->push_back(NewTrack{NewTrack::Kind::kNamed, g->second, 0, 0, 0, std::move(name)});
  }
  uint64_t uuid = NewUuid();
  metrics_.emplace(std::make_pair(device, std::string(metric)), uuid);
  NewTrack track{NewTrack::Kind::kCounter, uuid, g->second, 0, 0, std::string(metric)};
  track.bytes = bytes;
  new_tracks->push_back(std::move(track));
  return uuid;
}

TrackLayout::Logical& TrackLayout::LogicalTrack(const TimelineEvent& event,
                                                std::vector<NewTrack>* out) {
  Group group = GroupOf(event.kind);
  int64_t id = group == kGpuStream   ? (event.device_id << 32) ^ (event.stream_id & 0xFFFFFFFF)
               : group == kNvtxAsync ? event.global_pid
                                     : event.global_tid;
  auto [it, inserted] = logical_.try_emplace({group, id});
  Logical& logical = it->second;
  if (!inserted) return logical;
  logical.lanes.reserve(kMaxLanes);
  switch (group) {
    case kCudaApi:
      logical.name = "CUDA API";
      break;
    case kNvtx:
      logical.name = "NVTX";
      break;
    case kOsrt:
      logical.name = "OS runtime";
      break;
    case kNvtxAsync:
      logical.name = "NVTX start/end";
      break;
    case kGpuStream:
      logical.name = "Stream " + std::to_string(event.stream_id);
      break;
    case kThreadState:
      logical.name = "Thread state";
      break;
    case kLibrary:
      logical.name = "Library calls";
      break;
  }
  logical.parent_uuid = group == kGpuStream   ? GpuTrack(event.device_id, out)
                        : group == kNvtxAsync ? ProcessTrack(event.global_pid, out)
                                              : ThreadTrack(event.global_tid, out);
  return logical;
}

uint64_t TrackLayout::Place(const TimelineEvent& event, std::vector<NewTrack>* new_tracks) {
  Logical& logical = LogicalTrack(event, new_tracks);
  bool instant = event.kind == EventKind::kNvtxMark;
  Lane* lane = nullptr;
  for (Lane& candidate : logical.lanes) {
    if (instant || candidate.ends.empty() || event.end <= candidate.ends.back()) {
      lane = &candidate;
      break;
    }
  }
  int64_t end = event.end;
  if (lane == nullptr && logical.lanes.size() == kMaxLanes) {
    // Deeper overlap than any real trace has: clamp into the last lane rather than grow.
    lane = &logical.lanes.back();
    end = std::min(end, lane->ends.back());
  }
  if (lane == nullptr) {
    Lane fresh;
    fresh.uuid = NewUuid();
    std::string name = logical.name;
    if (!logical.lanes.empty()) name += " #" + std::to_string(logical.lanes.size() + 1);
    new_tracks->push_back(
        NewTrack{NewTrack::Kind::kNamed, fresh.uuid, logical.parent_uuid, 0, 0, std::move(name)});
    logical.lanes.push_back(std::move(fresh));
    lane = &logical.lanes.back();
  }
  if (!instant) {
    lane->ends.push_back(end);
    heap_.push(OpenEnd{end, lane->ends.size(), lane});
  }
  return lane->uuid;
}

}  // namespace gsys::export_
