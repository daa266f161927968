// SPDX-License-Identifier: Apache-2.0
// The `csv` and `tsv` formats: one header line (unless `nohdr`) and one line per row.
#pragma once

#include "analysis/stats/format/format_options.h"
#include "analysis/stats/format/formatter.h"

namespace gsys::analysis {

// csv: fields are joined with ','; a field holding ',', '"', CR or LF is wrapped in double
// quotes with inner quotes doubled (RFC 4180). Numbers carry no thousands separators. A text
// cell that a spreadsheet would run as a formula (=, +, -, @ first) gets a leading ' unless
// `raw` (common/csv_field.h); numbers and the header are never changed.
// tsv: fields are joined with a tab; a tab, CR or LF inside a field becomes a space, or
// with `esc` the two characters "\t", "\r", "\n" (backslashes stay as they are, as in
// nsys; only the tab rule is nsys's, CR/LF are handled so a row stays one line).
class DelimitedFormatter : public Formatter {
 public:
  DelimitedFormatter(FormatOptions options, bool tabs)
      : options_(std::move(options)), tabs_(tabs) {}
  std::string Format(const ResultTable& table) const override;
  std::string Extension() const override { return tabs_ ? ".tsv" : ".csv"; }

 private:
  // `text` as a field; `neutralise`: a formula-like text gets a leading ' (csv and tsv).
  std::string Field(std::string_view text, bool neutralise) const;

  FormatOptions options_;
  bool tabs_;
};

}  // namespace gsys::analysis
