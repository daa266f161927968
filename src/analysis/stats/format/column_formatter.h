// SPDX-License-Identifier: Apache-2.0
// The `column` (nsys's console default) and `table` (the same with box lines) formats.
#pragma once

#include "analysis/stats/format/format_options.h"
#include "analysis/stats/format/formatter.h"

namespace gsys::analysis {

// Lays a table out in fixed-width columns (§2.2):
//  - every line starts with one space, columns are separated by two spaces, and trailing
//    blanks are dropped;
//  - headers are centred over their column (extra space on the right), then a line of
//    dashes as wide as each column;
//  - numbers are right-aligned with thousands separators (unless `nofmt`), text and NULL
//    left-aligned;
//  - an auto width is the widest of the header and the first `autolines` rows (0 = all),
//    capped at `colmax` (0 = no cap); a cell wider than the cap, or than an explicit
//    width, is cut to width-1 characters plus "…"; a later, wider row just overflows;
//  - width arguments apply to visible columns in order: "." auto, 0 hide, N exactly N.
// `table` (boxed) draws "+---+" lines above the header, "+===+" under it and "+---+"
// after every row, with "| " and " |" around cells (the nsys border characters are
// unknown; this is the Python tabulate "grid" style).
class ColumnFormatter : public Formatter {
 public:
  ColumnFormatter(FormatOptions options, bool boxed)
      : options_(std::move(options)), boxed_(boxed) {}
  std::string Format(const ResultTable& table) const override;
  std::string Extension() const override { return ".txt"; }

 private:
  FormatOptions options_;
  bool boxed_;
};

}  // namespace gsys::analysis
