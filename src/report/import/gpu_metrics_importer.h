// SPDX-License-Identifier: Apache-2.0
// GPU metrics sampled by the launcher (launcher/gpu_metrics.h: SESSION_DIR/gpu_metrics.tsv and
// gpu_metrics_devices.tsv, tab-separated, empty field = not reported) into GSYS_GPU_METRICS and
// GSYS_GPU_METRICS_DEVICES, timestamps made session-relative like every other event.
#pragma once

#include <cstdint>
#include <string>

#include "common/status.h"
#include "report/db/database.h"

namespace gsys::report {

// Returns the number of GSYS_GPU_METRICS rows written (0 when the session has no samples).
Result<uint64_t> ImportGpuMetrics(Database& db, const std::string& session_dir, int64_t origin_ns);

}  // namespace gsys::report
