// SPDX-License-Identifier: Apache-2.0
#include "report/import/empty_tables.h"

#include <string>
#include <vector>

#include "common/strings.h"

namespace gsys::report {
namespace {

bool Kept(const std::string& table) {
  return StartsWith(table, "ENUM_") || StartsWith(table, "META_DATA_") ||
         StartsWith(table, "GSYS_") || StartsWith(table, "sqlite_");
}

}  // namespace

Result<int> DropEmptyTables(Database& db) {
  std::vector<std::string> tables;
  {
    GSYS_ASSIGN_OR_RETURN(Statement list,
                          db.Prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'"));
    for (;;) {
      GSYS_ASSIGN_OR_RETURN(bool row, list.Step());
      if (!row) break;
      std::string name(list.ColumnText(0));
      if (!Kept(name)) tables.push_back(std::move(name));
    }
  }
  int dropped = 0;
  for (const std::string& table : tables) {
    GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> any,
                          db.QueryInt("SELECT 1 FROM " + QuoteIdentifier(table) + " LIMIT 1"));
    if (any) continue;
    GSYS_RETURN_IF_ERROR(db.Exec("DROP TABLE " + QuoteIdentifier(table)));
    ++dropped;
  }
  return dropped;
}

}  // namespace gsys::report
