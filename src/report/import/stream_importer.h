// SPDX-License-Identifier: Apache-2.0
// StreamImporter: decodes the records of one raw stream (one process image) and writes its
// NVTX and OS-runtime rows. NVTX push/pop pairs are matched per (thread, domain) stack,
// start/end pairs by range id across threads, and registered-string handles resolved through
// the stream's own registration records (a forked child's stream replays its parent's).
//
// Threading: one thread; one StreamImporter per stream.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"
#include "common/status.h"
#include "format/record.h"
#include "format/stream_reader.h"
#include "report/import/import_diagnostics.h"
#include "report/import/libapi_importer.h"
#include "report/import/report_writer.h"
#include "report/import/tick_clock.h"

namespace gsys::report {

// nsys's global id encoding: HW(8) | VM(8) | PID(24) | TID(24); gsys uses VM 1, HW 0 as nsys
// does on Linux hosts.
inline constexpr int64_t kGlobalVid = int64_t{1} << 48;
inline int64_t GlobalTid(uint32_t pid, uint32_t tid) {
  return kGlobalVid | (int64_t{pid & 0xFFFFFF} << 24) | (tid & 0xFFFFFF);
}
inline int64_t GlobalPid(uint32_t pid) { return GlobalTid(pid, 0); }

struct ProcessFacts {
  uint32_t pid = 0;
  uint32_t ppid = 0;
  uint64_t stream_id = 0;
  std::string name;
  std::vector<std::string> args;
  int64_t start_monotonic = 0, start_realtime = 0;
  int64_t end_monotonic = 0, end_realtime = 0;
  bool has_start = false, has_end = false;
};

struct CaptureWindowEvent {
  int64_t timestamp;  // session-relative ns
  bool started;
  uint32_t pid;
};

// Handler for record kinds another module owns (CUDA, 128..255): the stream's identity and
// the record. Returns false when it does not handle the kind.
using ForeignRecordHandler =
    std::function<bool(const ProcessFacts& process, const format::RecordView& record)>;

class StreamImporter {
 public:
  // `ticks`: the session's tick clock when this stream's event timestamps are ticks (it has
  // kClockSync records), nullptr when they are already ns.
  StreamImporter(ReportWriter* writer, int64_t time_origin, ImportCounters* counters,
                 const TickClock* ticks = nullptr, ForeignRecordHandler foreign = nullptr)
      : writer_(writer), origin_(time_origin), counters_(counters), ticks_(ticks),
        foreign_(std::move(foreign)) {}

  Status Import(const format::StreamFile& file);
  // Library API records (kinds 96..111) go to `libapi` (none: counted as unknown).
  void set_libapi(LibApiImport* libapi) { libapi_ = libapi; }

  const ProcessFacts& process() const { return process_; }
  // Final thread names (NVTX names win over OS names), by tid.
  std::map<uint32_t, std::string> ThreadNames() const;
  const std::vector<CaptureWindowEvent>& windows() const { return windows_; }
  uint64_t nvtx_rows() const { return nvtx_rows_; }
  uint64_t osrt_rows() const { return osrt_rows_; }
  int64_t last_timestamp() const { return last_ts_; }
  uint64_t dropped_records() const { return dropped_; }

 private:
  struct Open {
    format::NvtxEventBody body;
    std::string_view text;  // points into the mapped stream file
    uint32_t tid;
  };

  Status Record(const format::RecordView& r);
  // The push/pop stack of (`tid`, `domain`); the last one used is cached because a thread's
  // records arrive in runs (one per flushed thread buffer). std::map nodes never move.
  // Open push/pop ranges of every thread (a missing chunk) or of `tid` (a gap record) are
  // dropped and counted: their pops may be among lost records, so pairing them with a later pop
  // could invent a range. The stacks visited are erased, so each costs one cut after the record
  // that made it: a cut walking every stack ever seen made 40 000 gaps over 40 000 domains
  // take 37 s (issue 17 item 10).
  void CutAllOpenRanges();
  void CutOpenRanges(uint32_t tid);
  std::vector<Open>& Stack(uint32_t tid, uint32_t domain) {
    uint64_t key = (uint64_t{tid} << 32) | domain;
    if (last_stack_ == nullptr || last_stack_key_ != key) {
      last_stack_ = &stacks_[{tid, domain}];
      last_stack_key_ = key;
    }
    return *last_stack_;
  }
  Status OnProcessStart(const format::RecordView& r);
  Status OnNvtxOpen(const format::RecordView& r);
  Status OnNvtxPop(const format::RecordView& r);
  Status OnNvtxEnd(const format::RecordView& r);
  Status OnNvtxMark(const format::RecordView& r);
  Status OnNvtxName(const format::RecordView& r);
  Status OnOsrt(const format::RecordView& r);
  void OnCounter(const format::RecordView& r);
  // Fills the message, attribute and payload columns of `row` from an opening record.
  Status FillFromOpen(const Open& open, NvtxRow* row);
  // Session-relative ns of an event timestamp (ticks or ns).
  int64_t RelTicks(int64_t t) { return Rel(ticks_ ? ticks_->ToNs(t) : t); }
  int64_t Rel(int64_t ts) {
    if (ts > last_ts_) last_ts_ = ts;
    return SaturatingSub(ts, origin_);
  }
  void Malformed() { ++(*counters_)[ImportCounter::kMalformedRecords]; }

  ReportWriter* writer_;
  int64_t origin_;
  ImportCounters* counters_;
  const TickClock* ticks_;
  ForeignRecordHandler foreign_;
  LibApiImport* libapi_ = nullptr;
  ProcessFacts process_;
  std::map<uint32_t, std::string> os_names_, nvtx_names_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<Open>> stacks_;  // (tid, domain)
  std::vector<Open>* last_stack_ = nullptr;
  uint64_t last_stack_key_ = 0;
  // Keyed by stream values: SeededHash, so crafted ids cannot share one bucket.
  std::unordered_map<uint64_t, Open, SeededHash> starts_;                 // range id
  std::unordered_map<uint64_t, int64_t, SeededHash> registered_;          // handle -> StringIds
  std::unordered_map<uint32_t, int64_t, SeededHash> osrt_names_;
  std::vector<CaptureWindowEvent> windows_;
  uint64_t nvtx_rows_ = 0, osrt_rows_ = 0, dropped_ = 0, without_buffer_ = 0;
  uint64_t truncated_text_ = 0;  // CounterId::kTruncatedText, largest value seen
  uint64_t reserve_records_ = 0, reserve_bytes_ = 0;  // disk reserve (cumulative counters)
  int64_t last_ts_ = 0;
};

}  // namespace gsys::report
