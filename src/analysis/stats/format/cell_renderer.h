// SPDX-License-Identifier: Apache-2.0
// Cell and header rendering shared by every format: unit conversion per UnitCategory,
// decimals, hex ids and addresses. Formats only lay the rendered text out.
#pragma once

#include <string>
#include <vector>

#include "analysis/stats/format/format_options.h"
#include "analysis/stats/result_table.h"

namespace gsys::analysis {

// One cell as text, before any layout.
struct RenderedCell {
  std::string text;        // no thousands separators; "" for NULL
  bool numeric = false;    // a number: right-aligned in columns, a JSON number
  bool groupable = false;  // decimal digits that column/table may group with ','
};

// Indexes of the columns that are printed (not hidden), in table order.
std::vector<size_t> VisibleColumns(const ResultTable& table);

// The display unit of `column` under `options` ("ns", "MB", "MB/s", "%"), or "" when the
// header shows none (kNone, kGid, kAddr).
std::string DisplayUnit(const Column& column, const FormatOptions& options);

// "Label (unit)", or just "Label" when there is no unit or `options.nohdrunit` is set.
std::string HeaderText(const Column& column, const FormatOptions& options);

// Renders `cell` of `column`:
//  - ts/dur/mem/thru: converted to the display unit when it differs from the base unit,
//    then printed with exactly 3 decimals (41943040 B -> "41.943" MB); unconverted
//    integers print as integers, unconverted reals with 1 decimal ("213318215.0");
//  - ratio: integers as integers, reals with 1 decimal;
//  - gid: gidint decimal, gidhex "0x..", gidsub* "hw:vm:pid:tid" (decimal or hex fields);
//  - addr: hex "0x.." (default) or unsigned decimal;
//  - none: integers as integers, reals in the shortest round-trip form with at least one
//    decimal ("2.0", "0.25"), as Python's repr prints them.
// NULL renders as "" and text as itself.
RenderedCell RenderCell(const Column& column, const Cell& cell, const FormatOptions& options);

// Number of characters (UTF-8 code points) in `text`.
size_t DisplayLength(std::string_view text);

// `text` cut to `limit` characters: the first limit-1 code points plus "…" when longer.
std::string Truncate(std::string_view text, size_t limit);

}  // namespace gsys::analysis
