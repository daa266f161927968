// SPDX-License-Identifier: Apache-2.0
#include "cli/stats_runner.h"

#include "analysis/stats/stats.h"
#include "cli/table_report_runner.h"

namespace gsys::cli {

Result<int> RunStats(const TableRunOptions& options, const std::vector<std::string>& report_flags) {
  std::vector<analysis::ReportRequest> requests;
  if (report_flags.empty()) {
    for (const auto& name : analysis::DefaultReports()) requests.push_back({name, {}});
  } else {
    GSYS_ASSIGN_OR_RETURN(requests, analysis::ParseReportList(report_flags));
  }
  std::vector<TableJob> jobs;
  for (const auto& r : requests) jobs.push_back({r.name, r.args});
  auto run_report = [](report::ReportReader& reader, const TableJob& job,
                       const std::string& shown) -> Result<TableOutcome> {
    GSYS_ASSIGN_OR_RETURN(analysis::ReportOutcome report,
                          analysis::RunReport(reader, {job.name, job.args}));
    TableOutcome outcome;
    outcome.skipped = report.skipped;
    outcome.skip_reason = shown + " does not contain " + report.missing_data + ".";
    outcome.title = std::move(report.title);
    outcome.table = std::move(report.table);
    return outcome;
  };
  return RunTableJobs(options, jobs, run_report);
}

}  // namespace gsys::cli
