// SPDX-License-Identifier: Apache-2.0
// The canonical gsys report schema (src/report/schema.sql), embedded at build time.
#pragma once

#include <cstdint>
#include <string_view>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report {

// The version of the canonical schema: PRAGMA user_version and GSYS_META.gsys_schema_version of
// every report this build writes; the newest gsys report version the reader opens.
inline constexpr int64_t kGsysSchemaVersion = 1;

// The full text of schema.sql: DDL of every canonical table, the ENUM_* rows, the initial
// GSYS_META row and `PRAGMA user_version`. Valid for the life of the program.
std::string_view CanonicalSchemaSql();

// Creates the canonical schema in `db` (an empty, writable database) in one transaction: every
// table, the enum values, GSYS_META(gsys_schema_version) and PRAGMA user_version.
Status CreateReportSchema(Database& db);

}  // namespace gsys::report
