// SPDX-License-Identifier: Apache-2.0
#include "analysis/stats/format/json_formatter.h"

#include <cstdio>

#include "analysis/stats/format/cell_renderer.h"

namespace gsys::analysis {

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out + "\"";
}

std::string JsonFormatter::Format(const ResultTable& table) const {
  if (table.rows.empty()) return "[]\n";
  std::vector<size_t> visible = VisibleColumns(table);
  std::vector<std::string> keys;
  for (size_t i : visible) keys.push_back(JsonString(HeaderText(table.columns[i], options_)));
  std::string out = "[\n";
  for (size_t r = 0; r < table.rows.size(); ++r) {
    const auto& row = table.rows[r];
    if (visible.empty()) {
      out += "  {}";
    } else {
      out += "  {\n";
      for (size_t k = 0; k < visible.size(); ++k) {
        size_t i = visible[k];
        RenderedCell cell =
            i < row.size() ? RenderCell(table.columns[i], row[i], options_) : RenderedCell{};
        bool number = cell.numeric && cell.groupable;
        out += "    " + keys[k] + ": " + (number ? cell.text : JsonString(cell.text));
        out += k + 1 < visible.size() ? ",\n" : "\n";
      }
      out += "  }";
    }
    out += r + 1 < table.rows.size() ? ",\n" : "\n";
  }
  return out + "]\n";
}

}  // namespace gsys::analysis
