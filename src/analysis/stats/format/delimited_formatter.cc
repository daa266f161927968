// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/delimited_formatter.h"

#include "analysis/stats/format/cell_renderer.h"
#include "common/csv_field.h"

namespace gsys::analysis {
namespace {

std::string TsvField(std::string_view text, bool esc, bool neutralise) {
  std::string out;
  if (neutralise && IsFormulaLike(text)) out += '\'';
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

std::string DelimitedFormatter::Field(std::string_view text, bool neutralise) const {
  if (tabs_) return TsvField(text, options_.esc, neutralise);
  std::string out;
  AppendCsvField(out, text, neutralise);
  return out;
}

std::string DelimitedFormatter::Format(const ResultTable& table) const {
  std::vector<size_t> visible = VisibleColumns(table);
  char separator = tabs_ ? '\t' : ',';
  std::string out;
  if (!options_.nohdr && !visible.empty()) {
    for (size_t k = 0; k < visible.size(); ++k) {
      if (k) out += separator;
      out += Field(HeaderText(table.columns[visible[k]], options_), /*neutralise=*/false);
    }
    out += '\n';
  }
  if (visible.empty()) return out;
  for (const auto& row : table.rows) {
    for (size_t k = 0; k < visible.size(); ++k) {
      if (k) out += separator;
      size_t i = visible[k];
      if (i >= row.size()) continue;
      // Only TEXT values: a number (also "-inf", a gid or an address) is never changed.
      bool text = std::holds_alternative<std::string>(row[i]);
      out += Field(RenderCell(table.columns[i], row[i], options_).text, text && !options_.raw);
    }
    out += '\n';
  }
  return out;
}

}  // namespace gsys::analysis
