// SPDX-License-Identifier: Apache-2.0
// DropEmptyTables: the last step of an import. An nsys export has a table only when it holds
// rows (every export of the parity corpus, tests/parity), and nsys's reports and rules decide
// "does not contain X data" by whether the table exists. A gsys report created from schema.sql
// has every table; left empty, nsys's tools would print "PROCESSED (EMPTY RESULTS)" where they
// print "SKIPPED: ..." on nsys's own export of the same program. So empty tables are dropped,
// except the enumerations (ENUM_*, always present in nsys exports), the metadata tables
// (META_DATA_*) and gsys's own (GSYS_*), which readers of gsys reports look up by name.
#pragma once

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report {

// Drops every empty table of `db` but the kept families above. Runs inside the import's
// transaction. Returns how many were dropped.
Result<int> DropEmptyTables(Database& db);

}  // namespace gsys::report
