// SPDX-License-Identifier: Apache-2.0
// The timeline of `gsys summary`: every kernel, memcpy and memset (a row per GPU and stream), and
// per thread its NVTX ranges and marks, CUDA API calls, OS runtime calls, library calls (cuDNN,
// cuBLAS, MPI), CPU samples and its time on CPUs (SCHED_EVENTS) (a row each), read
// from the report through the reader's filter (--filter-time / --filter-nvtx).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "common/status.h"
#include "html/timeline.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::cli {

// Reads the timeline of `reader`'s report within its active filter. At most `max_events` events
// are returned (the earliest by start); the others are counted in Timeline::left_out.
Result<html::Timeline> ReadTimeline(report::ReportReader& reader, size_t max_events);

namespace timeline_internal {

// Where an event goes: (0, device, globalPid, stream, 0) for GPU rows, (1, globalTid >> 24,
// globalTid, 0, sub) for thread rows, sub being kThread* below. Rows sort by key.
using RowKey = std::tuple<int, int64_t, int64_t, int64_t, int>;
inline constexpr int kThreadNvtx = 0, kThreadCudaApi = 1, kThreadOsrt = 2, kThreadSamples = 3,
                     kThreadScheduling = 4, kThreadLibrary = 5;

struct RawEvent {
  int64_t start = 0, end = 0;
  RowKey row;
  uint32_t name = 0, detail = 0;  // ids in the timeline's string table
  html::TimelineKind kind = html::TimelineKind::kKernel;
};

// Collects events up to a cap: beyond 2 x cap it keeps the earliest cap by start and counts the
// rest, so memory stays O(cap) however large the report.
class EventSink {
 public:
  explicit EventSink(size_t cap) : cap_(cap) {}
  void Add(RawEvent e);
  // The earliest `cap` events; `left_out` counts the others.
  std::vector<RawEvent> Finish(uint64_t* left_out);
  size_t cap() const { return cap_; }

 private:
  void Trim();
  size_t cap_;
  std::vector<RawEvent> events_;
  uint64_t dropped_ = 0;
};

// Nesting lanes: per row, events sorted by start; an event's depth is the number of earlier
// events of its row still open at its start (NVTX ranges nest; others mostly get 0).
std::vector<uint8_t> NestingDepths(const std::vector<RawEvent>& sorted_by_row_and_start);

// Reads every source table of `reader` into `sink`, names interned in `strings`.
Status ReadTimelineSources(report::ReportReader& reader, html::TimelineStrings& strings,
                           EventSink& sink);

}  // namespace timeline_internal
}  // namespace gsys::cli
