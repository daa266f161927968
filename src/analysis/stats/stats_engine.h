// SPDX-License-Identifier: Apache-2.0
// Internal entry point shared by RunReport (over a ReportReader) and RunReportOnDatabase.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/stats/stats.h"
#include "report/db/database.h"

namespace gsys::analysis {

// Answers whether a table exists and holds at least one row.
using HasRowsFn = std::function<Result<bool>(std::string_view table)>;

// Validates the request, checks the data the report needs (SKIPPED when absent), expands the
// report's SQL template and runs it on `db`. `unique_correlation`: no API call repeats another's
// correlation id in its process (ReportReader::correlation_ids_unique), so GPU work joins the
// runtime table directly (_launch_calls.sql). Not thread-safe with respect to `db`.
Result<ReportOutcome> RunReportWith(gsys::report::Database& db, const HasRowsFn& has_rows,
                                    const ReportRequest& request, bool unique_correlation = false);

// Splits `sql` into complete statements (';' inside strings and comments does not split).
std::vector<std::string> SplitSqlStatements(std::string_view sql);

// Runs `sql`: every statement but the last is setup (e.g. TEMP tables with an index, which a
// read-only connection allows); the last one's rows and column aliases become the ResultTable.
Result<ResultTable> QueryResultTable(gsys::report::Database& db, std::string_view sql);

}  // namespace gsys::analysis
