// SPDX-License-Identifier: Apache-2.0
#include "report/reader/data_check.h"

#include <climits>
#include <optional>
#include <unordered_map>

#include "common/one_line.h"
#include "common/utf8_cut.h"
#include "report/reader/report_reader.h"

namespace gsys::report {
namespace {

struct EventTable {
  const char* table;
  const char* one;  // the warning's noun for one row, and for several
  const char* many;
  std::vector<const char*> names;  // columns holding StringIds ids
  const char* size = nullptr;      // a byte count column, when the table has one
};

// The canonical event tables whose rows the verbs show with a duration or a name.
const std::vector<EventTable>& EventTables() {
  static const auto* tables = new std::vector<EventTable>{
      {"CUPTI_ACTIVITY_KIND_KERNEL",
       "kernel",
       "kernels",
       {"demangledName", "shortName", "mangledName"}},
      {"CUPTI_ACTIVITY_KIND_MEMCPY", "memory copy", "memory copies", {}, "bytes"},
      {"CUPTI_ACTIVITY_KIND_MEMSET", "memset", "memsets", {}, "bytes"},
      {"CUPTI_ACTIVITY_KIND_SYNCHRONIZATION", "CUDA synchronization", "CUDA synchronizations", {}},
      {"CUPTI_ACTIVITY_KIND_RUNTIME", "CUDA API call", "CUDA API calls", {"nameId"}},
      {"CUBLAS_EVENTS", "cuBLAS call", "cuBLAS calls", {"nameId"}},
      {"CUDNN_EVENTS", "cuDNN call", "cuDNN calls", {"nameId"}},
      {"NVTX_EVENTS", "NVTX event", "NVTX events", {"textId"}},
      {"OSRT_API", "OS runtime call", "OS runtime calls", {"nameId"}},
      {"MPI_P2P_EVENTS", "MPI point-to-point call", "MPI point-to-point calls", {"textId"}},
      {"MPI_COLLECTIVES_EVENTS", "MPI collective call", "MPI collective calls", {"textId"}},
      {"MPI_START_WAIT_EVENTS", "MPI start/wait call", "MPI start/wait calls", {"textId"}},
      {"MPI_OTHER_EVENTS", "MPI call", "MPI calls", {"textId"}},
  };
  return *tables;
}

// "1 kernel ends" / "3 kernels end": `singular` and `plural` are the noun and verb forms.
std::string Counted(int64_t n, const std::string& singular, const std::string& plural) {
  return n == 1 ? singular : plural;
}

// StringIds' ids when they are exactly the integers lo..hi (the usual, dense numbering): then an
// id names a string if and only if it lies in that range, and no lookup is needed.
struct DenseIds {
  int64_t lo = 0, hi = -1;
};

Result<std::optional<DenseIds>> DenseStringIds(Database& db) {
  GSYS_ASSIGN_OR_RETURN(Statement s,
                        db.Prepare("SELECT count(*), min(id), max(id) FROM StringIds"));
  GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row) return std::optional<DenseIds>();
  int64_t n = s.ColumnInt(0);
  if (n == 0) return std::optional<DenseIds>(DenseIds{});
  DenseIds d{s.ColumnInt(1), s.ColumnInt(2)};
  // hi - lo + 1 == n, written so that no subtraction overflows on hostile ids.
  bool dense = d.hi >= d.lo && d.lo > INT64_MIN / 2 && d.hi < INT64_MAX / 2 && d.hi - d.lo + 1 == n;
  return dense ? std::optional<DenseIds>(d) : std::optional<DenseIds>();
}

// One pass over `t`: rows that end before they start, rows with a name id StringIds lacks (a range
// test when the ids are dense, else one StringIds lookup per id).
std::string CountsSql(const EventTable& t, const std::optional<DenseIds>& dense) {
  std::string dangling = "0";
  for (const char* c : t.names) {
    std::string col = std::string("t.") + c;
    if (dense) {
      dangling += " OR (" + col + " IS NOT NULL AND " + col + " NOT BETWEEN " +
                  std::to_string(dense->lo) + " AND " + std::to_string(dense->hi) + ")";
    } else {
      dangling += " OR (" + col + " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM StringIds AS s " +
                  "WHERE s.id = " + col + "))";
    }
  }
  // A time that is missing or not an integer (NULL, text, a real) sorts and sums as 0 or as
  // itself: the row is shown with a made-up duration. NVTX marks have no end.
  bool nvtx = std::string(t.table) == "NVTX_EVENTS";
  std::string untimed =
      std::string("typeof(t.start) <> 'integer' OR ") +
      (nvtx ? "(t.end IS NOT NULL AND typeof(t.end) <> 'integer')" : "typeof(t.end) <> 'integer'");
  // A byte count below 0 sums into every size column of the memory reports (-1 B shown as
  // data). Not an integer at all is left to the reports, as names are.
  std::string negative = t.size == nullptr ? "0" : std::string("t.") + t.size + " < 0";
  return "SELECT coalesce(sum(t.end < t.start), 0), coalesce(sum(" + dangling + "), 0), " +
         "coalesce(sum(" + untimed + "), 0), coalesce(sum(" + negative + "), 0) FROM " +
         std::string(t.table) + " AS t";
}

// CUDA API calls repeating an earlier call's correlation id in the same process. One scan in
// rowid order first: where each process's ids only increase (every capture gsys or nsys writes)
// there is no repeat, exactly; otherwise the grouping query counts them.
Result<int64_t> RepeatedCorrelationIds(Database& db) {
  GSYS_ASSIGN_OR_RETURN(Statement scan,
                        db.Prepare("SELECT globalTid & ~0xFFFFFF, correlationId FROM "
                                   "CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL "
                                   "AND globalTid IS NOT NULL"));
  std::unordered_map<int64_t, int64_t> last;  // process -> last id: bounded by the processes
  bool increasing = true;
  while (increasing) {
    GSYS_ASSIGN_OR_RETURN(bool row, scan.Step());
    if (!row) break;
    auto [it, fresh] = last.try_emplace(scan.ColumnInt(0), scan.ColumnInt(1));
    if (!fresh) {
      increasing = scan.ColumnInt(1) > it->second;
      it->second = scan.ColumnInt(1);
    }
    if (last.size() > 4096) increasing = false;  // not a capture's shape: let SQLite count
  }
  if (increasing) return int64_t{0};
  GSYS_ASSIGN_OR_RETURN(
      std::optional<int64_t> repeats,
      db.QueryInt("SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM "
                  "CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND "
                  "globalTid IS NOT NULL GROUP BY globalTid & ~0xFFFFFF, "
                  "correlationId HAVING n > 1)"));
  return repeats.value_or(0);
}

// Adds to `problems` nsys's notes about its own capture (DIAGNOSTIC_EVENT of an nsys export).
Status AddNsysNotes(ReportReader& reader, std::vector<DataProblem>* problems) {
  // Severity (ENUM_DIAGNOSTIC_SEVERITY_LEVEL) 2 Warning, 3 Error: every error, and the warnings
  // that say data was not collected or lost ("Unable to collect CPU kernel IP/backtrace samples
  // ..."). Informational rows and other warnings ("No NVTX events collected. Does the process
  // use NVTX?") are left out. Each distinct text once, in time order, at most kMaxNsysNotes.
  if (!reader.HasTable("DIAGNOSTIC_EVENT")) return OkStatus();
  constexpr int kMaxNsysNotes = 8;
  constexpr size_t kMaxNoteBytes = 300;
  GSYS_ASSIGN_OR_RETURN(
      Statement notes,
      reader.db().Prepare(
          "SELECT text FROM main.DIAGNOSTIC_EVENT WHERE text IS NOT NULL AND (severity = 3 OR "
          "(severity = 2 AND (lower(text) LIKE '%unable%' OR lower(text) LIKE '%drop%' OR "
          "lower(text) LIKE '%lost%' OR lower(text) LIKE '%discard%' OR lower(text) LIKE "
          "'%overflow%' OR lower(text) LIKE '%fail%' OR lower(text) LIKE '%truncat%'))) "
          "GROUP BY text ORDER BY min(timestamp), text LIMIT " +
          std::to_string(kMaxNsysNotes)));
  for (;;) {
    GSYS_ASSIGN_OR_RETURN(bool row, notes.Step());
    if (!row) break;
    // nsys's multi-line notes read as one sentence: line breaks and tabs become spaces.
    std::string raw;
    for (char c : notes.ColumnText(0)) {
      bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
      if (!space)
        raw += c;
      else if (!raw.empty() && raw.back() != ' ')
        raw += ' ';
    }
    std::string text = OneLine(raw);
    while (!text.empty() && (text.back() == ' ' || text.back() == '.')) text.pop_back();
    if (text.size() > kMaxNoteBytes) {
      text = text.substr(0, Utf8CutLength(text.data(), text.size(), kMaxNoteBytes)) + "...";
    }
    problems->push_back({1, "nsys noted about its capture: " + text, false});
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<DataProblem>> CheckReportData(ReportReader& reader) {
  std::vector<DataProblem> problems;
  GSYS_ASSIGN_OR_RETURN(std::optional<DenseIds> dense, DenseStringIds(reader.db()));
  for (const EventTable& t : EventTables()) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(t.table));
    if (!rows) continue;
    GSYS_ASSIGN_OR_RETURN(Statement stmt, reader.db().Prepare(CountsSql(t, dense)));
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) continue;
    if (int64_t n = stmt.ColumnInt(0); n > 0) {
      problems.push_back(
          {n, Counted(n, std::string(t.one) + " ends before it starts (shown as it is)",
                      std::string(t.many) + " end before they start (shown as they are)")});
    }
    if (int64_t n = stmt.ColumnInt(1); n > 0) {
      problems.push_back(
          {n, Counted(n, std::string(t.one) + " names", std::string(t.many) + " name") +
                  " a string id that StringIds lacks (shown with an empty or "
                  "[unknown string ID] name)"});
    }
    if (int64_t n = stmt.ColumnInt(2); n > 0) {
      problems.push_back(
          {n, Counted(n,
                      std::string(t.one) + " has a start or end that is missing or not an "
                                           "integer (shown as it is)",
                      std::string(t.many) + " have a start or end that is missing or not an "
                                            "integer (shown as they are)")});
    }
    if (int64_t n = stmt.ColumnInt(3); n > 0) {
      problems.push_back(
          {n, Counted(n, std::string(t.one) + " has a negative size (shown as it is)",
                      std::string(t.many) + " have a negative size (shown as they are)")});
    }
  }
  // A correlation id names one call per process; GPU work joins to the first of repeats
  // (analysis/stats/reports/_launch_calls.sql).
  GSYS_ASSIGN_OR_RETURN(bool calls, reader.HasRows("CUPTI_ACTIVITY_KIND_RUNTIME"));
  if (!calls && !reader.filtered()) reader.set_correlation_ids_unique(true);
  if (calls) {
    GSYS_ASSIGN_OR_RETURN(int64_t repeats, RepeatedCorrelationIds(reader.db()));
    if (!reader.filtered()) {
      // Calls without a thread are left out of the count but not of every join: unique only
      // when there are none.
      GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> threadless,
                            reader.db().QueryInt("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME "
                                                 "WHERE correlationId IS NOT NULL AND globalTid "
                                                 "IS NULL"));
      reader.set_correlation_ids_unique(repeats == 0 && threadless.value_or(1) == 0);
    }
    if (int64_t n = repeats; n > 0) {
      problems.push_back({n, Counted(n, "CUDA API call repeats", "CUDA API calls repeat") +
                                 " the correlation id of an earlier call in the same process "
                                 "(GPU work is matched to the earliest)"});
    }
  }
  // What the capture could not keep (GSYS_DIAGNOSTICS' data-loss and error counters): a run
  // that dropped most of its records must not give a normal-looking page.
  if (reader.HasTable("GSYS_DIAGNOSTICS")) {
    GSYS_ASSIGN_OR_RETURN(
        Statement diag,
        reader.db().Prepare("SELECT name, value, coalesce(help, '') FROM GSYS_DIAGNOSTICS WHERE "
                            "severity IN ('data_loss', 'error') AND value > 0 ORDER BY name"));
    for (;;) {
      GSYS_ASSIGN_OR_RETURN(bool row, diag.Step());
      if (!row) break;
      std::string name(diag.ColumnText(0));
      std::string what = name + " (capture data lost: " + std::string(diag.ColumnText(2));
      problems.push_back({diag.ColumnInt(1), what + ")"});
    }
  }
  // Optional: a DIAGNOSTIC_EVENT that cannot be read (a hostile view, missing columns) must not
  // hide the problems found above, so its failure only leaves its notes out.
  (void)AddNsysNotes(reader, &problems);
  return problems;
}

std::vector<std::string> DataWarnings(ReportReader& reader) {
  std::vector<std::string> lines;
  Result<std::vector<DataProblem>> problems = CheckReportData(reader);
  if (!problems.ok()) return lines;
  for (const DataProblem& p : *problems) {
    lines.push_back("report '" + OneLine(reader.path()) +
                    "': " + (p.counted ? std::to_string(p.count) + " " : std::string()) + p.what);
  }
  return lines;
}

}  // namespace gsys::report
