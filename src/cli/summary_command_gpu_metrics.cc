// SPDX-License-Identifier: Apache-2.0
#include "cli/summary_command_gpu_metrics.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>
#include <utility>

#include "common/saturating.h"
#include "report/db/database.h"

namespace gsys::cli {
namespace {

// GSYS_GPU_METRICS columns in display order. `cumulative`: a running byte count shown as a rate.
struct GsysColumn {
  const char* column;
  const char* name;
  const char* unit;
  double scale;
  bool cumulative;
};
constexpr GsysColumn kGsysColumns[] = {
    {"gpuUtilization", "GPU utilization (NVML)", "%", 1, false},
    {"smActivePercent", "SM active", "%", 1, false},
    {"smOccupancyPercent", "SM occupancy", "%", 1, false},
    {"tensorActivePercent", "Tensor active", "%", 1, false},
    {"dramBandwidthPercent", "DRAM bandwidth", "%", 1, false},
    {"memoryUtilization", "Memory utilization (NVML)", "%", 1, false},
    {"smClockMHz", "SM clock", "MHz", 1, false},
    {"memoryClockMHz", "Memory clock", "MHz", 1, false},
    {"memoryUsedBytes", "Memory used", "GiB", 1.0 / (1 << 30), false},
    {"powerMilliwatts", "Power", "W", 1e-3, false},
    {"temperatureC", "Temperature", "C", 1, false},
    {"pcieTxKBps", "PCIe TX", "MB/s", 1e-3, false},
    {"pcieRxKBps", "PCIe RX", "MB/s", 1e-3, false},
    {"nvlinkTxBytes", "NVLink TX", "GB/s", 1, true},  // bytes per ns = GB/s
    {"nvlinkRxBytes", "NVLink RX", "GB/s", 1, true},
};

struct Span {
  int64_t start = 0, bucket = 1;
};

Result<std::optional<Span>> TimeSpan(report::Database& db, const std::string& table) {
  GSYS_ASSIGN_OR_RETURN(report::Statement s,
                        db.Prepare("SELECT min(timestamp), max(timestamp) FROM " + table));
  GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
  if (!row || s.IsNull(0)) return std::optional<Span>();
  Span span{s.ColumnInt(0), 1};
  // Saturating: timestamps are untrusted (issue 17, item 7).
  int64_t width = std::max<int64_t>(SaturatingAdd(SaturatingSub(s.ColumnInt(1), span.start), 1), 1);
  span.bucket = std::max<int64_t>(1, CeilDiv(width, kMaxGpuMetricPoints));
  return std::optional<Span>(span);
}

Result<std::map<int64_t, std::string>> GsysGpuLabels(report::Database& db) {
  std::map<int64_t, std::string> labels;
  GSYS_ASSIGN_OR_RETURN(report::Statement s,
                        db.Prepare("SELECT deviceId, name FROM GSYS_GPU_METRICS_DEVICES"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    std::string label = "GPU " + std::to_string(s.ColumnInt(0));
    if (!s.IsNull(1) && !s.ColumnText(1).empty()) {
      label += " (" + std::string(s.ColumnText(1)) + ")";
    }
    labels[s.ColumnInt(0)] = label;
  }
  return labels;
}

// One GSYS_GPU_METRICS column of one GPU while the rows stream by.
struct ColumnState {
  SampledGpuMetric metric;
  double first_t = 0, first_v = 0;  // cumulative: the first and the latest (time ns, value)
  double last_t = 0, last_v = 0;
};

// Adds one time bucket's aggregates of column `c` (where it has samples) to `st`.
void AddBucket(const GsysColumn& c, const report::Statement& s, int at, ColumnState& st) {
  int64_t n = s.ColumnInt(at + 2);
  double t_mean = s.ColumnDouble(at), v = s.ColumnDouble(at + 1);
  SampledGpuMetric& m = st.metric;
  bool first = m.samples == 0;
  m.samples += n;
  if (!c.cumulative) {
    m.t_s.push_back(t_mean / 1e9);
    m.value.push_back(v * c.scale);
    m.mean += v * static_cast<double>(n);  // a sum until Finish
    m.peak = std::max(m.peak, s.ColumnDouble(at + 4) * c.scale);
    return;
  }
  double t = static_cast<double>(s.ColumnInt(at + 3));
  if (first) {
    st.first_t = t;
    st.first_v = v;
  } else if (t > st.last_t) {
    double rate = (v - st.last_v) / (t - st.last_t) * c.scale;
    m.t_s.push_back(t / 1e9);
    m.value.push_back(rate);
    m.peak = std::max(m.peak, rate);
  }
  st.last_t = t;
  st.last_v = v;
}

void Finish(const GsysColumn& c, ColumnState& st) {
  SampledGpuMetric& m = st.metric;
  if (c.cumulative) {
    double dt = st.last_t - st.first_t;
    m.mean = dt > 0 ? (st.last_v - st.first_v) / dt * c.scale : 0;
  } else {
    m.mean = m.mean / static_cast<double>(m.samples) * c.scale;
  }
}

// Every column in one scan: per (device, time bucket) and column, the mean time of the column's
// non-NULL samples, their mean (a cumulative counter: its last, i.e. largest, value), their
// count, the time of the last one and the largest value.
Status ReadGsys(report::Database& db, const Span& span,
                const std::map<int64_t, std::string>& labels,
                std::map<int64_t, std::vector<SampledGpuMetric>>& by_gpu) {
  constexpr int kPerColumn = 5;
  std::string sql = "SELECT deviceId";
  for (const GsysColumn& c : kGsysColumns) {
    const std::string col = c.column, when = "CASE WHEN " + col + " IS NOT NULL THEN timestamp END";
    sql += ", avg(" + when + "), " + (c.cumulative ? "max(" : "avg(") + col + "), count(" + col +
           "), max(" + when + "), max(" + col + ")";
  }
  sql +=
      " FROM GSYS_GPU_METRICS GROUP BY deviceId, (timestamp - ?1) / ?2"
      " ORDER BY deviceId, (timestamp - ?1) / ?2";
  GSYS_ASSIGN_OR_RETURN(report::Statement s, db.Prepare(sql));
  GSYS_RETURN_IF_ERROR(s.BindInt(1, span.start));
  GSYS_RETURN_IF_ERROR(s.BindInt(2, span.bucket));
  constexpr size_t kColumns = std::size(kGsysColumns);
  std::map<int64_t, std::vector<ColumnState>> states;
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    int64_t gpu = s.ColumnInt(0);
    std::vector<ColumnState>& cols = states[gpu];
    if (cols.empty()) {
      cols.resize(kColumns);
      auto label = labels.find(gpu);
      for (size_t i = 0; i < kColumns; ++i) {
        SampledGpuMetric& m = cols[i].metric;
        m.gpu = gpu;
        m.gpu_label = label != labels.end() ? label->second : "GPU " + std::to_string(gpu);
        m.name = kGsysColumns[i].name;
        m.unit = kGsysColumns[i].unit;
      }
    }
    for (size_t i = 0; i < kColumns; ++i) {
      int at = 1 + static_cast<int>(i) * kPerColumn;
      if (s.ColumnInt(at + 2) > 0) AddBucket(kGsysColumns[i], s, at, cols[i]);
    }
  }
  for (auto& [gpu, cols] : states) {
    for (size_t i = 0; i < kColumns; ++i) {
      if (cols[i].metric.samples == 0) continue;  // never sampled on this GPU
      Finish(kGsysColumns[i], cols[i]);
      by_gpu[gpu].push_back(std::move(cols[i].metric));
    }
  }
  return OkStatus();
}

// "SM Active [Throughput %]" -> {"SM Active", "%"}; a name without brackets has no unit.
std::pair<std::string, std::string> SplitNsysName(const std::string& full) {
  size_t open = full.rfind(" [");
  if (open == std::string::npos || full.back() != ']') return {full, ""};
  std::string inside = full.substr(open + 2, full.size() - open - 3);
  size_t space = inside.rfind(' ');
  return {full.substr(0, open), space == std::string::npos ? inside : inside.substr(space + 1)};
}

Status ReadNsys(report::Database& db, const Span& span,
                std::map<int64_t, std::vector<SampledGpuMetric>>& by_gpu) {
  // One metric per (typeId, metricId), named by TARGET_INFO_GPU_METRICS, in metricId order.
  std::map<std::pair<int64_t, int64_t>, SampledGpuMetric> metrics;
  GSYS_ASSIGN_OR_RETURN(report::Statement names,
                        db.Prepare("SELECT typeId, metricId, max(typeName), max(metricName) FROM "
                                   "TARGET_INFO_GPU_METRICS GROUP BY typeId, metricId"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, names.Step());
    if (!row) break;
    SampledGpuMetric& m = metrics[{names.ColumnInt(0), names.ColumnInt(1)}];
    // The low byte of typeId is the GPU (nsys 2025.3.1 leaves typeName empty).
    m.gpu = names.ColumnInt(0) & 0xFF;
    m.gpu_label = "GPU " + std::to_string(m.gpu);
    if (!names.IsNull(2) && !names.ColumnText(2).empty()) {
      m.gpu_label += " (" + std::string(names.ColumnText(2)) + ")";
    }
    std::tie(m.name, m.unit) = SplitNsysName(std::string(names.ColumnText(3)));
  }
  GSYS_ASSIGN_OR_RETURN(
      report::Statement s,
      db.Prepare("SELECT typeId, metricId, avg(timestamp), avg(value), count(*), max(value) FROM "
                 "GPU_METRICS GROUP BY typeId, metricId, (timestamp - ?1) / ?2 "
                 "ORDER BY typeId, metricId, 3"));
  GSYS_RETURN_IF_ERROR(s.BindInt(1, span.start));
  GSYS_RETURN_IF_ERROR(s.BindInt(2, span.bucket));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, s.Step());
    if (!row) break;
    auto it = metrics.find({s.ColumnInt(0), s.ColumnInt(1)});
    if (it == metrics.end()) continue;  // a metric without a name row
    SampledGpuMetric& m = it->second;
    int64_t n = s.ColumnInt(4);
    m.t_s.push_back(s.ColumnDouble(2) / 1e9);
    m.value.push_back(s.ColumnDouble(3));
    m.mean += s.ColumnDouble(3) * static_cast<double>(n);
    m.samples += n;
    m.peak = std::max(m.peak, s.ColumnDouble(5));
  }
  for (auto& [key, m] : metrics) {
    if (m.samples == 0) continue;
    m.mean /= static_cast<double>(m.samples);
    by_gpu[m.gpu].push_back(std::move(m));
  }
  return OkStatus();
}

}  // namespace

Result<std::vector<SampledGpuMetric>> ReadSampledGpuMetrics(report::Database& db,
                                                            bool has_gsys_table,
                                                            bool has_nsys_tables) {
  std::map<int64_t, std::vector<SampledGpuMetric>> by_gpu;
  if (has_gsys_table) {
    GSYS_ASSIGN_OR_RETURN(std::optional<Span> span, TimeSpan(db, "GSYS_GPU_METRICS"));
    if (span) {
      GSYS_ASSIGN_OR_RETURN(auto labels, GsysGpuLabels(db));
      GSYS_RETURN_IF_ERROR(ReadGsys(db, *span, labels, by_gpu));
    }
  } else if (has_nsys_tables) {
    GSYS_ASSIGN_OR_RETURN(std::optional<Span> span, TimeSpan(db, "GPU_METRICS"));
    if (span) GSYS_RETURN_IF_ERROR(ReadNsys(db, *span, by_gpu));
  }
  std::vector<SampledGpuMetric> out;
  for (auto& [gpu, list] : by_gpu) {
    for (auto& m : list) out.push_back(std::move(m));
  }
  return out;
}

}  // namespace gsys::cli
