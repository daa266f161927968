// SPDX-License-Identifier: Apache-2.0
// Runs `gsys stats`: for each input report, each requested stats report goes through
// a formatter to its destination (console, file, or command), with nsys's console shape.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cli/time_spec.h"
#include "common/status.h"

namespace gsys::cli {

struct StatsOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> report_flags;  // raw -r values (comma lists, repeatable)
  std::vector<std::string> format_flags;  // raw -f values
  std::vector<std::string> output_flags;  // raw -o values
  std::string timeunit;                   // normalized or empty
  std::optional<TimeWindowSpec> filter_time;
  std::optional<std::string> filter_nvtx;
  std::optional<std::string> sqlite_path;  // --sqlite, for .nsys-rep inputs
  bool force_overwrite = false;
  bool quiet = false;
};

// Returns the exit code (0 when every report ran or was skipped for lack of data).
Result<int> RunStats(const StatsOptions& options);

}  // namespace gsys::cli
