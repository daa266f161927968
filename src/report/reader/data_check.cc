// SPDX-License-Identifier: Apache-2.0
#include "report/reader/data_check.h"

#include "common/one_line.h"
#include "report/reader/report_reader.h"

namespace gsys::report {
namespace {

struct EventTable {
  const char* table;
  const char* one;  // the warning's noun for one row, and for several
  const char* many;
  std::vector<const char*> names;  // columns holding StringIds ids
};

// The canonical event tables whose rows the verbs show with a duration or a name.
const std::vector<EventTable>& EventTables() {
  static const auto* tables = new std::vector<EventTable>{
      {"CUPTI_ACTIVITY_KIND_KERNEL",
       "kernel",
       "kernels",
       {"demangledName", "shortName", "mangledName"}},
      {"CUPTI_ACTIVITY_KIND_MEMCPY", "memory copy", "memory copies", {}},
      {"CUPTI_ACTIVITY_KIND_MEMSET", "memset", "memsets", {}},
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

// One pass over `t`: rows that end before they start, rows with a name id StringIds lacks.
std::string CountsSql(const EventTable& t) {
  std::string dangling = "0";
  for (const char* c : t.names) {
    std::string col = std::string("t.") + c;
    dangling += " OR (" + col +
                " IS NOT NULL AND NOT EXISTS (SELECT 1 FROM StringIds AS s "
                "WHERE s.id = " +
                col + "))";
  }
  return "SELECT coalesce(sum(t.end < t.start), 0), coalesce(sum(" + dangling + "), 0) FROM " +
         std::string(t.table) + " AS t";
}

}  // namespace

Result<std::vector<DataProblem>> CheckReportData(ReportReader& reader) {
  std::vector<DataProblem> problems;
  for (const EventTable& t : EventTables()) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows(t.table));
    if (!rows) continue;
    GSYS_ASSIGN_OR_RETURN(Statement stmt, reader.db().Prepare(CountsSql(t)));
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
  }
  // A correlation id names one call per process; GPU work joins to the first of repeats
  // (analysis/stats/reports/_launch_calls.sql).
  GSYS_ASSIGN_OR_RETURN(bool calls, reader.HasRows("CUPTI_ACTIVITY_KIND_RUNTIME"));
  if (calls) {
    GSYS_ASSIGN_OR_RETURN(
        std::optional<int64_t> repeats,
        reader.db().QueryInt("SELECT coalesce(sum(n - 1), 0) FROM (SELECT count(*) AS n FROM "
                             "CUPTI_ACTIVITY_KIND_RUNTIME WHERE correlationId IS NOT NULL AND "
                             "globalTid IS NOT NULL GROUP BY globalTid & ~0xFFFFFF, "
                             "correlationId HAVING n > 1)"));
    if (int64_t n = repeats.value_or(0); n > 0) {
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
  return problems;
}

std::vector<std::string> DataWarnings(ReportReader& reader) {
  std::vector<std::string> lines;
  Result<std::vector<DataProblem>> problems = CheckReportData(reader);
  if (!problems.ok()) return lines;
  for (const DataProblem& p : *problems) {
    lines.push_back("report '" + OneLine(reader.path()) + "': " + std::to_string(p.count) + " " +
                    p.what);
  }
  return lines;
}

}  // namespace gsys::report
