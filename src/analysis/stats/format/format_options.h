// SPDX-License-Identifier: Apache-2.0
// FormatOptions: the validated, typed form of a format's arguments plus --timeunit.
#pragma once

#include <string>
#include <vector>

#include "analysis/stats/format/format_request.h"
#include "common/status.h"

namespace gsys::analysis {

// Display unit per unit category (see UnitCategory in result_table.h).
struct DisplayUnits {
  std::string ts = "ns";       // ns us ms s
  std::string dur = "ns";      // ns us ms s
  std::string mem = "MB";      // B KB KiB MB MiB GB GiB
  std::string thru = "MB";     // same set, shown as "<unit>/s"
  std::string gid = "gidint";  // gidint gidhex gidsubint gidsubhex
  std::string addr = "hex";    // hex uint
};

// Width argument of column/table for one visible column.
inline constexpr int kAutoWidth = -1;

struct FormatOptions {
  DisplayUnits units;
  bool noconv = false;               // print values in their base unit
  bool nohdrunit = false;            // "Total Time" instead of "Total Time (ns)"
  bool nohdr = false;                // no header (and no dashes line)
  bool nofmt = false;                // column/table: no thousands separators
  int autolines = 100;               // column/table: rows scanned for auto width; 0 = all
  int colmax = 100;                  // column/table: widest auto column; 0 = unlimited
  std::vector<int> widths;           // column/table: per visible column, kAutoWidth, 0 = hide, or N
  bool esc = false;                  // tsv: tabs become the two characters "\t" instead of a space
  bool raw = false;                  // csv, tsv: formula-like text unprefixed (common/csv_field.h)
  std::string title = "gsys stats";  // hdoc
  std::string css;                   // hdoc: stylesheet URL, empty = none
};

// Validates `request.args` for `request.name` and returns the typed options.
// `timeunit` ("" = default) acts like a leading `time=<unit>` argument, so an explicit
// unit argument in the request wins over it.
Result<FormatOptions> ParseFormatOptions(const FormatRequest& request, const std::string& timeunit);

}  // namespace gsys::analysis
