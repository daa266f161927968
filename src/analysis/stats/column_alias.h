// SPDX-License-Identifier: Apache-2.0
// Column aliases in report SQL carry nsys's unit categories: "Label:cat_unit".
#pragma once

#include <string_view>

#include "analysis/stats/result_table.h"

namespace gsys::analysis {

// Parses an SQL column alias:
//   "Total Time:dur_ns"  -> label "Total Time", kDur, base unit "ns"
//   "Total:mem_B"        -> kMem "B";  "Throughput:thru_B" -> kThru "B"
//   "Time:ratio_%"       -> kRatio "%"; "Start:ts_ns" -> kTs "ns"
//   "Address:addr_uint"  -> kAddr "uint"; "PID:gid" -> kGid ""
//   "_Q1"                -> hidden column
// Anything after the last ':' that is not a known category stays part of the label.
Column ParseColumnAlias(std::string_view alias);

}  // namespace gsys::analysis
