// SPDX-License-Identifier: Apache-2.0
#include "cli/summary_command_gpu_util.h"

#include <algorithm>
#include <map>

#include "common/saturating.h"
#include "report/db/database.h"

namespace gsys::cli {
namespace {

constexpr const char* kActivity = R"sql(
  SELECT deviceId AS dev, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end > start
  UNION ALL SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE end > start
  UNION ALL SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE end > start)sql";

// Busy ns per (device, bin). ?1 = start of bin 0, ?2 = bin width, ?3 = number of bins.
// 1. Merge each device's intervals: sorted by start, an interval opens a new group when it starts
//    after the largest end seen so far (a running max over the preceding rows), so the union of
//    overlapping work on several streams counts once.
// 2. Split every merged interval over the bins it touches: a recursive CTE adds one row per
//    further bin, so the rows are (merged intervals + bin boundaries crossed), never a cross join.
//    The bins are clamped to [0, ?3): the recursion is bounded by the number of bins, never by
//    the span (a kernel from INT64_MIN to INT64_MAX recursed ~2^64 times; SQLite turns integer
//    overflow into REAL, hence the CASTs), and a piece outside the range adds nothing.
constexpr const char* kBusyPerBin = R"sql(
WITH act(dev, start, end) AS (%ACT%),
marked AS (
  SELECT dev, start, end,
         CASE WHEN start <= max(end) OVER (PARTITION BY dev ORDER BY start, end
                                          ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)
              THEN 0 ELSE 1 END AS opens
  FROM act),
grouped AS (
  SELECT dev, start, end,
         sum(opens) OVER (PARTITION BY dev ORDER BY start, end ROWS UNBOUNDED PRECEDING) AS grp
  FROM marked),
merged AS (
  SELECT dev, min(start) AS s, max(end) AS e FROM grouped GROUP BY dev, grp),
pieces(dev, bin, last_bin, s, e) AS (
  SELECT dev, max(0, min(?3 - 1, CAST((s - ?1) / ?2 AS INTEGER))),
         max(0, min(?3 - 1, CAST((e - 1 - ?1) / ?2 AS INTEGER))), s, e FROM merged
  UNION ALL
  SELECT dev, bin + 1, last_bin, s, e FROM pieces WHERE bin < last_bin)
SELECT dev, bin, sum(max(0, min(e, ?1 + (bin + 1) * ?2) - max(s, ?1 + bin * ?2)))
FROM pieces GROUP BY dev, bin ORDER BY dev, bin)sql";

std::string WithActivity(std::string sql) {
  size_t at = sql.find("%ACT%");
  return sql.replace(at, 5, kActivity);
}

struct Range {
  int64_t start = 0, end = 0;
};

Result<std::optional<Range>> ActivityRange(report::Database& db) {
  GSYS_ASSIGN_OR_RETURN(
      report::Statement stmt,
      db.Prepare("SELECT min(s), max(e) FROM ("
                 "SELECT min(start) AS s, max(end) AS e FROM CUPTI_ACTIVITY_KIND_KERNEL "
                 "UNION ALL SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_MEMCPY "
                 "UNION ALL SELECT min(start), max(end) FROM CUPTI_ACTIVITY_KIND_MEMSET)"));
  GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
  if (!row || stmt.IsNull(0) || stmt.IsNull(1)) return std::optional<Range>();
  Range activity{stmt.ColumnInt(0), stmt.ColumnInt(1)};
  // The whole session when ANALYSIS_DETAILS gives it on the same timeline (it contains the
  // activity), so idle time before the first and after the last kernel shows.
  GSYS_ASSIGN_OR_RETURN(report::Statement session,
                        db.Prepare("SELECT min(startTime), max(stopTime) FROM ANALYSIS_DETAILS"));
  GSYS_ASSIGN_OR_RETURN(bool has, session.Step());
  if (has && !session.IsNull(0) && !session.IsNull(1) && session.ColumnInt(0) <= activity.start &&
      session.ColumnInt(1) >= activity.end) {
    return std::optional<Range>(Range{session.ColumnInt(0), session.ColumnInt(1)});
  }
  return std::optional<Range>(activity);
}

Status FillCounts(report::Database& db, std::map<int64_t, GpuUtilization::Gpu>& gpus) {
  struct Query {
    const char* sql;
    int64_t GpuUtilization::Gpu::*field;
  };
  const Query queries[] = {
      {"SELECT deviceId, count(*), min(start), max(end) FROM CUPTI_ACTIVITY_KIND_KERNEL "
       "GROUP BY deviceId",
       &GpuUtilization::Gpu::kernels},
      {"SELECT deviceId, count(*), min(start), max(end) FROM CUPTI_ACTIVITY_KIND_MEMCPY "
       "GROUP BY deviceId",
       &GpuUtilization::Gpu::memory_ops},
      {"SELECT deviceId, count(*), min(start), max(end) FROM CUPTI_ACTIVITY_KIND_MEMSET "
       "GROUP BY deviceId",
       &GpuUtilization::Gpu::memory_ops},
  };
  for (const auto& q : queries) {
    GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(q.sql));
    while (true) {
      GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
      if (!row) break;
      int64_t dev = stmt.ColumnInt(0);
      auto [it, fresh] = gpus.try_emplace(dev);
      GpuUtilization::Gpu& gpu = it->second;
      gpu.device_id = dev;
      gpu.*q.field = SaturatingAdd(gpu.*q.field, stmt.ColumnInt(1));
      gpu.first_ns = fresh ? stmt.ColumnInt(2) : std::min(gpu.first_ns, stmt.ColumnInt(2));
      gpu.last_ns = fresh ? stmt.ColumnInt(3) : std::max(gpu.last_ns, stmt.ColumnInt(3));
    }
  }
  GSYS_ASSIGN_OR_RETURN(report::Statement names,
                        db.Prepare("SELECT id, max(name) FROM TARGET_INFO_GPU GROUP BY id"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, names.Step());
    if (!row) break;
    auto it = gpus.find(names.ColumnInt(0));
    if (it != gpus.end() && !names.IsNull(1)) it->second.name = std::string(names.ColumnText(1));
  }
  return OkStatus();
}

}  // namespace

Result<std::optional<GpuUtilization>> ComputeGpuUtilization(report::Database& db, int bins) {
  GSYS_ASSIGN_OR_RETURN(std::optional<Range> range, ActivityRange(db));
  if (!range) return std::optional<GpuUtilization>();
  GpuUtilization util;
  // Saturating: report times are untrusted, and a span past INT64_MAX ns (292 years) is cut there.
  int64_t span = std::max<int64_t>(SaturatingSub(range->end, range->start), 1);
  util.start_ns = range->start;
  util.bin_ns = std::max<int64_t>(1, CeilDiv(span, bins));
  util.end_ns = SaturatingAdd(range->start, span);
  size_t nbins = static_cast<size_t>(std::min<int64_t>(CeilDiv(span, util.bin_ns), bins));

  std::map<int64_t, GpuUtilization::Gpu> gpus;
  GSYS_RETURN_IF_ERROR(FillCounts(db, gpus));
  for (auto& [dev, gpu] : gpus) gpu.busy_percent.assign(nbins, 0.0);
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(WithActivity(kBusyPerBin)));
  GSYS_RETURN_IF_ERROR(stmt.BindInt(1, util.start_ns));
  GSYS_RETURN_IF_ERROR(stmt.BindInt(2, util.bin_ns));
  GSYS_RETURN_IF_ERROR(stmt.BindInt(3, static_cast<int64_t>(nbins)));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    auto it = gpus.find(stmt.ColumnInt(0));
    int64_t bin = stmt.ColumnInt(1), busy = stmt.ColumnInt(2);
    if (it == gpus.end() || bin < 0 || static_cast<size_t>(bin) >= nbins) continue;
    it->second.busy_ns = SaturatingAdd(it->second.busy_ns, busy);
    // The last bin may be cut short by the end of the range.
    int64_t bin_start = SaturatingAdd(util.start_ns, SaturatingMul(bin, util.bin_ns));
    int64_t width = std::min(util.bin_ns, SaturatingSub(util.end_ns, bin_start));
    if (width <= 0) continue;
    it->second.busy_percent[static_cast<size_t>(bin)] =
        std::min(100.0, 100.0 * static_cast<double>(busy) / static_cast<double>(width));
  }
  for (auto& [dev, gpu] : gpus) util.gpus.push_back(std::move(gpu));
  return std::optional<GpuUtilization>(std::move(util));
}

}  // namespace gsys::cli
