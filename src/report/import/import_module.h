// SPDX-License-Identifier: Apache-2.0
// ImportModule: one domain of the import (NVTX, OS runtime, CUDA, library calls, stacks, GPU
// metrics), the import-side counterpart of capture/capture_domain.h. A module owns the record
// kinds it decodes, its tables' part of the report schema (its folder's schema.sql), its
// diagnostic counters (its folder's *_diagnostics.h) and its line of the end-of-run summary.
// ImportSession creates the modules of import_modules.cc, hands each stream's records to the
// module that owns their kind (StreamImporter) and calls Finish() on each in registry order.
// docs/architecture.md, "Adding an import domain", has the checklist.
//
// Threading: one thread, like the import.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/saturating.h"
#include "common/status.h"
#include "format/record.h"
#include "format/session_meta.h"
#include "format/stream_reader.h"
#include "report/import/import_diagnostics.h"
#include "report/import/importer.h"
#include "report/import/process_facts.h"
#include "report/import/report_writer.h"
#include "report/import/tick_clock.h"

namespace gsys::report {

// What every module is built with: the session as a whole.
struct ImportContext {
  ReportWriter* writer = nullptr;
  int64_t origin = 0;                // session start, CLOCK_MONOTONIC ns
  const TickClock* ticks = nullptr;  // the session's tick clock (streams with kClockSync)
  std::string session_dir;
  const format::SessionMeta* meta = nullptr;
  ImportCounters* counters = nullptr;  // the session's data-quality counters
};

// The stream a record comes from: its process image and its clock.
class StreamContext {
 public:
  StreamContext(const ProcessFacts* process, int64_t origin, const TickClock* ticks)
      : process_(process), origin_(origin), ticks_(ticks) {}

  const ProcessFacts& process() const { return *process_; }
  uint32_t pid() const { return process_->pid; }
  // Whether this stream's event timestamps are ticks of the session's TickClock.
  bool uses_ticks() const { return ticks_ != nullptr; }
  // Session-relative ns of an event timestamp of this stream (ticks or ns); also moves the
  // stream's last timestamp, which ends the session.
  int64_t Rel(int64_t t) {
    int64_t ns = ticks_ ? ticks_->ToNs(t) : t;
    if (ns > last_ns_) last_ns_ = ns;
    return SaturatingSub(ns, origin_);
  }
  // A CLOCK_MONOTONIC ns timestamp (never ticks) that may end the session.
  void NoteNs(int64_t ns) {
    if (ns > last_ns_) last_ns_ = ns;
  }
  // The latest CLOCK_MONOTONIC ns seen through Rel() and NoteNs().
  int64_t last_ns() const { return last_ns_; }

 private:
  const ProcessFacts* process_;
  int64_t origin_;
  const TickClock* ticks_;
  int64_t last_ns_ = 0;
};

class ImportModule {
 public:
  virtual ~ImportModule() = default;

  // Short name for messages and docs ("nvtx", "cuda").
  virtual const char* name() const = 0;
  // Whether this module decodes records of `kind`. Each kind has at most one owner
  // (import_modules_test checks); records no module owns are counted as unknown.
  virtual bool Owns(format::RecordKind kind) const = 0;
  // One record of an owned kind. A malformed record is counted, not an error; an error stops
  // the import.
  virtual Status OnRecord(StreamContext& stream, const format::RecordView& record) = 0;
  // Records of thread `tid` (or, without a tid, of any thread of the stream) were lost just
  // before the next record: state that pairs records across the gap must not survive it.
  virtual void OnLoss(const StreamContext& /*stream*/, std::optional<uint32_t> /*tid*/) {}
  // The stream is read to its end; per-stream state goes.
  virtual Status EndStream(StreamContext& /*stream*/) { return OkStatus(); }
  // Every stream is read: write what waited for the whole session and put this domain's
  // counts, warnings, notes and end-of-run line into `summary`. Called in registry order, so a
  // module may read the rows of the modules before it.
  virtual Status Finish(ImportSummary* summary) = 0;
  // The latest CLOCK_MONOTONIC ns of this domain's events that did not pass through
  // StreamContext::Rel (0: none).
  virtual int64_t last_timestamp() const { return 0; }
};

}  // namespace gsys::report
