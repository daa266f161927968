// SPDX-License-Identifier: Apache-2.0
// The DDL `gsys export -t sqlite` copies from a report's sqlite_master, run as what it claims to
// be and nothing more. The text is the report's, so a crafted report can put anything there:
// `CREATE TABLE t(a); COMMIT; ATTACH '/home/me/other.db' AS e; DROP TABLE e.x` ran every
// statement through sqlite3_exec and changed databases the user never named (issue 17 item 7).
#pragma once

#include <sqlite3.h>

#include <string>

#include "common/status.h"

namespace gsys::export_ {

// Runs `sql` on `db` when it is exactly one CREATE TABLE or CREATE INDEX statement that touches
// only the main database and reads no rows (no CREATE TABLE ... AS SELECT); anything else
// (more statements, ATTACH, PRAGMA, transactions, another schema) is refused unrun with a
// kBadInput error naming `what` (the object) and `out` (the output being written).
Status ExecCopiedDdl(sqlite3* db, const std::string& sql, const std::string& what,
                     const std::string& out);

}  // namespace gsys::export_
