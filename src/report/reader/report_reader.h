// SPDX-License-Identifier: Apache-2.0
// ReportReader: opens a gsys report or any nsys SQLite export (2020.3 .. 2026.x) read-only and
// presents the canonical schema of src/report/schema.sql to SQL, whatever the file's version.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"
#include "report/reader/table_plan.h"

namespace gsys::report {

// A time window in ns on the session timeline (the timestamps of the report). Defaults: unbounded.
struct TimeWindow {
  int64_t start = INT64_MIN;
  int64_t end = INT64_MAX;
};

enum class ReportSource { kGsys, kNsys };

// ReportReader owns one read-only SQLite connection to a report and makes it look canonical.
//
// How: SQLite resolves an unqualified table name in the `temp` schema before `main`, so a TEMP VIEW
// (or TEMP TABLE) named like a table shadows it. At Open the reader compares the file's tables and
// columns (PRAGMA table_info) with schema.sql and creates temp objects only where they differ:
//  - a table the file lacks: an empty TEMP VIEW with every canonical column (ENUM_* tables and
//    PROCESSES are instead synthesized as TEMP TABLEs with built-in values / ids seen in the data);
//  - a table that lacks canonical columns: a TEMP VIEW over main."TABLE" adding them as NULL;
//  - a table under another name (EXPORT_META_DATA, ENUM_CUDA_KRENEL_LAUNCH_TYPE) or layout (the
//    2020.x TARGET_INFO_GPU + TARGET_INFO_CUDA_GPU): a TEMP VIEW with the canonical name and
//    columns.
// A file that already matches gets no view, so queries on the common path run on the base tables.
// Time and NVTX filters rebuild the views: while one is active every table with start/end columns
// is shadowed by a view that keeps only the rows overlapping the window.
//
// Correlation ids are numbered per process and repeat across processes in multi-process reports:
// join API rows to GPU rows on correlationId AND (api.globalTid & ~0xFFFFFF) = gpu.globalPid.
// NVTX names live in `text` or in `textId` (-> StringIds); use
// coalesce(text, (SELECT value FROM StringIds WHERE id = textId)). Both columns always exist.
//
// Threading: one thread at a time (like Database). Movable, not copyable.
class ReportReader {
 public:
  // Opens `path` read-only: never modifies, journals or locks the file. Errors are one-line,
  // lowercase messages that start with "report: " and name the path:
  //   kNotFound    the file does not exist;
  //   kBadInput    a directory, empty, not SQLite, truncated/corrupt, SQLite but not a report;
  //   kUnsupported a gsys schema version or nsys EXPORT_SCHEMA_VERSION major newer than known.
  static Result<ReportReader> Open(const std::string& path);
  // Another connection to the same file, for another thread: this reader's filter and its
  // data-check findings (correlation_ids_unique) carried over, so that the same query takes the
  // same plan on either connection. Errors as Open's.
  Result<ReportReader> OpenAnother() const;

  ReportReader(ReportReader&&) noexcept = default;
  ReportReader& operator=(ReportReader&&) noexcept = default;
  ReportReader(const ReportReader&) = delete;
  ReportReader& operator=(const ReportReader&) = delete;
  ~ReportReader() = default;

  // The connection, with the canonical schema presented and RegisterSqlFunctions applied.
  Database& db() { return db_; }
  const std::string& path() const { return path_; }
  ReportSource source() const { return source_; }
  // Who wrote the file: "nsys 2024.6.2.25", "nsys 2020.x (no metadata)", "gsys 0.1.0".
  std::string ProducerVersion() const { return producer_version_; }

  // SQLite's PRAGMA quick_check over the whole file (reads every page: O(file size)). Open and
  // queries only notice damage on the pages they read, and some damage (free-space accounting,
  // a cell that still decodes to wrong values) not even there. For a verb that copies the file
  // as it is (export -t sqlite). kBadInput: "report: 'PATH' is damaged (SQLite quick_check: the
  // first problem, N problems)".
  Status QuickCheck();

  // True when the file itself holds `table` (case-insensitive), also under an old name or layout
  // that the reader maps (EXPORT_META_DATA for META_DATA_EXPORT); false when it is only
  // synthesized.
  bool HasTable(std::string_view table) const;
  // True when `table` resolves (file or synthesized) and has at least one row in the current
  // window / NVTX filter. False for unknown tables.
  Result<bool> HasRows(std::string_view table);

  // Restricts every table with start/end columns to rows that overlap `window`, as nsys does:
  // (start >= S AND start < E) OR (end >= S AND end < E) OR (start < S AND end >= E).
  // Replaces any earlier time or NVTX filter; the default TimeWindow removes filtering.
  Status SetTimeWindow(TimeWindow window);

  // --filter-nvtx "range[@domain][/index]": the index-th (0-based, ordered by start) instance of
  // the NVTX push/pop or start/end range (eventType 59, 60, 70, 71) whose
  // coalesce(text, StringIds.value) and domain name match. Without "@domain" the range must be in
  // the default domain. "/N" is an index only when N is a non-negative integer.
  struct NvtxFilter {
    TimeWindow window;
    // When not empty: rows overlapping any of these windows (their union; `window` is ignored).
    // nsys recipe's --filter-nvtx without an index keeps every instance of the range.
    std::vector<TimeWindow> windows;
    std::optional<int64_t> global_tid;  // push/pop ranges: the thread that pushed it
    std::optional<int64_t> global_pid;  // start/end ranges: the process that started it
  };
  // Errors: kInvalidArgument for an empty spec or when no such range (instance) exists.
  Result<NvtxFilter> ResolveNvtxFilter(const std::string& spec);
  // Applies `filter`: the window as SetTimeWindow does, plus rows restricted to the thread
  // (tables with globalTid) or process (globalTid or globalPid). Replaces any earlier filter.
  Status SetNvtxFilter(const NvtxFilter& filter);
  // The filter in force (from SetTimeWindow or SetNvtxFilter), so a caller that filters for a
  // while can restore it with SetNvtxFilter; the default NvtxFilter when none is.
  const NvtxFilter& ActiveFilter() const { return filter_; }
  bool filtered() const { return filter_active_; }

  // Whether no CUDA API call of the file repeats an earlier call's correlation id in its process,
  // as CheckReportData (data_check.h) found on the unfiltered file; nullopt until it ran. With
  // true the analyses join GPU work to the runtime table directly instead of first keeping one
  // call per id (a sort of every API row, ~2 s per query at 1 M calls).
  std::optional<bool> correlation_ids_unique() const { return correlation_ids_unique_; }
  void set_correlation_ids_unique(bool unique) { correlation_ids_unique_ = unique; }

 private:
  ReportReader(Database db, std::string path) : db_(std::move(db)), path_(std::move(path)) {}
  Status Classify(const std::map<std::string, std::string>& tables);
  Status Present();
  Status RebuildViews();

  Database db_;
  std::string path_;
  ReportSource source_ = ReportSource::kNsys;
  std::string producer_version_;
  std::map<std::string, std::string> file_tables_;  // lowercase name -> name as in the file
  std::vector<internal::TablePlan> plans_;
  std::map<std::string, std::string> views_;  // temp views now created: name -> CREATE
  NvtxFilter filter_;
  bool filter_active_ = false;
  std::optional<bool> correlation_ids_unique_;
};

}  // namespace gsys::report
