// SPDX-License-Identifier: Apache-2.0
// StackImport, the stacks import module: the stack records (kinds 112..127,
// format/stack_records.h) -> nsys's CUDA_CALLCHAINS, OSRT_CALLCHAINS, COMPOSITE_EVENTS,
// SAMPLING_CALLCHAINS and SCHED_EVENTS, plus GSYS_PYTHON_CALLCHAINS. Records are collected per
// process while the streams are decoded; Finish() symbolizes each process's addresses with its own
// module map (symbolizer.h), dedups identical stacks into one callchain id (ids are unique across
// the *_CALLCHAINS tables), and sets callchainId on the API rows the stacks belong to: CUDA API
// rows by (process, correlationId), OS-runtime rows by (thread, start). It runs after the CUDA and
// OS-runtime rows are written.
//
// Threading: one thread, like the import.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/import/import_module.h"
#include "report/import/stacks/symbolizer.h"
#include "report/import/tick_clock.h"

namespace gsys::report {

struct StackImportStats {
  uint64_t sites = 0, matched_sites = 0, samples = 0, callchains = 0, unresolved_frames = 0,
           frames = 0, python_frames = 0, lost_samples = 0, switches = 0;
};

class StackImport : public ImportModule {
 public:
  explicit StackImport(const ImportContext& context)
      : writer_(context.writer),
        origin_(context.origin),
        ticks_(context.ticks),
        counters_(context.counters) {}

  const char* name() const override { return "stacks"; }
  bool Owns(format::RecordKind kind) const override {
    auto k = static_cast<uint16_t>(kind);
    return k >= 112 && k <= 127;
  }
  Status OnRecord(StreamContext& stream, const format::RecordView& r) override {
    Add(r, stream.pid(), stream.uses_ticks());
    return OkStatus();
  }
  // Runs after the CUDA and OS-runtime rows are written (registry order).
  Status Finish(ImportSummary* summary) override;

 private:
  struct Site {
    uint32_t pid, tid, site;
    int64_t key;  // correlation id, or the OS-runtime call's start in session ns
    std::vector<uint64_t> frames;
    std::string python;
  };
  struct Sample {
    uint32_t pid, tid, cpu;
    int64_t start;
    std::vector<uint64_t> frames;
  };
  struct Switch {
    uint32_t pid, tid, cpu;
    int64_t start;
    bool in, preempted;
  };
  struct Frame {
    int64_t symbol, module;
    bool unresolved;
    uint64_t ip;
  };

  void Add(const format::RecordView& r, uint32_t pid, bool uses_ticks);
  Status WriteAll();
  void Malformed() { ++(*counters_)[ImportCounter::kMalformedRecords]; }
  std::map<uint32_t, uint64_t> lost_by_pid_;  // the largest lost-samples total per process
  int64_t Rel(int64_t t, bool uses_ticks) const {
    return SaturatingSub(uses_ticks && ticks_ != nullptr ? ticks_->ToNs(t) : t, origin_);
  }
  // Symbolized frames of a stack, without the capture library's own leading frames.
  Result<std::vector<Frame>> Resolve(Symbolizer& sym, const std::vector<uint64_t>& frames,
                                     bool leaf_is_pc);
  Status WriteSites();
  Status WriteSamples();
  Status WriteSwitches();
  Status WritePython(int64_t id, const std::string& python);

  ReportWriter* writer_;
  int64_t origin_;
  const TickClock* ticks_;
  ImportCounters* counters_;
  std::map<uint32_t, std::map<uint64_t, LoadedModule>> modules_;  // pid -> start -> module
  std::vector<Site> sites_;
  std::vector<Sample> samples_;
  std::vector<Switch> switches_;
  std::map<uint32_t, std::unique_ptr<Symbolizer>> symbolizers_;
  StackImportStats stats_;
  // One line per thing the user should know (sampling method, why something was off).
  std::vector<std::string> notes_;
  int64_t next_callchain_ = 1;
};

}  // namespace gsys::report
