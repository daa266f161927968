// SPDX-License-Identifier: Apache-2.0
// file:// destinations: an atomic copy (temporary file in the target directory, fsync,
// rename), so a reader of the directory never sees a partial report.
#pragma once

#include <string>

#include "common/status.h"

namespace gsys::upload {

// Copies `local_path` to `dir` + `name`. `dir` is absolute and ends with '/'; it is created
// (with parents) when missing. An existing file of that name is replaced. Messages name
// `display_path` (default: local_path).
Status CopyFileAtomically(const std::string& local_path, const std::string& dir,
                          const std::string& name, const std::string& display_path = "");

}  // namespace gsys::upload
