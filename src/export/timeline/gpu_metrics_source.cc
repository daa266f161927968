// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/gpu_metrics_source.h"

#include <climits>

namespace gsys::export_ {
namespace {

constexpr int kColumnNull = 5;  // SQLITE_NULL, as Statement::ColumnType reports it

struct GsysMetric {
  const char* column;
  const char* name;
  double scale;
  bool bytes;
};

// GSYS_GPU_METRICS columns shown as counters (memoryTotalBytes is a constant: left out).
constexpr GsysMetric kGsysMetrics[] = {
    {"gpuUtilization", "GPU utilization (%)", 1, false},
    {"memoryUtilization", "Memory utilization (%)", 1, false},
    {"smClockMHz", "SM clock (MHz)", 1, false},
    {"memoryClockMHz", "Memory clock (MHz)", 1, false},
    {"memoryUsedBytes", "Memory used (bytes)", 1, true},
    {"powerMilliwatts", "Power (W)", 0.001, false},
    {"temperatureC", "Temperature (C)", 1, false},
    {"pcieTxKBps", "PCIe TX (KB/s)", 1, false},
    {"pcieRxKBps", "PCIe RX (KB/s)", 1, false},
    {"nvlinkTxBytes", "NVLink TX (bytes)", 1, true},
    {"nvlinkRxBytes", "NVLink RX (bytes)", 1, true},
    {"smActivePercent", "SM active (%)", 1, false},
    {"smOccupancyPercent", "SM occupancy (%)", 1, false},
    {"tensorActivePercent", "Tensor active (%)", 1, false},
    {"dramBandwidthPercent", "DRAM bandwidth (%)", 1, false},
};

}  // namespace

Result<std::unique_ptr<GpuMetricsSource>> GpuMetricsSource::Open(report::ReportReader& reader,
                                                                 const TableFilter& filter) {
  std::unique_ptr<GpuMetricsSource> source(new GpuMetricsSource());
  if (filter.Matches("GSYS_GPU_METRICS")) {
    GSYS_ASSIGN_OR_RETURN(bool rows, reader.HasRows("GSYS_GPU_METRICS"));
    if (rows) {
      GSYS_RETURN_IF_ERROR(source->OpenGsys(reader));
      return source;
    }
  }
  if (filter.Matches("GPU_METRICS") && reader.HasTable("GPU_METRICS") &&
      reader.HasTable("TARGET_INFO_GPU_METRICS")) {
    GSYS_RETURN_IF_ERROR(source->OpenNsys(reader));
  }
  return source;
}

Status GpuMetricsSource::OpenGsys(report::ReportReader& reader) {
  GSYS_ASSIGN_OR_RETURN(report::Statement names,
                        reader.db().Prepare("SELECT deviceId, name FROM GSYS_GPU_METRICS_DEVICES"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, names.Step());
    if (!row) break;
    if (names.ColumnType(1) != kColumnNull) {
      device_names_[names.ColumnInt(0)] = std::string(names.ColumnText(1));
    }
  }
  std::string sql = "SELECT timestamp, deviceId";
  for (const GsysMetric& m : kGsysMetrics) {
    sql += std::string(", ") + m.column;
    columns_.push_back(Column{m.name, m.scale, m.bytes});
  }
  sql += " FROM GSYS_GPU_METRICS ORDER BY timestamp, deviceId, rowid";
  GSYS_ASSIGN_OR_RETURN(report::Statement stmt, reader.db().Prepare(sql));
  stmt_ = std::make_unique<report::Statement>(std::move(stmt));
  wide_ = true;
  return Step();
}

Status GpuMetricsSource::OpenNsys(report::ReportReader& reader) {
  GSYS_ASSIGN_OR_RETURN(report::Statement names,
                        reader.db().Prepare("SELECT typeId, metricId, metricName, typeName FROM "
                                            "TARGET_INFO_GPU_METRICS"));
  while (true) {
    GSYS_ASSIGN_OR_RETURN(bool row, names.Step());
    if (!row) break;
    std::string name(names.ColumnText(2));
    nsys_names_[{names.ColumnInt(0), names.ColumnInt(1)}] = name;
    nsys_any_type_.emplace(names.ColumnInt(1), name);
    if (names.ColumnType(3) != kColumnNull) {
      device_names_.emplace(names.ColumnInt(0) & 0xFF, std::string(names.ColumnText(3)));
    }
  }
  GSYS_ASSIGN_OR_RETURN(
      report::Statement stmt,
      reader.db().Prepare("SELECT timestamp, typeId, metricId, value FROM GPU_METRICS "
                          "ORDER BY timestamp, typeId, metricId"));
  stmt_ = std::make_unique<report::Statement>(std::move(stmt));
  return Step();
}

Status GpuMetricsSource::Step() {
  GSYS_ASSIGN_OR_RETURN(has_row_, stmt_->Step());
  next_column_ = 0;
  return OkStatus();
}

const std::string& GpuMetricsSource::Group(int64_t device) {
  auto it = groups_.find(device);
  if (it != groups_.end()) return it->second;
  std::string name = "GPU " + std::to_string(device) + " metrics";
  auto product = device_names_.find(device);
  if (product != device_names_.end() && !product->second.empty()) {
    name += " (" + product->second + ")";
  }
  return groups_.emplace(device, std::move(name)).first->second;
}

Result<const GpuMetricSample*> GpuMetricsSource::NextUpTo(int64_t up_to) {
  while (has_row_ && stmt_->ColumnInt(0) <= up_to) {
    report::Statement& s = *stmt_;
    if (wide_) {
      // The row's next non-NULL metric column (columns 2.. of the statement).
      while (next_column_ < columns_.size() &&
             s.ColumnType(static_cast<int>(next_column_) + 2) == kColumnNull) {
        ++next_column_;
      }
      if (next_column_ == columns_.size()) {
        GSYS_RETURN_IF_ERROR(Step());
        continue;
      }
      const Column& c = columns_[next_column_];
      sample_.ts = s.ColumnInt(0);
      sample_.device = s.ColumnInt(1);
      sample_.metric = c.name;
      sample_.bytes = c.bytes;
      sample_.value = s.ColumnDouble(static_cast<int>(next_column_) + 2) * c.scale;
      sample_.group = Group(sample_.device);
      ++next_column_;
      return static_cast<const GpuMetricSample*>(&sample_);
    }
    int64_t type = s.ColumnInt(1), metric = s.ColumnInt(2);
    auto name = nsys_names_.find({type, metric});
    if (name == nsys_names_.end()) {
      auto any = nsys_any_type_.find(metric);
      std::string text =
          any != nsys_any_type_.end() ? any->second : "metric " + std::to_string(metric);
      name = nsys_names_.emplace(std::make_pair(type, metric), std::move(text)).first;
    }
    sample_.ts = s.ColumnInt(0);
    sample_.device = type & 0xFF;
    sample_.metric = name->second;
    sample_.bytes = false;
    sample_.value = s.ColumnDouble(3);
    sample_.group = Group(sample_.device);
    GSYS_RETURN_IF_ERROR(Step());
    return static_cast<const GpuMetricSample*>(&sample_);
  }
  return static_cast<const GpuMetricSample*>(nullptr);
}

}  // namespace gsys::export_
