// SPDX-License-Identifier: Apache-2.0
// The `htable` (bare <table>) and `hdoc` (stand-alone HTML5 document) formats.
#pragma once

#include "analysis/stats/format/format_options.h"
#include "analysis/stats/format/formatter.h"

namespace gsys::analysis {

// htable: a <table> with one <tr> of <th> header cells, then one <tr> of <td> per row,
// one <tr> per line. hdoc wraps it in <!DOCTYPE html> with a UTF-8 charset, <title>
// (`title=`, default "gsys stats") and, with `css=URL`, a stylesheet link. All text and
// attribute values are HTML-escaped; numbers are printed as in csv.
class HtmlFormatter : public Formatter {
 public:
  HtmlFormatter(FormatOptions options, bool document)
      : options_(std::move(options)), document_(document) {}
  std::string Format(const ResultTable& table) const override;
  std::string Extension() const override { return ".html"; }

 private:
  FormatOptions options_;
  bool document_;
};

// `text` with & < > " ' replaced by character references.
std::string HtmlEscape(std::string_view text);

}  // namespace gsys::analysis
