// SPDX-License-Identifier: Apache-2.0
// Tables whose values SQLite computes when they are read instead of reading them from the file.
// A report is rows on disk; a crafted one that declares `value AS (printf('%.*c', 2e8, 'x'))`
// in StringIds makes every read of a name build a 200 MB string: a 600 KB file kept
// `export -t csv` busy for minutes at 800 MB and counting (issue 17 item 10). Neither gsys nor
// nsys writes virtual generated columns or virtual tables.
#pragma once

#include <string>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report::internal {

// Fails with kBadInput, naming `path` and the first such table (and column), when a table of
// `db`'s main schema is a virtual table or has a virtual generated column. Stored generated
// columns are data in the file and pass.
Status CheckNoComputedTables(Database& db, const std::string& path);

}  // namespace gsys::report::internal
