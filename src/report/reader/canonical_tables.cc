// SPDX-License-Identifier: Apache-2.0
// Parses the canonical schema by running it in a scratch in-memory database, so schema.sql stays
// the single source of truth for table names, column order and enum values.
#include <string>
#include <vector>

#include "report/reader/schema.h"
#include "report/reader/table_plan.h"

namespace gsys::report::internal {
namespace {

Result<std::string> EnumInsertSql(Database& db, const std::string& table) {
  GSYS_ASSIGN_OR_RETURN(Statement stmt, db.Prepare("SELECT id, name, label FROM " +
                                                   QuoteIdentifier(table) + " ORDER BY id"));
  std::string values;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    if (!values.empty()) values += ",\n";
    values += "(" + std::to_string(stmt.ColumnInt(0)) + ", ";
    values += stmt.IsNull(1) ? "NULL" : QuoteLiteral(stmt.ColumnText(1));
    values += ", ";
    values += stmt.IsNull(2) ? "NULL" : QuoteLiteral(stmt.ColumnText(2));
    values += ")";
  }
  if (values.empty()) return std::string();
  return "INSERT INTO temp." + QuoteIdentifier(table) + " (id, name, label) VALUES\n" + values +
         ";\n";
}

}  // namespace

Result<std::vector<std::string>> FileColumns(Database& db, const std::string& table) {
  GSYS_ASSIGN_OR_RETURN(Statement stmt,
                        db.Prepare("SELECT name FROM pragma_table_info(?1, 'main') ORDER BY cid"));
  GSYS_RETURN_IF_ERROR(stmt.BindText(1, table));
  std::vector<std::string> columns;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    columns.emplace_back(stmt.ColumnText(0));
  }
  return columns;
}

namespace {

Result<std::vector<CanonicalTable>> ParseCanonicalTables() {
  GSYS_ASSIGN_OR_RETURN(Database db, Database::OpenInMemory());
  Status status = db.Exec(CanonicalSchemaSql());
  if (!status.ok()) {
    return Error(StatusCode::kInternal, "report: embedded schema.sql fails: " + status.message());
  }
  std::vector<CanonicalTable> tables;
  {
    GSYS_ASSIGN_OR_RETURN(
        Statement stmt,
        db.Prepare("SELECT name FROM main.sqlite_master WHERE type = 'table' ORDER BY rowid"));
    while (true) {
      GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) break;
      CanonicalTable table;
      table.name = std::string(stmt.ColumnText(0));
      table.is_enum = table.name.rfind("ENUM_", 0) == 0;
      tables.push_back(std::move(table));
    }
  }
  for (CanonicalTable& table : tables) {
    GSYS_ASSIGN_OR_RETURN(table.columns, FileColumns(db, table.name));
    if (table.is_enum) {
      GSYS_ASSIGN_OR_RETURN(table.insert_sql, EnumInsertSql(db, table.name));
    }
  }
  return tables;
}

}  // namespace

// The schema is built into the binary, so it is parsed once per process (a few milliseconds,
// more than the rest of opening a small report); every call gets a copy.
Result<std::vector<CanonicalTable>> LoadCanonicalTables() {
  static const Result<std::vector<CanonicalTable>> parsed = ParseCanonicalTables();
  return parsed;
}

}  // namespace gsys::report::internal
