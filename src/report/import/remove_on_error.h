// SPDX-License-Identifier: Apache-2.0
// RemoveOnError: deletes a report being written under a temporary name unless the import
// finished (armed = false once it is renamed into place), so a failed import (disk full, output
// removed, bad input) leaves no partial report behind.
#pragma once

#include <filesystem>
#include <string>

namespace gsys::report {

struct RemoveOnError {
  const std::string& path;
  bool armed = true;
  ~RemoveOnError() {
    std::error_code e;
    if (armed) std::filesystem::remove(path, e);
  }
};

}  // namespace gsys::report
