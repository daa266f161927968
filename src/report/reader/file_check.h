// SPDX-License-Identifier: Apache-2.0
// Cheap checks on a report file before SQLite opens it, so bad input gets a precise message.
#pragma once

#include <string>

#include "common/status.h"

namespace gsys::report::internal {

// Fails with kNotFound when `path` does not exist and kBadInput when it is a directory or not a
// regular file, is empty, does not start with the SQLite header, or is shorter than the database
// size its header declares (a truncated copy). Messages start with "report: " and name the path.
Status CheckSqliteFile(const std::string& path);

}  // namespace gsys::report::internal
