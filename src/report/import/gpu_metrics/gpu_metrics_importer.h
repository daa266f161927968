// SPDX-License-Identifier: Apache-2.0
// GPU metrics sampled by the launcher (the session's GPU metrics files, format/gpu_metrics_file.h:
// versioned, tab-separated, empty field = not reported) into GSYS_GPU_METRICS and
// GSYS_GPU_METRICS_DEVICES, timestamps made session-relative like every other event.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report {

struct GpuMetricsFiles {
  uint64_t rows = 0;  // GSYS_GPU_METRICS rows written (0 when the session has no samples)
  // Files of a version this gsys does not read (a newer gsys, a damaged header): not imported,
  // each with one line in `warnings`.
  uint64_t unreadable_files = 0;
  std::vector<std::string> warnings;
};

Result<GpuMetricsFiles> ImportGpuMetrics(Database& db, const std::string& session_dir,
                                         int64_t origin_ns);

}  // namespace gsys::report
