// SPDX-License-Identifier: Apache-2.0
// Internal entry point shared by RunReport (over a ReportReader) and RunReportOnDatabase.
#pragma once

#include <functional>
#include <string_view>

#include "analysis/stats/stats.h"
#include "report/db/database.h"

namespace gsys::analysis {

// Answers whether a table exists and holds at least one row.
using HasRowsFn = std::function<Result<bool>(std::string_view table)>;

// Validates the request, checks the data the report needs (SKIPPED when absent), expands the
// report's SQL template and runs it on `db`. Not thread-safe with respect to `db`.
Result<ReportOutcome> RunReportWith(gsys::report::Database& db, const HasRowsFn& has_rows,
                                    const ReportRequest& request);

// Runs `sql` (one statement) and converts its rows and column aliases into a ResultTable.
Result<ResultTable> QueryResultTable(gsys::report::Database& db, std::string_view sql);

}  // namespace gsys::analysis
