// SPDX-License-Identifier: Apache-2.0
// TimelineSource: the events of a report's timeline tables, streamed in time order.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/seeded_hash.h"
#include "common/status.h"
#include "export/table_filter.h"
#include "export/timeline/sample_stacks.h"
#include "export/timeline/timeline_event.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

class RowCursor;

// Loads the names of processes, threads and GPUs and the session's UTC anchor.
Result<ReportInfo> LoadReportInfo(report::ReportReader& reader);

// Streams the CUDA API, kernel, memcpy, memset, NVTX, OS runtime, library call (cuDNN, cuBLAS,
// MPI), CPU sample and thread-state (SCHED_EVENTS) rows of a report.
//
// How: one cursor per table, each ordered by (start, end DESC) (RowCursor: rowid order through a
// bounded reorder window where that sorts the table, else SQL ORDER BY), merged by start (ties:
// the longer event first, so an enclosing slice comes before what it encloses). Memory is
// bounded by the number of tables, their reorder windows, processes' NVTX domains and a capped
// cache of StringIds values, never by the number of rows. Tables the report lacks (or that
// --tables excludes) yield nothing.
// Threading: one thread; borrows `reader`, which must outlive the source.
class TimelineSource {
 public:
  static Result<std::unique_ptr<TimelineSource>> Open(report::ReportReader& reader,
                                                      const TableFilter& filter);
  ~TimelineSource();

  // The next event, or nullptr after the last. The event is valid until the next call.
  Result<const TimelineEvent*> Next();

  // Number of rows per source table so far (for tests and summaries).
  int64_t rows() const { return rows_; }

  struct Cursor;  // one table (defined in the .cc)

 private:
  explicit TimelineSource(report::ReportReader& reader);
  // A table's cursor: rowid order through a reorder window where that sorts it (RowCursor),
  // else ORDER BY start, end DESC.
  Status AddCursor(EventKind kind, const std::string& table, const std::string& columns,
                   const std::string& key, const std::string& where, int text_column);
  Status AddSortedCursor(EventKind kind, const std::string& table, const std::string& sql,
                         int text_column);
  Status AddRows(EventKind kind, const std::string& table, std::unique_ptr<RowCursor> rows);
  Status LoadDomains();
  Result<std::string_view> String(int64_t id);
  Status Decode(Cursor& cursor);
  Status DecodeApi(Cursor& cursor);
  Status DecodeGpu(Cursor& cursor);
  Status DecodeNvtx(Cursor& cursor);
  Status DecodeOsrt(Cursor& cursor);
  Status DecodeSample(Cursor& cursor);
  Status DecodeThreadState(Cursor& cursor);
  Status DecodeLibrary(Cursor& cursor);
  // "backtrace" / "python backtrace" args of a CUDA API call with a callchain (--cudabacktrace).
  Status AddBacktrace(int64_t callchain_id);

  report::ReportReader& reader_;
  // A second read-only connection with the default temp_store: the reader keeps temp objects in
  // memory, which also makes SQLite sort entirely in memory; here sorts spill to temp files.
  std::unique_ptr<report::Database> raw_;
  std::vector<std::unique_ptr<Cursor>> cursors_;
  Cursor* current_ = nullptr;  // produced the last event; stepped on the next call
  TimelineEvent event_;
  int64_t rows_ = 0;
  std::unique_ptr<report::Statement> string_lookup_;
  std::unordered_map<int64_t, std::string, SeededHash> strings_;  // capped StringIds cache
  std::unordered_map<int64_t, bool, SeededHash> launches_;        // nameId -> launches GPU work
  std::map<std::pair<int64_t, int64_t>, std::string> domains_;    // (globalPid, domainId) -> name
  std::string scratch_;                                           // memcpy names
  // callchain id -> (native frames, Python frames), one frame per line; capped like strings_.
  std::unordered_map<int64_t, std::pair<std::string, std::string>, SeededHash> backtraces_;
  std::unique_ptr<report::Statement> native_lookup_, python_lookup_;
  std::unique_ptr<SampleStacks> samples_;  // opened at the first CPU sample
};

}  // namespace gsys::export_
