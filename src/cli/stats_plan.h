// SPDX-License-Identifier: Apache-2.0
// The pairing of reports with formats and destinations (nsys's rule: report i uses
// format i and output i; shorter lists repeat their last element or the default).
#pragma once

#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::cli {

enum class DestinationKind { kConsole, kFile, kCommand };

struct Destination {
  DestinationKind kind = DestinationKind::kConsole;
  std::string target;  // file basename (before _report.ext) or command line
};

// Splits -f/-o flag values into items: comma lists, repeatable; an empty item repeats
// the previous one, a leading empty item means the default ("").
std::vector<std::string> ExpandListFlags(const std::vector<std::string>& values);

// Parses one -o item: "-" console, "@cmd" command, "." default basename, else basename.
Result<Destination> ParseDestination(const std::string& item, const std::string& input_path);

// The file name for `report_name` with `args` under `basename`: BASENAME_REPORT[_ARG...]EXT.
std::string OutputFileName(const std::string& basename, const std::string& report_name,
                           const std::vector<std::string>& args, const std::string& extension);

// Picks element `i` of `items`, repeating the last one, or `fallback` when empty.
std::string PairedItem(const std::vector<std::string>& items, size_t i,
                       const std::string& fallback);

}  // namespace gsys::cli
