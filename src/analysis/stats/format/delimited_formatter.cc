// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/delimited_formatter.h"

#include "analysis/stats/format/cell_renderer.h"

namespace gsys::analysis {
namespace {

std::string CsvField(std::string_view text) {
  if (text.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(text);
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string TsvField(std::string_view text, bool esc) {
  std::string out;
  for (char c : text) {
    const char* escaped = c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : nullptr;
    if (escaped) {
      out += esc ? escaped : " ";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string DelimitedFormatter::Field(std::string_view text) const {
  return tabs_ ? TsvField(text, options_.esc) : CsvField(text);
}

std::string DelimitedFormatter::Format(const ResultTable& table) const {
  std::vector<size_t> visible = VisibleColumns(table);
  char separator = tabs_ ? '\t' : ',';
  std::string out;
  if (!options_.nohdr && !visible.empty()) {
    for (size_t k = 0; k < visible.size(); ++k) {
      if (k) out += separator;
      out += Field(HeaderText(table.columns[visible[k]], options_));
    }
    out += '\n';
  }
  if (visible.empty()) return out;
  for (const auto& row : table.rows) {
    for (size_t k = 0; k < visible.size(); ++k) {
      if (k) out += separator;
      size_t i = visible[k];
      if (i < row.size()) out += Field(RenderCell(table.columns[i], row[i], options_).text);
    }
    out += '\n';
  }
  return out;
}

}  // namespace gsys::analysis
