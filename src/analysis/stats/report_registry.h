// SPDX-License-Identifier: Apache-2.0
// The registry of stats reports: one ReportSpec per report, alphabetical. A report's SQL lives in
// reports/<name>.sql and is embedded at build time (see embed_sql.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace gsys::analysis {

// Data a report needs: at least one of `any_of` must hold rows, otherwise the report is SKIPPED
// with "does not contain <description>".
struct DataNeed {
  std::vector<std::string_view> any_of;
  std::string_view description;
};

struct ReportSpec {
  std::string_view name;
  std::string_view title;
  std::vector<DataNeed> needs;
  std::vector<std::string_view> args;  // argument names accepted, see report_args.h
  std::string_view summary;            // what the report shows, for --help-reports
  // false: a report of nsys's that gsys knows by name only (Windows, graphics and other data no
  // gsys capture holds): SKIPPED as nsys does when the data is absent, an error when present.
  bool summarized = true;
};

// All reports, sorted by name.
const std::vector<ReportSpec>& ReportSpecs();
// nullptr when `name` is not a report.
const ReportSpec* FindReportSpec(std::string_view name);
// The SQL text of a report; empty when none was embedded (a build error).
std::string_view ReportSql(std::string_view name);

}  // namespace gsys::analysis
