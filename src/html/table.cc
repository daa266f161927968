// SPDX-License-Identifier: Apache-2.0
// Tables: a <table class="sortable"> (page_assets.cc's script sorts it when a header is clicked)
// with at most kMaxTableRows rows.
#include <algorithm>

#include "common/strings.h"
#include "html/blocks.h"
#include "html/markup.h"

namespace gsys::html {

std::string Note(const std::string& text) { return "<p class=\"note\">" + Escape(text) + "</p>\n"; }

std::string RenderTable(const Table& table) {
  std::string out = "<div class=\"table-wrap\"><table class=\"sortable\">\n<thead><tr>";
  for (const auto& c : table.columns) {
    out += c.numeric ? "<th class=\"num\" tabindex=\"0\">" : "<th tabindex=\"0\">";
    out += Escape(c.name) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  size_t shown = std::min(table.rows.size(), kMaxTableRows);
  for (size_t r = 0; r < shown; ++r) {
    const auto& row = table.rows[r];
    out += "<tr>";
    for (size_t c = 0; c < std::max(row.size(), table.columns.size()); ++c) {
      bool numeric = c < table.columns.size() && table.columns[c].numeric;
      out += numeric ? "<td class=\"num\">" : "<td>";
      if (c < row.size()) out += Escape(row[c]);
      out += "</td>";
    }
    out += "</tr>\n";
  }
  out += "</tbody></table></div>\n";
  if (table.rows.empty()) out += Note("No rows.");
  if (shown < table.rows.size()) {
    out += Note("Showing the first " + GroupThousands(std::to_string(shown)) + " of " +
                GroupThousands(std::to_string(table.rows.size())) + " rows.");
  }
  return out;
}

}  // namespace gsys::html
