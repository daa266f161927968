// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/html_formatter.h"

#include "analysis/stats/format/cell_renderer.h"

namespace gsys::analysis {

std::string HtmlEscape(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string HtmlFormatter::Format(const ResultTable& table) const {
  std::vector<size_t> visible = VisibleColumns(table);
  std::string out;
  if (document_) {
    out += "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n";
    out += "<title>" + HtmlEscape(options_.title) + "</title>\n";
    if (!options_.css.empty()) {
      out += "<link rel=\"stylesheet\" href=\"" + HtmlEscape(options_.css) + "\">\n";
    }
    out += "</head>\n<body>\n";
  }
  out += "<table>\n<tr>";
  for (size_t i : visible)
    out += "<th>" + HtmlEscape(HeaderText(table.columns[i], options_)) + "</th>";
  out += "</tr>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (size_t i : visible) {
      std::string text = i < row.size() ? RenderCell(table.columns[i], row[i], options_).text : "";
      out += "<td>" + HtmlEscape(text) + "</td>";
    }
    out += "</tr>\n";
  }
  out += "</table>\n";
  if (document_) out += "</body>\n</html>\n";
  return out;
}

}  // namespace gsys::analysis
