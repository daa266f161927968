// SPDX-License-Identifier: Apache-2.0
#include "report/reader/schema.h"

#include <string>

namespace gsys::report {

Status CreateReportSchema(Database& db) {
  GSYS_ASSIGN_OR_RETURN(std::optional<int64_t> tables,
                        db.QueryInt("SELECT count(*) FROM main.sqlite_master"));
  if (tables.value_or(0) != 0) {
    return Error(StatusCode::kInvalidArgument, "report: cannot create the report schema in '" +
                                                   db.path() + "': the database is not empty");
  }
  GSYS_RETURN_IF_ERROR(db.Exec("BEGIN"));
  Status status = db.Exec(CanonicalSchemaSql());
  if (!status.ok()) {
    (void)db.Exec("ROLLBACK");
    return Error(StatusCode::kInternal,
                 "report: creating the report schema failed: " + status.message());
  }
  return db.Exec("COMMIT");
}

}  // namespace gsys::report
