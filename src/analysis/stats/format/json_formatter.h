// SPDX-License-Identifier: Apache-2.0
// The `json` format: one array of objects keyed by header text.
#pragma once

#include "analysis/stats/format/format_options.h"
#include "analysis/stats/format/formatter.h"

namespace gsys::analysis {

// Prints the rows as a JSON array of objects, 2-space indented with one key per line
// (the shape of Python's json.dumps(indent=2), as nsys prints it). Decimal numbers are
// JSON numbers; NULL becomes ""; text, hex ids and addresses are strings. An empty table
// prints "[]".
// Deliberate difference from nsys: strings are escaped properly (quotes, backslashes and
// control characters), so the output is always valid JSON; nsys leaves double quotes in
// values unescaped. Non-ASCII text is written as UTF-8, not as \u escapes.
class JsonFormatter : public Formatter {
 public:
  explicit JsonFormatter(FormatOptions options) : options_(std::move(options)) {}
  std::string Format(const ResultTable& table) const override;
  std::string Extension() const override { return ".json"; }

 private:
  FormatOptions options_;
};

// `text` as a quoted JSON string literal.
std::string JsonString(std::string_view text);

}  // namespace gsys::analysis
