// SPDX-License-Identifier: Apache-2.0
// Test-only ResultTables shaped like real stats reports, shared by the format tests.
#pragma once

#include <string>

#include "analysis/stats/result_table.h"

namespace gsys::analysis::testing {

inline Column Dur(std::string label) { return {std::move(label), UnitCategory::kDur, "ns", false}; }
inline Column Mem(std::string label) { return {std::move(label), UnitCategory::kMem, "B", false}; }
inline Column Plain(std::string label) {
  return {std::move(label), UnitCategory::kNone, "", false};
}
inline Column Ratio(std::string label) {
  return {std::move(label), UnitCategory::kRatio, "%", false};
}
inline Column Hidden(std::string label) {
  return {std::move(label), UnitCategory::kDur, "ns", true};
}

// nvtx_sum: one PushPop range (a row as nsys 2025.3.1 prints it) and a hidden _Q1.
inline ResultTable NvtxSumTable() {
  ResultTable table;
  table.columns = {Ratio("Time"),  Dur("Total Time"), Plain("Instances"), Dur("Avg"),
                   Dur("Med"),     Dur("Min"),        Dur("Max"),         Dur("StdDev"),
                   Plain("Style"), Plain("Range"),    Hidden("_Q1")};
  table.rows.push_back({48.0, int64_t{213318215}, int64_t{1}, 213318215.0, 213318215.0,
                        int64_t{213318215}, int64_t{213318215}, 0.0, std::string("PushPop"),
                        std::string(":warmup"), int64_t{7}});
  return table;
}

// cuda_gpu_mem_size_sum: ten 4 MiB host-to-device copies (§2.4.1 observed CSV).
inline ResultTable MemSizeTable() {
  ResultTable table;
  table.columns = {Mem("Total"), Plain("Count"), Mem("Avg"),    Mem("Med"),
                   Mem("Min"),   Mem("Max"),     Mem("StdDev"), Plain("Operation")};
  table.rows.push_back({int64_t{41943040}, int64_t{10}, 4194304.0, 4194304.0, int64_t{4194304},
                        int64_t{4194304}, 0.0, std::string("[CUDA memcpy Host-to-Device]")});
  return table;
}

}  // namespace gsys::analysis::testing
