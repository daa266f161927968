// SPDX-License-Identifier: Apache-2.0
// ReadTimeline: the rows (labels from PROCESSES and ThreadNames), the cap and the nesting lanes
// around the source queries of summary_command_timeline_sources.cc.
#include "cli/summary_command_timeline.h"

#include <algorithm>
#include <map>

#include "common/saturating.h"
#include "report/db/database.h"
#include "report/reader/report_reader.h"

namespace gsys::cli {
namespace timeline_internal {

void EventSink::Add(RawEvent e) {
  events_.push_back(e);
  if (events_.size() >= 2 * cap_ + 1024) Trim();
}

void EventSink::Trim() {
  if (events_.size() <= cap_) return;
  std::nth_element(events_.begin(), events_.begin() + static_cast<ptrdiff_t>(cap_), events_.end(),
                   [](const RawEvent& a, const RawEvent& b) { return a.start < b.start; });
  dropped_ += events_.size() - cap_;
  events_.resize(cap_);
}

std::vector<RawEvent> EventSink::Finish(uint64_t* left_out) {
  Trim();
  *left_out = dropped_;
  return std::move(events_);
}

std::vector<uint8_t> NestingDepths(const std::vector<RawEvent>& sorted) {
  std::vector<uint8_t> depth(sorted.size(), 0);
  std::vector<int64_t> open;  // ends of the enclosing events, innermost last
  for (size_t i = 0; i < sorted.size(); ++i) {
    if (i == 0 || sorted[i].row != sorted[i - 1].row) open.clear();
    while (!open.empty() && open.back() <= sorted[i].start) open.pop_back();
    depth[i] = static_cast<uint8_t>(std::min<size_t>(open.size(), 255));
    if (sorted[i].end > sorted[i].start) open.push_back(sorted[i].end);
  }
  return depth;
}

}  // namespace timeline_internal

namespace {

using timeline_internal::RawEvent;
using timeline_internal::RowKey;

struct Names {
  std::map<int64_t, std::string> processes;  // globalTid >> 24 -> name
  std::map<int64_t, std::string> threads;    // globalTid -> name
};

Result<Names> ReadNames(report::Database& db) {
  Names names;
  GSYS_ASSIGN_OR_RETURN(report::Statement p, db.Prepare("SELECT globalPid, name FROM PROCESSES"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, p.Step());
    if (!row) break;
    if (!p.IsNull(1)) names.processes[p.ColumnInt(0) >> 24] = std::string(p.ColumnText(1));
  }
  GSYS_ASSIGN_OR_RETURN(report::Statement t,
                        db.Prepare("SELECT globalTid, (SELECT value FROM StringIds WHERE id ="
                                   " nameId) FROM ThreadNames"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, t.Step());
    if (!row) break;
    if (!t.IsNull(1)) names.threads[t.ColumnInt(0)] = std::string(t.ColumnText(1));
  }
  return names;
}

std::string RowLabel(const RowKey& key, const Names& names, bool several_gpu_processes) {
  auto [group, a, b, c, sub] = key;
  if (group == 0) {
    std::string label = "GPU " + std::to_string(a) + " \xC2\xB7 stream " + std::to_string(c);
    if (several_gpu_processes) label += " \xC2\xB7 pid " + std::to_string((b >> 24) & 0xFFFFFF);
    return label;
  }
  static constexpr const char* kSub[] = {"NVTX",        "CUDA API",   "OS runtime",
                                         "CPU samples", "scheduling", "library calls"};
  auto process = names.processes.find(a);
  auto thread = names.threads.find(b);
  std::string label = (process == names.processes.end() ? std::string("pid") : process->second) +
                      " [" + std::to_string(a & 0xFFFFFF) + "] \xC2\xB7 " +
                      std::to_string(b & 0xFFFFFF);
  if (thread != names.threads.end()) label += " (" + thread->second + ")";
  return label + " \xC2\xB7 " + kSub[sub];
}

}  // namespace

Result<html::Timeline> ReadTimeline(report::ReportReader& reader, size_t max_events) {
  html::TimelineStrings strings;
  timeline_internal::EventSink sink(max_events);
  GSYS_RETURN_IF_ERROR(timeline_internal::ReadTimelineSources(reader, strings, sink));
  GSYS_ASSIGN_OR_RETURN(Names names, ReadNames(reader.db()));
  html::Timeline timeline;
  timeline.title = "Timeline";
  std::vector<RawEvent> events = sink.Finish(&timeline.left_out);
  std::sort(events.begin(), events.end(), [](const RawEvent& x, const RawEvent& y) {
    if (x.row != y.row) return x.row < y.row;
    if (x.start != y.start) return x.start < y.start;
    return x.end > y.end;  // the enclosing range first
  });
  std::vector<uint8_t> depth = timeline_internal::NestingDepths(events);
  std::map<int64_t, bool> gpu_processes;
  for (const RawEvent& e : events) {
    if (std::get<0>(e.row) == 0) gpu_processes[std::get<2>(e.row)] = true;
  }
  for (size_t i = 0; i < events.size(); ++i) {
    const RawEvent& e = events[i];
    if (i == 0 || e.row != events[i - 1].row) {
      timeline.rows.push_back(
          {RowLabel(e.row, names, gpu_processes.size() > 1),
           std::get<4>(e.row) == timeline_internal::kThreadSamples && std::get<0>(e.row) == 1});
    }
    // Saturating: a damaged report can hold a span of INT64_MIN..INT64_MAX.
    timeline.events.push_back({e.start, SaturatingSub(e.end, e.start),
                               static_cast<uint32_t>(timeline.rows.size() - 1), e.name, e.detail,
                               e.kind, depth[i]});
  }
  timeline.strings = strings.Take();
  timeline.left_out_hint =
      "Narrow the page with `gsys summary --filter-time START/END` or `--filter-nvtx RANGE` to "
      "see them.";
  return timeline;
}

}  // namespace gsys::cli
