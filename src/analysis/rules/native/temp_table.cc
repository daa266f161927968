// SPDX-License-Identifier: Apache-2.0
#include "analysis/rules/native/temp_table.h"

#include "common/strings.h"

namespace gsys::analysis::native {
namespace {

Status Bind(report::Statement& insert, int index, const Cell& cell) {
  if (const auto* i = std::get_if<int64_t>(&cell)) return insert.BindInt(index, *i);
  if (const auto* d = std::get_if<double>(&cell)) return insert.BindDouble(index, *d);
  if (const auto* s = std::get_if<std::string>(&cell)) return insert.BindText(index, *s);
  return insert.BindNull(index);
}

Status InsertRows(report::Database& db, const std::string& name, size_t ncols,
                  const std::vector<std::vector<Cell>>& rows) {
  std::string marks;
  for (size_t c = 0; c < ncols; ++c) marks += c ? ", ?" : "?";
  GSYS_ASSIGN_OR_RETURN(report::Statement insert,
                        db.Prepare("INSERT INTO temp." + name + " VALUES (" + marks + ")"));
  for (const auto& row : rows) {
    for (size_t c = 0; c < ncols; ++c) {
      GSYS_RETURN_IF_ERROR(Bind(insert, static_cast<int>(c) + 1, row[c]));
    }
    GSYS_ASSIGN_OR_RETURN(bool more, insert.Step());
    (void)more;
    GSYS_RETURN_IF_ERROR(insert.Reset());
  }
  return OkStatus();
}

}  // namespace

Status ReplaceTempTable(report::Database& db, const std::string& name,
                        const std::vector<std::string>& columns,
                        const std::vector<std::vector<Cell>>& rows) {
  GSYS_RETURN_IF_ERROR(db.Exec("DROP TABLE IF EXISTS temp." + name + ";\nCREATE TEMP TABLE " +
                               name + " (" + Join(columns, ", ") + ");"));
  // One transaction: the temp store is a file, and a commit per row would sync it each time.
  GSYS_RETURN_IF_ERROR(db.Exec("BEGIN"));
  Status inserted = InsertRows(db, name, columns.size(), rows);
  if (!inserted.ok()) {
    (void)db.Exec("ROLLBACK");
    return inserted;
  }
  return db.Exec("COMMIT");
}

}  // namespace gsys::analysis::native
