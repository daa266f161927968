// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/stats_engine.h"

#include <string>

#include "analysis/stats/column_alias.h"
#include "analysis/stats/group_stats_function.h"
#include "analysis/stats/report_args.h"
#include "analysis/stats/report_registry.h"
#include "analysis/stats/sql_template.h"
#include "analysis/stats/stats.h"
#include "common/strings.h"
#include "report/db/sql_functions.h"

namespace gsys::analysis {

using gsys::report::Database;
using gsys::report::Statement;

namespace {

// Unpacks one element of gsys_group_stats's JSON (see group_stats_function.h) into columns.
constexpr const char* kGroupStatsColumns =
    "json_extract(value, '$[0]') AS key, json_extract(value, '$[1]') AS total, "
    "json_extract(value, '$[2]') AS num, json_extract(value, '$[3]') AS avg, "
    "json_extract(value, '$[4]') AS med, json_extract(value, '$[5]') AS min, "
    "json_extract(value, '$[6]') AS max, json_extract(value, '$[7]') AS stddev, "
    "json_extract(value, '$[8]') AS q1, json_extract(value, '$[9]') AS q3";

}  // namespace

std::vector<std::string> SplitSqlStatements(std::string_view sql) {
  std::vector<std::string> statements;
  size_t begin = 0;
  for (size_t pos = sql.find(';'); pos != std::string_view::npos; pos = sql.find(';', pos + 1)) {
    std::string candidate(sql.substr(begin, pos - begin + 1));
    if (!sqlite3_complete(candidate.c_str())) continue;  // ';' inside a string or comment
    statements.push_back(std::move(candidate));
    begin = pos + 1;
  }
  std::string rest(sql.substr(begin));
  if (rest.find_first_not_of(" \t\r\n") != std::string::npos) statements.push_back(rest);
  return statements;
}

Result<ResultTable> QueryResultTable(Database& db, std::string_view sql) {
  std::vector<std::string> statements = SplitSqlStatements(sql);
  if (statements.empty()) return Error(StatusCode::kInternal, "stats: empty report query");
  for (size_t i = 0; i + 1 < statements.size(); ++i) GSYS_RETURN_IF_ERROR(db.Exec(statements[i]));
  GSYS_ASSIGN_OR_RETURN(Statement stmt, db.Prepare(statements.back()));
  ResultTable table;
  int ncols = stmt.ColumnCount();
  for (int c = 0; c < ncols; ++c) table.columns.push_back(ParseColumnAlias(stmt.ColumnName(c)));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool has_row, stmt.Step());
    if (!has_row) break;
    std::vector<Cell> row;
    row.reserve(static_cast<size_t>(ncols));
    for (int c = 0; c < ncols; ++c) {
      switch (stmt.ColumnType(c)) {
        case SQLITE_INTEGER:
          row.emplace_back(stmt.ColumnInt(c));
          break;
        case SQLITE_FLOAT:
          row.emplace_back(stmt.ColumnDouble(c));
          break;
        case SQLITE_NULL:
          row.emplace_back(std::monostate{});
          break;
        default:
          row.emplace_back(std::string(stmt.ColumnText(c)));
          break;
      }
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

static const DataNeed kNvtxNeed{{"NVTX_EVENTS"}, "NV Tools Extension (NVTX) data"};

Result<ReportOutcome> RunReportWith(Database& db, const HasRowsFn& has_rows,
                                    const ReportRequest& request, bool unique_correlation) {
  const ReportSpec* spec = FindReportSpec(request.name);
  if (!spec) {
    return Error(StatusCode::kInvalidArgument, "stats: unknown report '" + request.name +
                                                   "' (did you mean '" +
                                                   ClosestReportName(request.name) + "'?)");
  }
  GSYS_ASSIGN_OR_RETURN(TemplateContext ctx, BindReportArgs(*spec, request.args));
  ReportOutcome outcome;
  outcome.title = std::string(spec->title);
  std::vector<DataNeed> needs = spec->needs;
  // :nvtx-name names kernels by their NVTX range: without NVTX data nsys skips the report.
  if (ctx.flags["nvtx_name"]) needs.push_back(kNvtxNeed);
  for (const DataNeed& need : needs) {
    bool found = false;
    for (std::string_view table : need.any_of) {
      GSYS_ASSIGN_OR_RETURN(found, has_rows(table));
      if (found) break;
    }
    if (!found) {
      outcome.skipped = true;
      outcome.missing_data = std::string(need.description);
      return outcome;
    }
  }
  if (!spec->summarized) {
    return Error(StatusCode::kUnsupported,
                 "stats: report '" + request.name + "': the report holds " +
                     std::string(spec->needs[0].description) +
                     ", which gsys cannot summarize (docs/differences-from-nsys.md)");
  }
  std::string_view text = ReportSql(spec->name);
  if (text.empty()) {
    return Error(StatusCode::kInternal, "stats: no SQL embedded for report '" + request.name + "'");
  }
  ctx.partials = [](std::string_view partial) { return ReportSql("_" + std::string(partial)); };
  ctx.vars["group_stats_columns"] = kGroupStatsColumns;
  ctx.flags["unique_correlation"] = unique_correlation;
  for (const std::string& table : TablesTestedByTemplate(text, ctx.partials)) {
    GSYS_ASSIGN_OR_RETURN(bool present, has_rows(table));
    ctx.flags["has:" + table] = present;
  }
  GSYS_ASSIGN_OR_RETURN(std::string sql, RenderSqlTemplate(spec->name, text, ctx));
  GSYS_RETURN_IF_ERROR(gsys::report::RegisterSqlFunctions(db));
  GSYS_RETURN_IF_ERROR(RegisterGroupStatsFunction(db));
  auto table = QueryResultTable(db, sql);
  if (!table.ok()) {
    return Error(StatusCode::kBadInput,
                 "stats: report '" + request.name + "' failed: " + table.status().message());
  }
  outcome.table = std::move(table).value();
  return outcome;
}

Result<ReportOutcome> RunReportOnDatabase(Database& db, const ReportRequest& request) {
  HasRowsFn has_rows = [&db](std::string_view table) -> Result<bool> {
    std::string exists_sql = "SELECT count(*) FROM (SELECT name FROM sqlite_master WHERE name = " +
                             gsys::report::QuoteLiteral(table) +
                             " UNION ALL SELECT name FROM sqlite_temp_master WHERE name = " +
                             gsys::report::QuoteLiteral(table) + ")";
    GSYS_ASSIGN_OR_RETURN(auto count, db.QueryInt(exists_sql));
    if (!count || *count == 0) return false;
    GSYS_ASSIGN_OR_RETURN(auto row, db.QueryInt("SELECT 1 FROM " +
                                                gsys::report::QuoteIdentifier(table) + " LIMIT 1"));
    return row.has_value();
  };
  return RunReportWith(db, has_rows, request);
}

const std::vector<ReportInfo>& AllReports() {
  static const std::vector<ReportInfo>* infos = [] {
    auto* list = new std::vector<ReportInfo>();
    for (const ReportSpec& spec : ReportSpecs()) {
      list->push_back(
          {std::string(spec.name), std::string(spec.title), ReportHelp(std::string(spec.name))});
    }
    return list;
  }();
  return *infos;
}

std::vector<std::string> DefaultReports() {
  // nsys 2025.3.1's default order; reports gsys does not have are left out.
  static constexpr std::string_view kNsysDefaults[] = {"nvtx_sum",
                                                       "osrt_sum",
                                                       "cuda_api_sum",
                                                       "cuda_gpu_kern_sum",
                                                       "cuda_gpu_mem_time_sum",
                                                       "cuda_gpu_mem_size_sum",
                                                       "openmp_sum",
                                                       "opengl_khr_range_sum",
                                                       "opengl_khr_gpu_range_sum",
                                                       "vulkan_marker_sum",
                                                       "vulkan_gpu_marker_sum",
                                                       "dx11_pix_sum",
                                                       "dx12_gpu_marker_sum",
                                                       "dx12_pix_sum",
                                                       "wddm_queue_sum",
                                                       "um_sum",
                                                       "um_total_sum",
                                                       "um_cpu_page_faults_sum",
                                                       "openacc_sum",
                                                       "syscall_sum"};
  std::vector<std::string> names;
  for (std::string_view name : kNsysDefaults) {
    if (FindReportSpec(name)) names.emplace_back(name);
  }
  return names;
}

std::string ReportHelp(const std::string& name) {
  if (name.empty()) {
    std::string list = "The following built-in reports are available:\n\n";
    for (const ReportSpec& s : ReportSpecs()) {
      std::string left = "  " + std::string(s.name);
      if (left.size() < 26) left.resize(26, ' ');
      list += left + " -- " + std::string(s.title) + "\n";
    }
    list += "\nThe default set (no -r): " + Join(DefaultReports(), ", ") + "\n";
    return list + "Run --help-reports NAME (or ALL) for a report's arguments and columns.\n";
  }
  if (name == "ALL") {
    std::string all;
    for (const ReportSpec& spec : ReportSpecs()) all += ReportHelp(std::string(spec.name)) + "\n";
    return all;
  }
  const ReportSpec* spec = FindReportSpec(name);
  if (!spec) {
    std::string text = "stats: unknown report '" + name + "' (did you mean '" +
                       ClosestReportName(name) + "'?); reports:";
    for (const ReportSpec& s : ReportSpecs()) text += " " + std::string(s.name);
    return text + "\n";
  }
  std::string usage(spec->name);
  for (std::string_view arg : spec->args) {
    usage += (arg == "rows") ? "[:rows=<limit>]" : "[:" + std::string(arg) + "]";
  }
  std::string text = usage + " -- " + std::string(spec->title) + "\n\n";
  std::string args = ReportArgsHelp(*spec);
  text += args.empty() ? "    No arguments.\n" : args;
  text += "\n    " + std::string(spec->summary) + "\n";
  return text;
}

}  // namespace gsys::analysis
