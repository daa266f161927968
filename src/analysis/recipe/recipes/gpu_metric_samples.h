// SPDX-License-Identifier: Apache-2.0
// GPU metric samples for the gpu_metric_* and nvlink_sum recipes, from either source a report
// may hold: nsys's GPU_METRICS (one row per sample and metric, names in TARGET_INFO_GPU_METRICS,
// GPU = typeId & 0xFF) or gsys's GSYS_GPU_METRICS (one row per sample and device, a column per
// metric, from `gsys profile --gpu-metrics-devices`). GSYS_GPU_METRICS wins when both have rows.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/recipe/recipe.h"
#include "common/status.h"

namespace gsys::analysis::recipe {

// One metric a recipe reads, under the names each source gives it.
struct MetricSpec {
  std::string name;                     // the recipe's column / row name
  std::vector<std::string> nsys_names;  // TARGET_INFO_GPU_METRICS.metricName values
  std::string gsys_column;              // GSYS_GPU_METRICS column; "" when gsys has none
};

// Every metric the report samples, as nsys's gpu_metric_util_sum lists them: for GPU_METRICS each
// metricName in name order, the first present of each of nsys's four name families (SMs Active,
// SM Issue, Tensor Active, Unallocated Warps in Active SMs) shown under that short name; for
// GSYS_GPU_METRICS each metric column in schema order (smActivePercent as "SMs Active",
// tensorActivePercent as "Tensor Active", the others under their column names).
Result<std::vector<MetricSpec>> AllMetrics(report::ReportReader& reader);

// The tables one of which must have rows (DataNeed::any_of).
const DataNeed& GpuMetricsNeed();

// Calls `sample` for every sample of the metrics in `metrics` (index into it) whose timestamp
// lies in [from, to] (--filter-time; unbounded when absent), in timestamp order.
Status ForEachMetricSample(
    report::ReportReader& reader, const std::vector<MetricSpec>& metrics,
    std::optional<int64_t> from, std::optional<int64_t> to,
    const std::function<void(int64_t ts, int64_t gpu, size_t metric, double value)>& sample);

// "BUS - NAME" of each GPU id (TARGET_INFO_GPU, else GSYS_GPU_METRICS_DEVICES), as nvlink_sum
// labels GPUs.
Result<std::vector<std::pair<int64_t, std::string>>> GpuLabels(report::ReportReader& reader);

}  // namespace gsys::analysis::recipe
