// SPDX-License-Identifier: Apache-2.0
#include "cli/summary_command_gpu_util.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

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
// recursive split over the bins took 3.2 s at 1 M kernels; this is one sort.) A NULL device is
// device 0, as the counts read it, and its work merges with device 0's in start order.
constexpr const char* kActivityInOrder = R"sql(
SELECT coalesce(dev, 0) AS d, start, end FROM (%ACT%) ORDER BY d, start)sql";

std::string WithActivity(std::string sql) {
  size_t at = sql.find("%ACT%");
  return sql.replace(at, 5, kActivity);
}

struct Range {
  int64_t start = 0, end = 0;
};

struct Busy {
  int64_t dev, start, end;
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
  return std::optional<Range>(Range{stmt.ColumnInt(0), stmt.ColumnInt(1)});
}

// `activity`, or the whole session when ANALYSIS_DETAILS gives it on the same timeline (it
// contains the activity), so idle time before the first and after the last kernel shows.
Result<Range> ShownRange(report::Database& db, Range activity) {
  GSYS_ASSIGN_OR_RETURN(report::Statement session,
                        db.Prepare("SELECT min(startTime), max(stopTime) FROM ANALYSIS_DETAILS"));
  GSYS_ASSIGN_OR_RETURN(bool has, session.Step());
  if (has && !session.IsNull(0) && !session.IsNull(1) && session.ColumnInt(0) <= activity.start &&
      session.ColumnInt(1) >= activity.end) {
    return Range{session.ColumnInt(0), session.ColumnInt(1)};
  }
  return activity;
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
  return OkStatus();
}

Status FillNames(report::Database& db, std::map<int64_t, GpuUtilization::Gpu>& gpus) {
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

// What the range, count and activity queries above read, from one scan of each table: SQLite
// sorts for every GROUP BY and ORDER BY (0.6 s of the page at 1 M kernels), a scan does not.
struct Scanned {
  // Per table, per deviceId (nullopt: NULL) in GROUP BY order: count(*), min(start), max(end).
  struct Group {
    int64_t count = 0;
    std::optional<int64_t> first, last;
  };
  std::vector<std::map<std::optional<int64_t>, Group>> tables;
  std::vector<Busy> activity;  // the rows with end > start, in no order
};

// false when a value is neither an integer nor NULL: then SQLite's comparisons (a real, text)
// are not C++'s, and the queries above answer instead.
Result<bool> ScanActivity(report::Database& db, Scanned& out) {
  for (const char* table :
       {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
    GSYS_ASSIGN_OR_RETURN(report::Statement s,
                          db.Prepare(std::string("SELECT deviceId, start, end FROM ") + table));
    auto& groups = out.tables.emplace_back();
    while (true) {
      GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
      if (!row) break;
      for (int c = 0; c < 3; ++c) {
        if (!s.IsNull(c) && s.ColumnType(c) != SQLITE_INTEGER) return false;
      }
      std::optional<int64_t> dev;
      if (!s.IsNull(0)) dev = s.ColumnInt(0);
      Scanned::Group& g = groups[dev];
      ++g.count;
      if (!s.IsNull(1)) g.first = std::min(g.first.value_or(INT64_MAX), s.ColumnInt(1));
      if (!s.IsNull(2)) g.last = std::max(g.last.value_or(INT64_MIN), s.ColumnInt(2));
      if (!s.IsNull(1) && !s.IsNull(2) && s.ColumnInt(2) > s.ColumnInt(1)) {
        out.activity.push_back({s.ColumnInt(0), s.ColumnInt(1), s.ColumnInt(2)});
      }
    }
  }
  return true;
}

// ActivityRange's answer from the scan: the earliest start and latest end of any row.
std::optional<Range> ScannedRange(const Scanned& scanned) {
  std::optional<int64_t> first, last;
  for (const auto& groups : scanned.tables) {
    for (const auto& [dev, g] : groups) {
      if (g.first) first = std::min(first.value_or(INT64_MAX), *g.first);
      if (g.last) last = std::max(last.value_or(INT64_MIN), *g.last);
    }
  }
  if (!first || !last) return std::nullopt;
  return Range{*first, *last};
}

// FillCounts' answer from the scan (a NULL deviceId reads as device 0, as ColumnInt gives it).
void ScannedCounts(const Scanned& scanned, std::map<int64_t, GpuUtilization::Gpu>& gpus) {
  int64_t GpuUtilization::Gpu::*fields[] = {&GpuUtilization::Gpu::kernels,
                                            &GpuUtilization::Gpu::memory_ops,
                                            &GpuUtilization::Gpu::memory_ops};
  for (size_t t = 0; t < scanned.tables.size(); ++t) {
    for (const auto& [dev, g] : scanned.tables[t]) {
      auto [it, fresh] = gpus.try_emplace(dev.value_or(0));
      GpuUtilization::Gpu& gpu = it->second;
      gpu.device_id = dev.value_or(0);
      gpu.*fields[t] = SaturatingAdd(gpu.*fields[t], g.count);
      int64_t first = g.first.value_or(0), last = g.last.value_or(0);
      gpu.first_ns = fresh ? first : std::min(gpu.first_ns, first);
      gpu.last_ns = fresh ? last : std::max(gpu.last_ns, last);
    }
  }
}

// The activity, its range and the per-GPU counts: from the scan, or the queries when it declines.
struct Collected {
  std::optional<Range> range;
  std::map<int64_t, GpuUtilization::Gpu> gpus;
  std::vector<Busy> activity;  // in (dev, start) order
};

Result<Collected> CollectWithSql(report::Database& db) {
  Collected c;
  GSYS_ASSIGN_OR_RETURN(c.range, ActivityRange(db));
  if (!c.range) return c;
  GSYS_RETURN_IF_ERROR(FillCounts(db, c.gpus));
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, db.Prepare(WithActivity(kActivityInOrder)));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, stmt.Step());
    if (!row) break;
    c.activity.push_back({stmt.ColumnInt(0), stmt.ColumnInt(1), stmt.ColumnInt(2)});
  }
  return c;
}

Result<Collected> Collect(report::Database& db, bool sql_only) {
  Scanned scanned;
  bool ok = false;
  if (!sql_only) {
    GSYS_ASSIGN_OR_RETURN(ok, ScanActivity(db, scanned));
  }
  if (!ok) return CollectWithSql(db);
  Collected c;
  c.range = ScannedRange(scanned);
  if (!c.range) return c;
  ScannedCounts(scanned, c.gpus);
  c.activity = std::move(scanned.activity);
  // By start only, as the query orders them: BusyBins' union does not depend on how ties go.
  std::sort(c.activity.begin(), c.activity.end(), [](const Busy& a, const Busy& b) {
    return a.dev != b.dev ? a.dev < b.dev : a.start < b.start;
  });
  return c;
}

}  // namespace

namespace gpu_util_internal {

Result<std::optional<GpuUtilization>> Compute(report::Database& db, int bins, bool sql_only) {
  GSYS_ASSIGN_OR_RETURN(Collected collected, Collect(db, sql_only));
  if (!collected.range) return std::optional<GpuUtilization>();
  GSYS_ASSIGN_OR_RETURN(Range range, ShownRange(db, *collected.range));
  GpuUtilization util;
  // Saturating: report times are untrusted, and a span past INT64_MAX ns (292 years) is cut there.
  int64_t span = std::max<int64_t>(SaturatingSub(range.end, range.start), 1);
  util.start_ns = range.start;
  util.bin_ns = std::max<int64_t>(1, CeilDiv(span, bins));
  util.end_ns = SaturatingAdd(range.start, span);
  size_t nbins = static_cast<size_t>(std::min<int64_t>(CeilDiv(span, util.bin_ns), bins));

  std::map<int64_t, GpuUtilization::Gpu>& gpus = collected.gpus;
  GSYS_RETURN_IF_ERROR(FillNames(db, gpus));
  for (auto& [dev, gpu] : gpus) gpu.busy_percent.assign(nbins, 0.0);
  std::map<int64_t, analysis::BusyBins> busy;
  for (const Busy& b : collected.activity) {
    auto it = busy.find(b.dev);
    if (it == busy.end()) {
      it = busy.emplace(b.dev, analysis::BusyBins(util.start_ns, util.bin_ns, nbins)).first;
    }
    it->second.Add(b.start, b.end);
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

}  // namespace gpu_util_internal

Result<std::optional<GpuUtilization>> ComputeGpuUtilization(report::Database& db, int bins) {
  return gpu_util_internal::Compute(db, bins, false);
}

}  // namespace gsys::cli
