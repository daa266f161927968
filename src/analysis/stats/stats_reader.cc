// SPDX-License-Identifier: Apache-2.0
// RunReport over a ReportReader: table presence comes from the reader, which hides the schema
// differences between nsys versions (built only once the reader exists).
#include "analysis/stats/stats_engine.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis {

Result<ReportOutcome> RunReport(gsys::report::ReportReader& reader, const ReportRequest& request) {
  HasRowsFn has_rows = [&reader](std::string_view table) -> Result<bool> {
    return reader.HasRows(std::string(table));
  };
  return RunReportWith(reader.db(), has_rows, request,
                       reader.correlation_ids_unique().value_or(false));
}

}  // namespace gsys::analysis
