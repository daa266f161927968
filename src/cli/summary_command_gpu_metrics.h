// SPDX-License-Identifier: Apache-2.0
// Sampled GPU metrics for `gsys summary` (--gpu-metrics-devices captures): per GPU, each metric's
// samples reduced to at most kMaxPoints time buckets for a chart, plus its count, mean and peak.
// Read from gsys's GSYS_GPU_METRICS (NVML/GPM columns) or from nsys's GPU_METRICS with the names
// in TARGET_INFO_GPU_METRICS ("SM Active [Throughput %]": name "SM Active", unit "%").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::report {
class Database;
}

namespace gsys::cli {

struct SampledGpuMetric {
  int64_t gpu = 0;        // gsys: NVML index; nsys: the metric source's typeId
  std::string gpu_label;  // "GPU 0 (NVIDIA H200)"
  std::string name;       // "SM active"
  std::string unit;       // "%", "W", "MHz", "GiB", "GB/s", ...
  int64_t samples = 0;
  double mean = 0, peak = 0;
  std::vector<double> t_s, value;  // bucket averages: session time (s), value in `unit`
};

inline constexpr int kMaxGpuMetricPoints = 1000;

// Every sampled metric of the report, by GPU then in a fixed metric order; empty when the
// report has no GPU metrics. `has_gsys_table` / `has_nsys_tables`: which layout is present.
Result<std::vector<SampledGpuMetric>> ReadSampledGpuMetrics(report::Database& db,
                                                            bool has_gsys_table,
                                                            bool has_nsys_tables);

}  // namespace gsys::cli
