// SPDX-License-Identifier: Apache-2.0
// One rank's Kineto trace (the JSON torch.profiler writes): the top-level metadata HTA and
// TraceLens read, then the rank's events in Kineto's names, categories and args.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <utility>

#include "common/status.h"
#include "export/exporter.h"
#include "export/kineto/external_ids.h"
#include "export/kineto/kineto_ranks.h"
#include "export/output_file.h"
#include "export/timeline/timeline_event.h"

namespace gsys::export_ {

// The report-wide facts every rank's file repeats.
struct KinetoTraceInfo {
  const ReportInfo* report = nullptr;
  std::string device_properties;  // JSON array (device_properties.h)
};

// Writes one file. Layout: host events on pid = the process's pid, tid = its thread; GPU work on
// pid = GpuPid(device) (chrome/trace_event_json.h: never a host pid), tid = stream; flows "s"/"f"
// "ac2g" with id = correlation id (unique within a process, so within the file). Feed Write() the
// process's events in TimelineSource order. One thread.
class KinetoTraceFile {
 public:
  // Creates `path` (inside an OutputDirectory: written in place) and writes the header.
  static Result<KinetoTraceFile> Create(const std::string& path, const KinetoRank& rank,
                                        const KinetoTraceInfo& info);

  Status Write(const TimelineEvent& e, ExportStats* stats);
  // Closes the JSON and the file.
  Status Finish(ExportStats* stats);

 private:
  KinetoTraceFile(OutputFile file, const KinetoRank& rank, const KinetoTraceInfo& info)
      : file_(std::move(file)), rank_(rank), info_(info) {}
  void WriteHeader(const std::string& path);
  void WriteGpu(const TimelineEvent& e, int64_t correlation, std::optional<int64_t> external);
  void WriteHost(const TimelineEvent& e, int64_t correlation, std::optional<int64_t> external,
                 ExportStats* stats);

  OutputFile file_;
  KinetoRank rank_;
  KinetoTraceInfo info_;
  ExternalIds external_ids_;
  std::set<int64_t> devices_;                      // GPUs named so far
  std::set<std::pair<int64_t, int64_t>> streams_;  // (device, stream) named so far
};

}  // namespace gsys::export_
