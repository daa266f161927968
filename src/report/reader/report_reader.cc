// SPDX-License-Identifier: Apache-2.0
#include "report/reader/report_reader.h"

#include <algorithm>
#include <string>
#include <utility>

#include "common/one_line.h"
#include "common/strings.h"
#include "report/db/sql_functions.h"
#include "report/reader/computed_check.h"
#include "report/reader/file_check.h"
#include "report/reader/schema.h"

namespace gsys::report {
namespace {

// The newest nsys EXPORT_SCHEMA_VERSION major this reader understands (2020.3 .. 2026.2: 3).
constexpr int64_t kMaxNsysSchemaMajor = 3;

// Tables whose presence (next to StringIds) marks an nsys export.
constexpr const char* kNsysMarkers[] = {
    "cupti_activity_kind_kernel",
    "cupti_activity_kind_runtime",
    "cupti_activity_kind_memcpy",
    "nvtx_events",
    "osrt_api",
    "threadnames",
    "meta_data_export",
    "export_meta_data",
    "target_info_gpu",
    "profiler_overhead",
    "analysis_details",
    "processes",
};

Result<internal::FileTables> ListTables(Database& db, const std::string& path) {
  auto stmt = db.Prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'");
  if (!stmt.ok()) {
    return Error(StatusCode::kBadInput,
                 "report: '" + path + "' is corrupt or not a report: " + OneLine(db.LastError()));
  }
  internal::FileTables tables;
  while (true) {
    Result<bool> row = stmt->Step();
    if (!row.ok()) {
      // OneLine: SQLite quotes a damaged schema's bytes in its message.
      return Error(StatusCode::kBadInput,
                   "report: '" + path + "' is corrupt or not a report: " + OneLine(db.LastError()));
    }
    if (!*row) break;
    std::string name(stmt->ColumnText(0));
    tables.emplace(ToLower(name), name);
  }
  return tables;
}

// Value of `key` in the name/value table `table`, or "" when absent.
std::string MetaValue(Database& db, const std::string& table, const std::string& key) {
  auto value = db.QueryText("SELECT value FROM main." + QuoteIdentifier(table) +
                            " WHERE name = " + QuoteLiteral(key) + " LIMIT 1");
  if (!value.ok() || !value->has_value()) return "";
  return **value;
}

std::string Int64Literal(int64_t value) {
  // -9223372036854775808 would parse as a REAL in SQLite.
  if (value == INT64_MIN) return "(-9223372036854775807 - 1)";
  return std::to_string(value);
}

}  // namespace

Result<ReportReader> ReportReader::Open(const std::string& path) {
  GSYS_RETURN_IF_ERROR(internal::CheckSqliteFile(path));
  Result<Database> db = Database::Open(path, Database::Mode::kReadOnly);
  if (!db.ok()) {
    return Error(StatusCode::kBadInput,
                 "report: '" + path + "' cannot be opened: " + OneLine(db.status().message()));
  }
  ReportReader reader(std::move(db).value(), path);
  // Reports are read-only and immutable while we read them: map them instead of copying
  // pages through SQLite's cache (bench/RESULTS.md: about 0.1 s of 1.4 s on a 10 M-row
  // scan). The temp store stays on disk: a trace report's ORDER BY over 10 M rows must
  // spill rather than grow memory.
  GSYS_RETURN_IF_ERROR(reader.db_.Exec("PRAGMA mmap_size = 68719476736;"));
  GSYS_ASSIGN_OR_RETURN(internal::FileTables tables, ListTables(reader.db_, path));
  GSYS_RETURN_IF_ERROR(internal::CheckNoComputedTables(reader.db_, path));
  GSYS_RETURN_IF_ERROR(reader.Classify(tables));
  reader.file_tables_ = std::move(tables);
  GSYS_RETURN_IF_ERROR(RegisterSqlFunctions(reader.db_));
  GSYS_RETURN_IF_ERROR(reader.Present());
  return reader;
}

Result<ReportReader> ReportReader::OpenAnother() const {
  GSYS_ASSIGN_OR_RETURN(ReportReader other, Open(path_));
  if (filter_active_) GSYS_RETURN_IF_ERROR(other.SetNvtxFilter(filter_));
  other.correlation_ids_unique_ = correlation_ids_unique_;
  return other;
}

Status ReportReader::QuickCheck() {
  auto damaged = [&](const std::string& what) {
    return Error(StatusCode::kBadInput, "report: '" + path_ + "' is damaged (SQLite quick_check: " +
                                            OneLine(what, 300) + ")");
  };
  Result<Statement> stmt = db_.Prepare("PRAGMA main.quick_check(100)");
  if (!stmt.ok()) return damaged(stmt.status().message());
  std::string first;
  int problems = 0;
  while (true) {
    Result<bool> row = stmt->Step();
    if (!row.ok()) return damaged(row.status().message());
    if (!*row) break;
    std::string text(stmt->ColumnText(0));
    if (text == "ok") continue;
    // Messages of an attached database's check start with "*** in database main ***\n".
    if (size_t nl = text.rfind("***\n"); StartsWith(text, "*** in database") && nl != text.npos) {
      text = text.substr(nl + 4);
    }
    if (problems++ == 0) first = text;
  }
  if (problems == 0) return OkStatus();
  return damaged(first + (problems > 1 ? ", " + std::to_string(problems) + " problems" +
                                             (problems >= 100 ? " or more" : "")
                                       : ""));
}

Status ReportReader::Classify(const std::map<std::string, std::string>& tables) {
  if (tables.count("gsys_meta")) {
    source_ = ReportSource::kGsys;
    GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> user_version,
                          db_.QueryInt("PRAGMA main.user_version"));
    std::optional<int64_t> meta_version =
        ParseInt64(MetaValue(db_, tables.at("gsys_meta"), "gsys_schema_version"));
    int64_t version = std::max(user_version.value_or(0), meta_version.value_or(0));
    if (version <= 0) {
      return Error(StatusCode::kBadInput,
                   "report: '" + path_ + "' has a GSYS_META table but no gsys schema version");
    }
    if (version > kGsysSchemaVersion) {
      return Error(StatusCode::kUnsupported,
                   "report: '" + path_ + "' has gsys schema version " + std::to_string(version) +
                       ", newer than this gsys reads (" + std::to_string(kGsysSchemaVersion) +
                       "); upgrade gsys");
    }
    std::string tool = MetaValue(db_, tables.at("gsys_meta"), "tool_version");
    producer_version_ = "gsys " + (tool.empty() ? std::string("(unknown version)") : tool);
    return OkStatus();
  }
  bool is_nsys = tables.count("stringids") > 0;
  bool marked = false;
  for (const char* marker : kNsysMarkers) marked = marked || tables.count(marker) > 0;
  if (!is_nsys || !marked) {
    return Error(StatusCode::kBadInput, "report: '" + path_ +
                                            "' is an SQLite database but not a gsys report or "
                                            "nsys SQLite export");
  }
  source_ = ReportSource::kNsys;
  std::string meta_table;
  if (tables.count("meta_data_export")) meta_table = tables.at("meta_data_export");
  if (tables.count("export_meta_data")) meta_table = tables.at("export_meta_data");
  if (meta_table.empty()) {
    producer_version_ = "nsys 2020.x (no metadata)";
    return OkStatus();
  }
  std::string schema = MetaValue(db_, meta_table, "EXPORT_SCHEMA_VERSION");
  std::optional<int64_t> major =
      ParseInt64(MetaValue(db_, meta_table, "EXPORT_SCHEMA_VERSION_MAJOR"));
  if (!major && !schema.empty()) major = ParseInt64(schema.substr(0, schema.find('.')));
  if (major && *major > kMaxNsysSchemaMajor) {
    return Error(StatusCode::kUnsupported,
                 "report: '" + path_ + "' is an nsys export with schema version " +
                     (schema.empty() ? std::to_string(*major) : schema) +
                     ", newer than this gsys reads (major " + std::to_string(kMaxNsysSchemaMajor) +
                     "); upgrade gsys");
  }
  std::string product = MetaValue(db_, meta_table, "EXPORT_PRODUCT_VERSION");
  producer_version_ = "nsys " + (product.empty() ? std::string("(unknown version)") : product);
  return OkStatus();
}

Status ReportReader::Present() {
  GSYS_ASSIGN_OR_RETURN(std::vector<internal::CanonicalTable> canonical,
                        internal::LoadCanonicalTables());
  GSYS_RETURN_IF_ERROR(db_.Exec("BEGIN"));
  Result<std::vector<internal::TablePlan>> plans =
      internal::PlanPresentation(db_, file_tables_, canonical);
  if (!plans.ok()) {
    (void)db_.Exec("ROLLBACK");
    return plans.status();
  }
  GSYS_RETURN_IF_ERROR(db_.Exec("COMMIT"));
  plans_ = std::move(plans).value();
  return RebuildViews();
}

Status ReportReader::RebuildViews() {
  std::map<std::string, std::string> views;  // name -> CREATE statement
  for (const internal::TablePlan& plan : plans_) {
    std::string where;
    if (filter_active_ && plan.has_start_end && !filter_.windows.empty()) {
      // Union of windows, merged into disjoint sorted spans in temp.gsys_filter_windows: a row
      // overlaps one iff the last span starting at or before its end ends after its start.
      where =
          "(SELECT w.e FROM temp.gsys_filter_windows AS w WHERE w.s <= "
          "coalesce(\"end\", \"start\") ORDER BY w.s DESC LIMIT 1) > \"start\"";
    } else if (filter_active_ && plan.has_start_end) {
      const TimeWindow& w = filter_.window;
      std::string s = Int64Literal(w.start);
      std::string e = Int64Literal(w.end);
      where = "((\"start\" >= " + s + " AND \"start\" < " + e + ") OR (\"end\" >= " + s +
              " AND \"end\" < " + e + ") OR (\"start\" < " + s + " AND \"end\" >= " + e + "))";
      if (filter_.global_tid) {
        int64_t tid = *filter_.global_tid;
        if (plan.has_global_tid) {
          where += " AND \"globalTid\" = " + std::to_string(tid);
        } else if (plan.has_global_pid) {
          where += " AND \"globalPid\" = " + std::to_string(tid & ~int64_t{0xFFFFFF});
        }
      } else if (filter_.global_pid) {
        int64_t pid = *filter_.global_pid;
        if (plan.has_global_tid) {
          where += " AND (\"globalTid\" >> 24) = " + std::to_string(pid >> 24);
        } else if (plan.has_global_pid) {
          where += " AND \"globalPid\" = " + std::to_string(pid);
        }
      }
    }
    if (!plan.needs_view && where.empty()) continue;
    views[plan.name] = internal::ViewSql(plan, where);
  }
  // Only views whose definition changed are dropped and created again: a filter changes the
  // tables with start/end, not the synthesized empty ones (most of an nsys 2020 file's views).
  std::string sql;
  for (const auto& [name, create] : views_) {
    auto it = views.find(name);
    if (it == views.end() || it->second != create) {
      sql += "DROP VIEW IF EXISTS temp." + QuoteIdentifier(name) + ";\n";
    }
  }
  for (const auto& [name, create] : views) {
    auto it = views_.find(name);
    if (it == views_.end() || it->second != create) sql += create;
  }
  if (sql.empty()) return OkStatus();
  Status status = db_.Exec("BEGIN;\n" + sql + "COMMIT;");
  if (!status.ok()) {
    (void)db_.Exec("ROLLBACK");
    return Error(StatusCode::kInternal,
                 "report: cannot present '" + path_ + "': " + status.message());
  }
  views_ = std::move(views);
  return OkStatus();
}

bool ReportReader::HasTable(std::string_view table) const {
  std::string key = ToLower(table);
  if (file_tables_.count(key)) return true;
  if (key == "meta_data_export") return file_tables_.count("export_meta_data") > 0;
  if (key == "enum_cuda_kernel_launch_type") {
    return file_tables_.count("enum_cuda_krenel_launch_type") > 0;
  }
  return false;
}

Result<bool> ReportReader::HasRows(std::string_view table) {
  GSYS_ASSIGN_OR_RETURN(
      std::optional<int64_t> known,
      db_.QueryInt("SELECT count(*) FROM (SELECT name FROM temp.sqlite_master UNION ALL "
                   "SELECT name FROM main.sqlite_master) WHERE lower(name) = lower(" +
                   QuoteLiteral(table) + ")"));
  if (known.value_or(0) == 0) return false;
  GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> row,
                        db_.QueryInt("SELECT 1 FROM " + QuoteIdentifier(table) + " LIMIT 1"));
  return row.has_value();
}

Status ReportReader::SetTimeWindow(TimeWindow window) {
  if (window.start > window.end) {
    return Error(StatusCode::kInvalidArgument,
                 "report: time window start " + std::to_string(window.start) +
                     " is after its end " + std::to_string(window.end));
  }
  filter_ = NvtxFilter();
  filter_.window = window;
  filter_active_ = window.start != INT64_MIN || window.end != INT64_MAX;
  return RebuildViews();
}

Status ReportReader::SetNvtxFilter(const NvtxFilter& filter) {
  if (filter.window.start > filter.window.end) {
    return Error(StatusCode::kInvalidArgument, "report: NVTX filter window start is after its end");
  }
  filter_ = filter;
  filter_active_ = filter.window.start != INT64_MIN || filter.window.end != INT64_MAX ||
                   filter.global_tid.has_value() || filter.global_pid.has_value() ||
                   !filter.windows.empty();
  if (!filter.windows.empty()) {
    std::vector<TimeWindow> spans = filter.windows;
    std::sort(spans.begin(), spans.end(),
              [](const TimeWindow& a, const TimeWindow& b) { return a.start < b.start; });
    std::vector<TimeWindow> merged;
    for (const TimeWindow& w : spans) {
      if (!merged.empty() && w.start <= merged.back().end) {
        merged.back().end = std::max(merged.back().end, w.end);
      } else {
        merged.push_back(w);
      }
    }
    std::string sql =
        "CREATE TEMP TABLE IF NOT EXISTS gsys_filter_windows "
        "(s INTEGER PRIMARY KEY, e INTEGER NOT NULL);\n"
        "DELETE FROM temp.gsys_filter_windows;\n";
    for (const TimeWindow& w : merged) {
      sql += "INSERT INTO temp.gsys_filter_windows VALUES (" + Int64Literal(w.start) + ", " +
             Int64Literal(w.end) + ");\n";
    }
    GSYS_RETURN_IF_ERROR(db_.Exec("BEGIN;\n" + sql + "COMMIT;"));
  }
  return RebuildViews();
}

}  // namespace gsys::report
