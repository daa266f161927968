// SPDX-License-Identifier: Apache-2.0
#include "analysis/recipe/recipes/gpu_metric_samples.h"

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

Status ForEachMetricSample(
    report::ReportReader& reader, const std::vector<MetricSpec>& metrics,
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
  GSYS_RETURN_IF_ERROR(ForEachRow(
      reader.db(), "SELECT typeId, metricId, metricName FROM TARGET_INFO_GPU_METRICS",
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
