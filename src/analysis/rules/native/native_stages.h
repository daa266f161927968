// SPDX-License-Identifier: Apache-2.0
// Rules with a C++ stage (issue 20 item 3). SQLite has no hash aggregate, so a rule that groups or
// windows a million GPU operations sorts them more than once; the stage does that part in one
// scan and a sort in memory and writes what is left, a few rows per device, to a temp table. The
// rule's last steps (rounding, ranking, the row limit) stay in SQL, rules/_<rule>_native.sql,
// written with the same partial as the rule's SQL, so both paths give byte-identical output.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gsys::report {
class ReportReader;
}

namespace gsys::analysis::native {

// Writes the rule's temp tables from the reader's rows (through its filter), with the rule's
// options (`values`: every option, defaults included). false: the data has a shape on which the
// stage could differ from the SQL (gpu_ops.h), nothing is to be read; run the rule's SQL.
using Stage = Result<bool> (*)(report::ReportReader& reader,
                               const std::map<std::string, int64_t>& values);

// The C++ stage of rule `name`, nullptr when it has none.
Stage FindStage(std::string_view name);

Result<bool> GpuGapsStage(report::ReportReader& reader,
                          const std::map<std::string, int64_t>& values);
Result<bool> GpuTimeUtilStage(report::ReportReader& reader,
                              const std::map<std::string, int64_t>& values);

}  // namespace gsys::analysis::native
