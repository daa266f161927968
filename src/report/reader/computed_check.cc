// SPDX-License-Identifier: Apache-2.0
#include "report/reader/computed_check.h"

#include "common/one_line.h"

namespace gsys::report::internal {
namespace {

Status Refuse(const std::string& path, const std::string& what) {
  return Error(StatusCode::kBadInput, "report: '" + OneLine(path) + "' has " + what +
                                          ", which SQLite computes on every read; not a gsys or "
                                          "nsys report");
}

}  // namespace

Status CheckNoComputedTables(Database& db, const std::string& path) {
  // Virtual tables first: table_xinfo of one whose module is unknown fails to prepare.
  GSYS_ASSIGN_OR_RETURN(std::optional<std::string> virtual_table,
                        db.QueryText("SELECT name FROM main.sqlite_master WHERE type = 'table' AND "
                                     "sql LIKE 'CREATE VIRTUAL TABLE%' LIMIT 1"));
  if (virtual_table) return Refuse(path, "a virtual table ('" + OneLine(*virtual_table) + "')");
  GSYS_ASSIGN_OR_RETURN(
      std::optional<std::string> generated,
      db.QueryText("SELECT m.name || '.' || x.name FROM main.sqlite_master AS m, "
                   "pragma_table_xinfo(m.name, 'main') AS x WHERE m.type = 'table' AND "
                   "x.hidden = 2 LIMIT 1"));
  if (generated) return Refuse(path, "a computed column ('" + OneLine(*generated) + "')");
  return OkStatus();
}

}  // namespace gsys::report::internal
