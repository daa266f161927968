// SPDX-License-Identifier: Apache-2.0
// The hand-over from a rule's C++ stage to the SQL that finishes it: a temp table on the rule's
// connection, read by rules/_<rule>_native.sql.
#pragma once

#include <string>
#include <vector>

#include "analysis/stats/result_table.h"
#include "common/status.h"
#include "report/db/database.h"

namespace gsys::analysis::native {

// Replaces temp table `name` by one with `columns` and `rows`, inserted in the order given (a
// scan returns them in that order). The columns have no declared type, so every value keeps the
// storage class it is bound with: a real 50.0 stays a real, as in the SQL that it stands for.
Status ReplaceTempTable(report::Database& db, const std::string& name,
                        const std::vector<std::string>& columns,
                        const std::vector<std::vector<Cell>>& rows);

}  // namespace gsys::analysis::native
