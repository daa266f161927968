// SPDX-License-Identifier: Apache-2.0
// gpu_gaps' C++ stage: rules/gpu_gaps.sql's `gaps` CTE by one sort and sweep, written to
// temp.gsys_rule_gaps in the order the SQL's window yields them (pid, device, start), so that
// the ranking in rules/_gpu_gaps_rows.sql meets the rows, ties included, as it does in the SQL.
#include <algorithm>
#include <tuple>

#include "analysis/rules/native/gpu_ops.h"
#include "analysis/rules/native/native_stages.h"
#include "analysis/rules/native/temp_table.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::native {

Result<bool> GpuGapsStage(report::ReportReader& reader,
                          const std::map<std::string, int64_t>& values) {
  GSYS_ASSIGN_OR_RETURN(std::optional<std::vector<GpuOp>> loaded, LoadGpuOps(reader));
  if (!loaded) return false;
  std::vector<GpuOp>& ops = *loaded;
  std::sort(ops.begin(), ops.end(), [](const GpuOp& a, const GpuOp& b) {
    return std::tie(a.pid, a.device, a.start) < std::tie(b.pid, b.device, b.start);
  });
  auto same_partition = [&ops](size_t a, size_t b) {
    return ops[a].pid == ops[b].pid && ops[a].device == ops[b].device;
  };
  const int64_t threshold = values.at("gap") * 1000000;
  std::vector<std::vector<Cell>> gaps;
  int64_t prev_end = 0;  // the latest end of the partition's ops before ops[i]
  for (size_t i = 0; i < ops.size();) {
    const GpuOp& op = ops[i];
    bool fresh = i == 0 || !same_partition(i - 1, i);
    size_t tied = i + 1;  // ops[i, tied): the partition's ops that start with op
    while (tied < ops.size() && same_partition(i, tied) && ops[tied].start == op.start) ++tied;
    // SQLite orders tied ops arbitrarily. Only the first of them can open a gap (every end is at
    // or after its start), so the gap's length and start do not depend on that order; its
    // context does, unless the tied ops share it.
    if (!fresh && op.start - prev_end > threshold) {
      for (size_t k = i + 1; k < tied; ++k) {
        if (ops[k].context != op.context) return false;
      }
      gaps.push_back({op.start - prev_end, prev_end, op.pid, op.device, op.context});
    }
    for (size_t k = i; k < tied; ++k) {
      prev_end = fresh && k == i ? ops[k].end : std::max(prev_end, ops[k].end);
    }
    i = tied;
  }
  GSYS_RETURN_IF_ERROR(ReplaceTempTable(reader.db(), "gsys_rule_gaps",
                                        {"duration", "gapStart", "pid", "deviceId", "contextId"},
                                        gaps));
  return true;
}

}  // namespace gsys::analysis::native
