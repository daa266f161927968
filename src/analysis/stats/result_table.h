// SPDX-License-Identifier: Apache-2.0
// ResultTable: what a stats report produces and every output format consumes.
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace gsys::analysis {

// Unit category of a column, as nsys encodes it in a column alias "Label:cat_unit"
// (e.g. "Total Time:dur_ns", "Bytes:mem_B", "Throughput:thru_B", "Time:ratio_%").
enum class UnitCategory {
  kNone,   // plain value, no unit, no conversion
  kTs,     // timestamp; base unit ns
  kDur,    // duration; base unit ns
  kMem,    // size; base unit B
  kThru,   // throughput; base unit B/s
  kRatio,  // percentage
  kGid,    // global id (pid/tid encodings)
  kAddr,   // address
};

struct Column {
  std::string label;  // display label without unit, e.g. "Total Time"
  UnitCategory category = UnitCategory::kNone;
  std::string base_unit;  // unit the values are in, e.g. "ns", "B", "%"; empty for kNone
  bool hidden = false;    // alias started with '_': computed, never shown
};

// One cell: NULL, integer, real or text, as SQLite returned it.
using Cell = std::variant<std::monostate, int64_t, double, std::string>;

struct ResultTable {
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
};

}  // namespace gsys::analysis
