// SPDX-License-Identifier: Apache-2.0
// The metadata tables of nsys's export, filled the way nsys 2025.3.1 fills them (names as in
// the parity corpus, tests/parity), with what gsys knows:
//   META_DATA_EXPORT        product, version, export schema version (the nsys schema gsys's
//                           report follows), platform, time, host, output file
//   META_DATA_CAPTURE       the capture's event types, start trigger, OS runtime threshold, the
//                           command, working directory and environment (secrets redacted)
//   TARGET_INFO_SYSTEM_ENV  CPU count and architecture, host, OS, kernel, environment
// Scripts that branch on EXPORT_SCHEMA_VERSION or read capture settings find them.
#pragma once

#include <string>

#include "common/status.h"
#include "format/session_meta.h"
#include "report/db/database.h"

namespace gsys::report {

// The nsys export schema gsys's report follows (src/report/schema.sql).
inline constexpr const char* kExportSchemaVersion = "3.20.3";

Status WriteExportMetadata(Database& db, const format::SessionMeta& meta,
                           const std::string& output_path);

}  // namespace gsys::report
