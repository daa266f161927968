// SPDX-License-Identifier: Apache-2.0
// GPU utilization over time for `gsys summary`: the busy fraction of each GPU per time bin, where
// busy means at least one kernel, memcpy or memset running (overlapping work on several streams
// counts once). One scan of each GPU table; SQL queries where a value is not an integer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"

namespace gsys::report {
class Database;
}

namespace gsys::cli {

struct GpuUtilization {
  int64_t start_ns = 0;  // start of the first bin (session timeline)
  int64_t bin_ns = 1;    // width of every bin
  int64_t end_ns = 0;    // end of the range covered (<= start_ns + bins * bin_ns)
  struct Gpu {
    int64_t device_id = 0;
    std::string name;  // from TARGET_INFO_GPU; empty when unknown
    int64_t kernels = 0, memory_ops = 0;
    int64_t busy_ns = 0;                // union of the GPU's activity
    int64_t first_ns = 0, last_ns = 0;  // first start and last end of its activity
    std::vector<double> busy_percent;   // per bin, 0..100
  };
  std::vector<Gpu> gpus;  // by device id
};

// Computes the utilization of every GPU in `bins` equal bins spanning the report's analysis range
// (ANALYSIS_DETAILS when it contains every GPU activity, else the span of the activity).
// nullopt when the report holds no kernel, memcpy or memset. `bins` >= 1.
Result<std::optional<GpuUtilization>> ComputeGpuUtilization(report::Database& db, int bins);

namespace gpu_util_internal {
// ComputeGpuUtilization, from the SQL queries alone when `sql_only` (tests compare the two).
Result<std::optional<GpuUtilization>> Compute(report::Database& db, int bins, bool sql_only);
}  // namespace gpu_util_internal

}  // namespace gsys::cli
