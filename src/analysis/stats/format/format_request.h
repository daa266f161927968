// SPDX-License-Identifier: Apache-2.0
// FormatRequest: one `-f/--format` item ("csv:nohdr:ms") parsed and validated.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace gsys::analysis {

// A format name and its ':'-separated arguments: "csv:nohdr:ms" -> {"csv", {"nohdr", "ms"}}.
struct FormatRequest {
  std::string name;
  std::vector<std::string> args;
};

// The format names `gsys stats` knows, in help order:
// column, table, csv, tsv, json, hdoc, htable.
std::vector<std::string> FormatNames();

// Splits `text` on ':' and validates the name and every argument for that format.
// Unknown name -> kInvalidArgument "stats: unknown format 'x' (did you mean 'csv'?)".
// The "." (default format) and empty list items are the caller's business and are rejected.
// A `css=` URL keeps its scheme ("css=https://h/x.css" is one argument).
Result<FormatRequest> ParseFormatRequest(std::string_view text);

// Longest-prefix match of `text` (case-insensitive) on
// nsec nanoseconds usec microseconds msec milliseconds seconds; returns "ns", "us", "ms"
// or "s". No match or an ambiguous prefix ("m") -> kInvalidArgument.
Result<std::string> NormalizeTimeUnit(std::string_view text);

}  // namespace gsys::analysis
