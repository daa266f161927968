// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/recipes/gpu_metric_samples.h"

#include <algorithm>
#include <climits>
#include <map>
#include <utility>

#include "analysis/recipe/recipe_util.h"
#include "report/reader/report_reader.h"

namespace gsys::analysis::recipe {

const DataNeed& GpuMetricsNeed() {
  static const DataNeed kNeed{{"GSYS_GPU_METRICS", "GPU_METRICS"}, "GPU metrics data"};
  return kNeed;
}

Status ForEachMetricSample(report::ReportReader& reader, const std::vector<MetricSpec>& metrics,
                           std::optional<int64_t> from, std::optional<int64_t> to,
                           const std::function<void(int64_t, int64_t, size_t, double)>& sample) {
  std::string window = " WHERE timestamp >= " + std::to_string(from.value_or(INT64_MIN)) +
                       " AND timestamp <= " + std::to_string(to.value_or(INT64_MAX));
  GSYS_ASSIGN_OR_RETURN(bool gsys_rows, reader.HasRows("GSYS_GPU_METRICS"));
  if (gsys_rows) {
    std::string sql = "SELECT timestamp, deviceId";
    std::vector<size_t> index;
    for (size_t m = 0; m < metrics.size(); ++m) {
      if (metrics[m].gsys_column.empty()) continue;
      sql += ", " + metrics[m].gsys_column;
      index.push_back(m);
    }
    sql += " FROM GSYS_GPU_METRICS" + window + " ORDER BY timestamp, deviceId";
    return ForEachRow(reader.db(), sql, [&](report::Statement& s) {
      for (size_t i = 0; i < index.size(); ++i) {
        if (!s.IsNull(static_cast<int>(i) + 2)) {
          sample(s.ColumnInt(0), s.ColumnInt(1), index[i], s.ColumnDouble(static_cast<int>(i) + 2));
        }
      }
      return OkStatus();
    });
  }
  if (!reader.HasTable("GPU_METRICS") || !reader.HasTable("TARGET_INFO_GPU_METRICS")) {
    return OkStatus();
  }
  std::map<std::pair<int64_t, int64_t>, size_t> ids;  // (typeId, metricId) -> metric
  GSYS_RETURN_IF_ERROR(
      ForEachRow(reader.db(), "SELECT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS",
                 [&](report::Statement& s) {
                   std::string name(s.ColumnText(2));
                   for (size_t m = 0; m < metrics.size(); ++m) {
                     for (const std::string& n : metrics[m].nsys_names) {
                       if (name == n) ids[{s.ColumnInt(0), s.ColumnInt(1)}] = m;
                     }
                   }
                   return OkStatus();
                 }));
  if (ids.empty()) return OkStatus();
  return ForEachRow(reader.db(),
                    "SELECT timestamp, typeId, metricId, value FROM GPU_METRICS" + window +
                        " ORDER BY timestamp, typeId, metricId",
                    [&](report::Statement& s) {
                      auto it = ids.find({s.ColumnInt(1), s.ColumnInt(2)});
                      if (it != ids.end() && !s.IsNull(3)) {
                        sample(s.ColumnInt(0), s.ColumnInt(1) & 0xFF, it->second,
                               s.ColumnDouble(3));
                      }
                      return OkStatus();
                    });
}

Result<std::vector<MetricSpec>> AllMetrics(report::ReportReader& reader) {
  std::vector<MetricSpec> out;
  GSYS_ASSIGN_OR_RETURN(bool gsys_rows, reader.HasRows("GSYS_GPU_METRICS"));
  if (gsys_rows) {
    GSYS_RETURN_IF_ERROR(ForEachRow(
        reader.db(), "SELECT name FROM pragma_table_info('GSYS_GPU_METRICS') ORDER BY cid",
        [&](report::Statement& s) {
          std::string column(s.ColumnText(0));
          if (column == "timestamp" || column == "deviceId") return OkStatus();
          std::string name = column == "smActivePercent"       ? "SMs Active"
                             : column == "tensorActivePercent" ? "Tensor Active"
                                                               : column;
          out.push_back({name, {}, column});
          return OkStatus();
        }));
    return out;
  }
  if (!reader.HasTable("TARGET_INFO_GPU_METRICS")) return out;
  std::vector<std::string> names;  // sorted, as pandas' pivot orders its columns
  GSYS_RETURN_IF_ERROR(
      ForEachRow(reader.db(),
                 "SELECT DISTINCT metricName FROM TARGET_INFO_GPU_METRICS WHERE metricName "
                 "IS NOT NULL ORDER BY metricName",
                 [&](report::Statement& s) {
                   names.emplace_back(s.ColumnText(0));
                   return OkStatus();
                 }));
  // nsys renames the first name present of each family to its short name.
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kFamilies = {
      {"SMs Active",
       {"SM Active [Throughput %]", "SMs Active [Throughput %]", "SM Active", "SMs Active"}},
      {"SM Issue", {"SM Issue [Throughput %]", "SM Issue"}},
      {"Tensor Active",
       {"Tensor Active [Throughput %]", "Tensor Active", "Tensor Active / FP16 Active",
        "Tensor Active / FP16 Active [Throughput %]"}},
      {"Unallocated Warps in Active SMs",
       {"Unallocated Warps in Active SMs [Throughput %]", "Unallocated Warps in Active SMs"}},
  };
  std::map<std::string, std::string> shown;
  for (const auto& [short_name, candidates] : kFamilies) {
    for (const std::string& c : candidates) {
      if (std::find(names.begin(), names.end(), c) != names.end()) {
        shown[c] = short_name;
        break;
      }
    }
  }
  for (const std::string& n : names) {
    auto it = shown.find(n);
    out.push_back({it == shown.end() ? n : it->second, {n}, ""});
  }
  return out;
}

Result<std::vector<std::pair<int64_t, std::string>>> GpuLabels(report::ReportReader& reader) {
  std::vector<std::pair<int64_t, std::string>> out;
  GSYS_ASSIGN_OR_RETURN(bool gsys_rows, reader.HasRows("GSYS_GPU_METRICS_DEVICES"));
  std::string sql = gsys_rows ? "SELECT deviceId, busId, name FROM GSYS_GPU_METRICS_DEVICES"
                              : "SELECT id, busLocation, name FROM TARGET_INFO_GPU";
  GSYS_RETURN_IF_ERROR(ForEachRow(reader.db(), sql + " ORDER BY 1", [&](report::Statement& s) {
    out.push_back({s.ColumnInt(0), std::string(s.IsNull(1) ? "" : s.ColumnText(1)) + " - " +
                                       std::string(s.IsNull(2) ? "" : s.ColumnText(2))});
    return OkStatus();
  }));
  return out;
}

}  // namespace gsys::analysis::recipe
