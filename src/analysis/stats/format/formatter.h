// SPDX-License-Identifier: Apache-2.0
// Output formats of `gsys stats` (docs/cli/stats.md, --help-formats): column, table, csv,
// tsv, json, hdoc, htable. This is the header other modules include.
#pragma once

#include <memory>
#include <string>

#include "analysis/stats/format/format_request.h"
#include "analysis/stats/result_table.h"
#include "common/status.h"

namespace gsys::analysis {

// Turns one report's ResultTable into the text of one output (console block or file).
// Stateless after construction, so one instance may format many tables, from any thread.
// Hidden columns never print. Unit conversion and header units follow §2.3.
class Formatter {
 public:
  virtual ~Formatter() = default;
  // The whole output text for one report, every line ending in '\n'. The caller prints
  // the " ** Title (name):" line and the blank lines around it.
  virtual std::string Format(const ResultTable& table) const = 0;
  // File extension with its dot: ".txt", ".csv", ".tsv", ".json" or ".html".
  virtual std::string Extension() const = 0;
};

// Builds the formatter for `request`. `timeunit` is the --timeunit value ("" = default
// ns); it acts like a `time=<unit>` argument, and a unit argument in `request` wins.
// Bad name, argument or unit -> kInvalidArgument.
Result<std::unique_ptr<Formatter>> MakeFormatter(const FormatRequest& request,
                                                 const std::string& timeunit);

// Help text for `--help-formats NAME`; "ALL" (any case) gives every format, "" (a bare
// --help-formats) the list of names. Empty when `name` is none of these.
std::string FormatHelp(const std::string& name);

}  // namespace gsys::analysis
