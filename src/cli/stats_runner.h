// SPDX-License-Identifier: Apache-2.0
// Runs `gsys stats`: for each input report, each requested stats report goes through
// a formatter to its destination (console, file, or command), with nsys's console shape.
#pragma once

#include <string>
#include <vector>

#include "cli/table_report_runner.h"
#include "common/status.h"

namespace gsys::cli {

// Runs the reports named by the raw -r values `report_flags` (comma lists, repeatable; none
// means the default set) with `options`. Returns the exit code (0 when every report ran or
// was skipped for lack of data).
Result<int> RunStats(const TableRunOptions& options, const std::vector<std::string>& report_flags);

}  // namespace gsys::cli
