// SPDX-License-Identifier: Apache-2.0
#include "cli/summary_command_gpu_util.h"

#include <algorithm>
#include <map>

#include "analysis/stats/busy_bins.h"
#include "common/saturating.h"
#include "report/db/database.h"

namespace gsys::cli {
namespace {

constexpr const char* kActivity = R"sql(
  SELECT deviceId AS dev, start, end FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE end > start
  UNION ALL SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE end > start
  UNION ALL SELECT deviceId, start, end FROM CUPTI_ACTIVITY_KIND_MEMSET WHERE end > start)sql";

// Every device's work in (device, start) order, for analysis::BusyBins: the union of
// overlapping work on several streams counts once. (A SQL merge with window functions and a
// recursive split over the bins took 3.2 s at 1 M kernels; this is one sort.)
constexpr const char* kActivityInOrder = R"sql(
SELECT dev, start, end FROM (%ACT%) ORDER BY dev, start)sql";

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
  std::map<int64_t, analysis::BusyBins> busy;
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(WithActivity(kActivityInOrder)));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    int64_t dev = stmt.ColumnInt(0);
    auto it = busy.find(dev);
    if (it == busy.end()) {
      it = busy.emplace(dev, analysis::BusyBins(util.start_ns, util.bin_ns, nbins)).first;
    }
    it->second.Add(stmt.ColumnInt(1), stmt.ColumnInt(2));
  }
  for (auto& [dev, per_bin] : busy) {
    per_bin.Flush();
    auto it = gpus.find(dev);
    if (it == gpus.end()) continue;
    for (size_t bin = 0; bin < nbins; ++bin) {
      int64_t ns = per_bin.busy()[bin];
      it->second.busy_ns = SaturatingAdd(it->second.busy_ns, ns);
      // The last bin may be cut short by the end of the range.
      int64_t bin_start =
          SaturatingAdd(util.start_ns, SaturatingMul(static_cast<int64_t>(bin), util.bin_ns));
      int64_t width = std::min(util.bin_ns, SaturatingSub(util.end_ns, bin_start));
      if (width <= 0 || ns == 0) continue;
      it->second.busy_percent[bin] =
          std::min(100.0, 100.0 * static_cast<double>(ns) / static_cast<double>(width));
    }
  }
  for (auto& [dev, gpu] : gpus) util.gpus.push_back(std::move(gpu));
  return std::optional<GpuUtilization>(std::move(util));
}

}  // namespace gsys::cli
