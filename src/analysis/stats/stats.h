// SPDX-License-Identifier: Apache-2.0
// The stats engine: nsys-compatible summary reports over a report database.
// Each report is one SQL file in reports/ plus one line in report_registry.cc.
#pragma once

#include <string>
#include <vector>

#include "analysis/stats/result_table.h"
#include "common/status.h"

namespace gsys::report {
class ReportReader;
class Database;
}  // namespace gsys::report

namespace gsys::analysis {

// One report to run: its name and its arguments as given after ':' ("base", "rows=5").
struct ReportRequest {
  std::string name;
  std::vector<std::string> args;
};

// Parses the values of every `-r/--report` flag with nsys's rules: comma lists, the flag is
// repeatable, an empty item repeats the previous report with its arguments, a leading empty
// item is an error. Unknown names and bad arguments are kInvalidArgument errors naming them.
Result<std::vector<ReportRequest>> ParseReportList(const std::vector<std::string>& flag_values);

struct ReportInfo {
  std::string name;   // "cuda_gpu_kern_sum"
  std::string title;  // "CUDA GPU Kernel Summary"
  std::string help;   // usage line, arguments and column meanings
};

// Every report, in alphabetical order of name.
const std::vector<ReportInfo>& AllReports();

// The reports run when no -r is given: nsys's default set restricted to the reports gsys has,
// in nsys's order.
std::vector<std::string> DefaultReports();

struct ReportOutcome {
  bool skipped = false;      // the report needs data the database does not hold
  std::string missing_data;  // when skipped: e.g. "CUDA kernel data"
  ResultTable table;
  std::string title;  // display title, e.g. "CUDA GPU Kernel Summary"
};

// Runs one report on an opened report. Errors: kInvalidArgument for an unknown report or a bad
// argument, kBadInput when the SQL fails on this database.
Result<ReportOutcome> RunReport(gsys::report::ReportReader& reader, const ReportRequest& request);

// Same on a bare database connection whose schema is already canonical for the tables that hold
// rows (tests and tools). Registers the SQL functions the reports need on `db`.
Result<ReportOutcome> RunReportOnDatabase(gsys::report::Database& db, const ReportRequest& request);

// Help for `--help-reports NAME`; "ALL" gives every report's help; an unknown name gives a
// one-line message listing the known reports.
std::string ReportHelp(const std::string& name);

}  // namespace gsys::analysis
