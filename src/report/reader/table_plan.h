// SPDX-License-Identifier: Apache-2.0
// Internal to the reader: the canonical tables (parsed from schema.sql) and how the reader presents
// each one over a given file.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report::internal {

// One table of schema.sql, in schema order.
struct CanonicalTable {
  std::string name;
  std::vector<std::string> columns;
  bool is_enum = false;
  std::string insert_sql;  // ENUM_* only: "INSERT INTO temp.X VALUES (...), ...;"
};

// Parses CanonicalSchemaSql() by running it in a scratch in-memory database.
Result<std::vector<CanonicalTable>> LoadCanonicalTables();

// How one table is presented under its canonical (or, for filtered extra tables, file) name.
struct TablePlan {
  std::string name;                 // name SQL uses (canonical, or the file's for extra tables)
  std::string from;                 // FROM clause over main; empty: synthesized empty view
  std::vector<std::string> select;  // SELECT list presenting the canonical columns
  bool needs_view = false;          // differs from canonical even without a filter
  bool has_start_end = false;       // the file's rows have start and end (filterable)
  bool has_global_tid = false;
  bool has_global_pid = false;
};

// The file's tables: lowercase name -> name as in the file.
using FileTables = std::map<std::string, std::string>;

// Columns of main.`table` in order (PRAGMA table_info).
Result<std::vector<std::string>> FileColumns(Database& db, const std::string& table);

// Builds the plan of every canonical table and of every extra file table with start/end columns.
// Creates, in `db`'s temp schema, the synthesized TEMP TABLEs (missing ENUM_*, PROCESSES), which
// no plan covers.
Result<std::vector<TablePlan>> PlanPresentation(Database& db, const FileTables& file_tables,
                                                const std::vector<CanonicalTable>& canonical);

// The SQL of the TEMP VIEW for `plan` with `where` ("" for none).
std::string ViewSql(const TablePlan& plan, const std::string& where);

}  // namespace gsys::report::internal
