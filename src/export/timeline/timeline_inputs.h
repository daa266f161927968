// SPDX-License-Identifier: Apache-2.0
// TimelineInputs: what a timeline exporter (perfetto, chrome) reads from a report.
#pragma once

#include <memory>
#include <string>

#include "common/status.h"
#include "export/timeline/gpu_metrics_source.h"
#include "export/timeline/memory_usage_source.h"
#include "export/timeline/timeline_event.h"
#include "export/timeline/timeline_source.h"
#include "report/reader/report_reader.h"

namespace gsys::export_ {

struct TimelineInputs {
  ReportInfo info;                            // process, thread and GPU names; UTC anchor
  std::unique_ptr<TimelineSource> events;     // every timeline event in time order
  std::unique_ptr<MemoryUsageSource> memory;  // GPU memory-usage samples in time order
  std::unique_ptr<GpuMetricsSource> metrics;  // GPU metric samples in time order
};

// Opens the inputs of `reader` restricted by the --tables regex `tables` ("" = all tables).
// The sources borrow `reader`, which must outlive them.
Result<TimelineInputs> OpenTimelineInputs(report::ReportReader& reader, const std::string& tables);

}  // namespace gsys::export_
