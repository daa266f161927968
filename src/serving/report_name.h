// SPDX-License-Identifier: Apache-2.0
// Report names of live-session windows. The default carries the host, the rank (RANK,
// LOCAL_RANK, OMPI_COMM_WORLD_RANK, PMI_RANK, SLURM_PROCID) and the window's UTC start time, so
// reports of many hosts and ranks never collide in one upload prefix:
//   gsys_<host>_rank<R>_<YYYYmmddTHHMMSS>Z.gsys-rep   (rank part omitted when no rank is set:
//   gsys_<host>_pid<gsys pid>_...)
// A pattern (not a directory) expands as `gsys profile -o` does (%h %p %q{VAR} %n %%).
#pragma once

#include <functional>
#include <string>

#include "common/status.h"

namespace gsys::serving {

struct ReportNaming {
  std::string output;  // "" = current directory; ends with '/' or is a directory = folder
  std::string host;
  std::string rank;  // "" = none
  std::string pid;   // gsys's pid (names without rank), and %p's value
  std::function<const char*(const std::string&)> getenv;
  std::function<bool(const std::string&)> exists;  // a path is taken
  std::string confine_to;  // "" = anywhere; else the path must stay inside (output_path.h)
};

// The report path (with .gsys-rep) for a window starting at `utc_ns`. A taken name gets "-2",
// "-3", ... before the extension. Every name passes the output-path resolver
// (common/output_path.h): a %q{} value cannot climb or make it absolute.
Result<std::string> WindowReportPath(const ReportNaming& naming, int64_t utc_ns);

// The default base name (no folder, no extension).
std::string DefaultBaseName(const std::string& host, const std::string& rank,
                            const std::string& pid, int64_t utc_ns);

}  // namespace gsys::serving
