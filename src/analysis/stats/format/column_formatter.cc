// SPDX-License-Identifier: Apache-2.0
// Approach: render every shown cell once (units, separators, truncation), size the
// columns from the header and the first `autolines` rows, then pad line by line.
#include "analysis/stats/format/column_formatter.h"

#include <algorithm>

#include "analysis/stats/format/cell_renderer.h"
#include "common/one_line.h"
#include "common/strings.h"

namespace gsys::analysis {
namespace {

enum class Align { kLeft, kRight, kCentre };

struct Layout {
  std::vector<std::string> headers;
  std::vector<size_t> widths;
  std::vector<std::vector<RenderedCell>> rows;  // shown columns only, laid-out text
};

std::string Pad(const std::string& text, size_t width, Align align) {
  size_t length = DisplayLength(text);
  if (length >= width) return text;
  size_t gap = width - length;
  size_t left = align == Align::kRight ? gap : align == Align::kCentre ? gap / 2 : 0;
  return std::string(left, ' ') + text + std::string(gap - left, ' ');
}

Layout BuildLayout(const ResultTable& table, const FormatOptions& options) {
  std::vector<size_t> shown;
  std::vector<int> requested;
  std::vector<size_t> visible = VisibleColumns(table);
  for (size_t k = 0; k < visible.size(); ++k) {
    int width = k < options.widths.size() ? options.widths[k] : kAutoWidth;
    if (width == 0) continue;
    shown.push_back(visible[k]);
    requested.push_back(width);
  }
  Layout layout;
  std::vector<size_t> limits;
  for (size_t c = 0; c < shown.size(); ++c) {
    std::string header = HeaderText(table.columns[shown[c]], options);
    bool fixed = requested[c] != kAutoWidth;
    size_t limit = fixed ? static_cast<size_t>(requested[c]) : static_cast<size_t>(options.colmax);
    if (fixed) header = Truncate(header, limit);
    layout.widths.push_back(fixed ? limit : options.nohdr ? 0 : DisplayLength(header));
    layout.headers.push_back(std::move(header));
    limits.push_back(limit);
  }
  size_t scan = options.autolines == 0 ? table.rows.size()
                                       : std::min<size_t>(options.autolines, table.rows.size());
  for (size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<RenderedCell> out;
    for (size_t c = 0; c < shown.size(); ++c) {
      const Column& column = table.columns[shown[c]];
      const auto& row = table.rows[r];
      Cell null_cell;
      RenderedCell cell =
          RenderCell(column, shown[c] < row.size() ? row[shown[c]] : null_cell, options);
      if (cell.groupable && !options.nofmt) cell.text = GroupThousands(cell.text);
      // Names come from the report: a terminal must not run their escape sequences, and a
      // CR/LF in one must not forge a line of output (the machine formats keep them as data).
      if (!cell.numeric) cell.text = OneLine(cell.text, cell.text.size() * 4 + 4);
      cell.text = Truncate(cell.text, limits[c]);
      if (r < scan && requested[c] == kAutoWidth) {
        layout.widths[c] = std::max(layout.widths[c], DisplayLength(cell.text));
      }
      out.push_back(std::move(cell));
    }
    layout.rows.push_back(std::move(out));
  }
  // Rows after the first `autolines` did not size the columns: nsys cuts their longer cells to
  // the width the scanned rows gave, with a final "…" (tests/parity, torch_train's nvtx_sum).
  for (size_t r = scan; r < layout.rows.size(); ++r) {
    for (size_t c = 0; c < shown.size(); ++c) {
      if (requested[c] == kAutoWidth) {
        layout.rows[r][c].text = Truncate(layout.rows[r][c].text, layout.widths[c]);
      }
    }
  }
  return layout;
}

std::string PlainText(const Layout& layout, const FormatOptions& options) {
  std::string out;
  auto emit = [&](auto cell_text) {
    std::string line;
    // Padded to the full width, trailing spaces included, as nsys 2025.3.1 prints (tests/parity).
    for (size_t c = 0; c < layout.widths.size(); ++c) line += (c ? "  " : " ") + cell_text(c);
    out += line + "\n";
  };
  if (!options.nohdr) {
    emit([&](size_t c) { return Pad(layout.headers[c], layout.widths[c], Align::kCentre); });
    emit([&](size_t c) { return std::string(layout.widths[c], '-'); });
  }
  for (const auto& row : layout.rows) {
    emit([&](size_t c) {
      return Pad(row[c].text, layout.widths[c], row[c].numeric ? Align::kRight : Align::kLeft);
    });
  }
  return out;
}

std::string BoxedText(const Layout& layout, const FormatOptions& options) {
  auto rule = [&](char fill) {
    std::string line = "+";
    for (size_t width : layout.widths) line += std::string(width + 2, fill) + "+";
    return line + "\n";
  };
  auto cells = [&](auto cell_text) {
    std::string line = "|";
    for (size_t c = 0; c < layout.widths.size(); ++c) line += " " + cell_text(c) + " |";
    return line + "\n";
  };
  std::string out = rule('-');
  if (!options.nohdr) {
    out +=
        cells([&](size_t c) { return Pad(layout.headers[c], layout.widths[c], Align::kCentre); });
    out += rule('=');
  }
  for (const auto& row : layout.rows) {
    out += cells([&](size_t c) {
      return Pad(row[c].text, layout.widths[c], row[c].numeric ? Align::kRight : Align::kLeft);
    });
    out += rule('-');
  }
  return out;
}

}  // namespace

std::string ColumnFormatter::Format(const ResultTable& table) const {
  Layout layout = BuildLayout(table, options_);
  if (layout.widths.empty()) return "";
  return boxed_ ? BoxedText(layout, options_) : PlainText(layout, options_);
}

}  // namespace gsys::analysis
