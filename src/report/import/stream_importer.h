// SPDX-License-Identifier: Apache-2.0
// StreamImporter: decodes the records of one raw stream (one process image). The session's
// own kinds (process start/end, thread names, data-quality counters, clock sync, thread gaps,
// capture windows) are read here; every other kind goes to the import module that owns it
// (import_module.h, through a ModuleTable), and a kind no module owns is counted as unknown.
// A missing chunk or a thread-gap record is a loss: each module hears of it (OnLoss) before
// the next record.
//
// Threading: one thread; one StreamImporter per stream.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "format/record.h"
#include "format/stream_reader.h"
#include "report/import/import_diagnostics.h"
#include "report/import/import_module.h"
#include "report/import/process_facts.h"
#include "report/import/tick_clock.h"

namespace gsys::report {

// Which module decodes each record kind (kinds above 255 belong to none).
class ModuleTable {
 public:
  explicit ModuleTable(const std::vector<ImportModule*>& modules);
  ImportModule* Owner(format::RecordKind kind) const {
    auto k = static_cast<uint16_t>(kind);
    return k < owners_.size() ? owners_[k] : nullptr;
  }
  const std::vector<ImportModule*>& modules() const { return modules_; }
  // "kind 17 is owned by nvtx and osrt" for each kind with two owners; empty when sound.
  const std::vector<std::string>& conflicts() const { return conflicts_; }

 private:
  std::vector<ImportModule*> modules_;
  std::array<ImportModule*, 256> owners_{};
  std::vector<std::string> conflicts_;
};

class StreamImporter {
 public:
  // `ticks`: the session's tick clock when this stream's event timestamps are ticks (it has
  // kClockSync records), nullptr when they are already ns.
  StreamImporter(const ModuleTable* modules, int64_t time_origin, ImportCounters* counters,
                 const TickClock* ticks = nullptr)
      : modules_(modules), counters_(counters), context_(&process_, time_origin, ticks) {}

  Status Import(const format::StreamFile& file);

  const ProcessFacts& process() const { return process_; }
  // Final thread names (NVTX names win over OS names), by tid.
  std::map<uint32_t, std::string> ThreadNames() const;
  const std::vector<CaptureWindowEvent>& windows() const { return windows_; }
  int64_t last_timestamp() const { return context_.last_ns(); }

 private:
  Status Record(const format::RecordView& r);
  void Loss(std::optional<uint32_t> tid);
  Status OnProcessStart(const format::RecordView& r);
  void OnCounter(const format::RecordView& r);
  void Malformed() { ++(*counters_)[ImportCounter::kMalformedRecords]; }

  const ModuleTable* modules_;
  ImportCounters* counters_;
  ProcessFacts process_;
  StreamContext context_;
  std::map<uint32_t, std::string> os_names_, nvtx_names_;
  std::vector<CaptureWindowEvent> windows_;
  uint64_t dropped_ = 0, without_buffer_ = 0;
  uint64_t truncated_text_ = 0;  // CounterId::kTruncatedText, largest value seen
  uint64_t reserve_records_ = 0, reserve_bytes_ = 0;  // disk reserve (cumulative counters)
};

}  // namespace gsys::report
