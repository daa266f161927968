// SPDX-License-Identifier: Apache-2.0
// GpuMetricsSource: GPU metric samples of a report as counter samples, one series per (GPU,
// metric), in time order, for the timeline exporters (perfetto counter tracks, chrome "C"
// events).
#pragma once

#include <climits>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/status.h"
#include "export/table_filter.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

// One sample of one metric of one GPU. The views stay valid as long as the source.
struct GpuMetricSample {
  int64_t ts = 0;
  int64_t device = 0;
  std::string_view group;   // "GPU 0 metrics (NVIDIA H200)": names the GPU's track group
  std::string_view metric;  // "SM clock (MHz)"
  double value = 0;
  bool bytes = false;  // the value is a size in bytes
};

// Where samples come from:
//  - gsys reports: GSYS_GPU_METRICS (NVML, one row per device per sample, one column per
//    metric; NULL columns skipped), device names from GSYS_GPU_METRICS_DEVICES. Power is given
//    in W (the table holds mW).
//  - nsys exports: GPU_METRICS(timestamp, typeId, metricId, value) named by
//    TARGET_INFO_GPU_METRICS(typeId, typeName, metricId, metricName); the GPU is typeId & 0xFF.
// A report with rows in GSYS_GPU_METRICS uses only those. --tables applies to either table.
// How: one SQL cursor ordered by time; a GSYS_GPU_METRICS row yields its non-NULL columns one by
// one. Memory: the names (bounded by GPUs x metrics), never the number of rows.
// Threading: one thread; borrows `reader`, which must outlive the source.
class GpuMetricsSource {
 public:
  static Result<std::unique_ptr<GpuMetricsSource>> Open(report::ReportReader& reader,
                                                        const TableFilter& filter);

  // The next sample at or before `up_to`, or nullptr when the next one is later or there is none.
  // The sample is valid until the next call.
  Result<const GpuMetricSample*> NextUpTo(int64_t up_to);
  Result<const GpuMetricSample*> Next() { return NextUpTo(INT64_MAX); }
  // The time of the next sample (or of the row it would come from); INT64_MAX after the last.
  int64_t PeekTs() const { return has_row_ ? stmt_->ColumnInt(0) : INT64_MAX; }

 private:
  struct Column {
    std::string name;  // metric name
    double scale = 1;  // value = column * scale
    bool bytes = false;
  };

  GpuMetricsSource() = default;
  Status OpenGsys(report::ReportReader& reader);
  Status OpenNsys(report::ReportReader& reader);
  Status Step();
  const std::string& Group(int64_t device);

  std::unique_ptr<report::Statement> stmt_;
  bool has_row_ = false;
  bool wide_ = false;                            // GSYS_GPU_METRICS: columns 2.. are metrics
  std::vector<Column> columns_;                  // wide: per metric column
  size_t next_column_ = 0;                       // wide: the next column of the current row
  std::map<int64_t, std::string> device_names_;  // device -> product name
  std::map<int64_t, std::string> groups_;        // device -> group name
  std::map<std::pair<int64_t, int64_t>, std::string> nsys_names_;  // (typeId, metricId) -> name
  std::map<int64_t, std::string> nsys_any_type_;                   // metricId -> name
  GpuMetricSample sample_;
};

}  // namespace gsys::export_
