// SPDX-License-Identifier: Apache-2.0
#include "analysis/rules/native/gpu_ops.h"

#include <algorithm>
#include <map>
#include <utility>

#include "report/reader/report_reader.h"

namespace gsys::analysis::native {
namespace {

using report::Statement;

constexpr int64_t kTimeLimit = int64_t{1} << 62;

bool IsInt(const Statement& s, int col) { return s.ColumnType(col) == SQLITE_INTEGER; }

// Appends the rows of `table` with start > 0 to `ops`; false when one has an unsupported shape.
Result<bool> ReadTable(report::Database& db, const char* table, std::vector<GpuOp>& ops) {
  GSYS_ASSIGN_OR_RETURN(Statement s,
                        db.Prepare(std::string("SELECT start, end, globalPid, deviceId, contextId "
                                               "FROM ") +
                                   table));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) return true;
    if (s.IsNull(0)) continue;  // `start > 0` is NULL: the SQL drops the row
    if (!IsInt(s, 0)) return false;
    int64_t start = s.ColumnInt(0);
    if (start <= 0) continue;
    for (int c = 1; c < 5; ++c) {
      if (!IsInt(s, c)) return false;
    }
    int64_t end = s.ColumnInt(1);
    if (end < start || end >= kTimeLimit) return false;
    ops.push_back(
        {start, end, (s.ColumnInt(2) >> 24) & 0x00FFFFFF, s.ColumnInt(3), s.ColumnInt(4)});
  }
}

struct Span {
  int64_t start, end, context;
};

// The profiling overheads of each process, on every device of that process whose span holds
// them strictly (the `ops` CTE's first UNION ALL branch).
Result<bool> AddOverheads(report::Database& db, std::vector<GpuOp>& ops) {
  std::map<std::pair<int64_t, int64_t>, Span> spans;  // (pid, device): GROUP BY deviceId, pid
  for (const GpuOp& op : ops) {
    auto [it, fresh] = spans.try_emplace({op.pid, op.device}, Span{op.start, op.end, op.context});
    if (fresh) continue;
    it->second.start = std::min(it->second.start, op.start);
    it->second.end = std::max(it->second.end, op.end);
    it->second.context = std::min(it->second.context, op.context);
  }
  GSYS_ASSIGN_OR_RETURN(
      Statement s, db.Prepare("SELECT po.start, po.end, po.globalTid FROM PROFILER_OVERHEAD AS po "
                              "JOIN StringIds AS s ON s.id = po.nameId "
                              "WHERE s.value IN ('CUDA profiling data flush overhead', "
                              "'CUDA profiling stop overhead', 'CUDA profiling overhead')"));
  std::vector<GpuOp> extra;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    if (s.IsNull(0) || s.IsNull(1) || s.IsNull(2)) continue;  // the join's test is NULL
    if (!IsInt(s, 0) || !IsInt(s, 1) || !IsInt(s, 2)) return false;
    int64_t start = s.ColumnInt(0), end = s.ColumnInt(1);
    int64_t pid = (s.ColumnInt(2) >> 24) & 0x00FFFFFF;
    for (auto it = spans.lower_bound({pid, INT64_MIN}); it != spans.end() && it->first.first == pid;
         ++it) {
      if (start > it->second.start && end < it->second.end) {
        extra.push_back({start, end, pid, it->first.second, it->second.context});
      }
    }
  }
  // Strictly inside a span of valid times, so they are valid too, except for an end < start.
  for (const GpuOp& op : extra) {
    if (op.end < op.start) return false;
  }
  ops.insert(ops.end(), extra.begin(), extra.end());
  return true;
}

}  // namespace

Result<std::optional<std::vector<GpuOp>>> LoadGpuOps(report::ReportReader& reader) {
  std::vector<GpuOp> ops;
  for (const char* table :
       {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
    GSYS_ASSIGN_OR_RETURN(bool ok, ReadTable(reader.db(), table, ops));
    if (!ok) return std::optional<std::vector<GpuOp>>();
  }
  GSYS_ASSIGN_OR_RETURN(bool overheads, reader.HasRows("PROFILER_OVERHEAD"));
  if (overheads) {
    GSYS_ASSIGN_OR_RETURN(bool ok, AddOverheads(reader.db(), ops));
    if (!ok) return std::optional<std::vector<GpuOp>>();
  }
  return std::optional<std::vector<GpuOp>>(std::move(ops));
}

}  // namespace gsys::analysis::native
