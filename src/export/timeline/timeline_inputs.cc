// SPDX-License-Identifier: Apache-2.0
#include "export/timeline/timeline_inputs.h"

#include "export/table_filter.h"

namespace gsys::export_ {

Result<TimelineInputs> OpenTimelineInputs(report::ReportReader& reader, const std::string& tables) {
  GSYS_ASSIGN_OR_RETURN(TableFilter filter, TableFilter::Parse(tables));
  TimelineInputs in;
  GSYS_ASSIGN_OR_RETURN(in.info, LoadReportInfo(reader));
  GSYS_ASSIGN_OR_RETURN(in.events, TimelineSource::Open(reader, filter));
  GSYS_ASSIGN_OR_RETURN(in.memory, MemoryUsageSource::Open(reader, filter));
  GSYS_ASSIGN_OR_RETURN(in.metrics, GpuMetricsSource::Open(reader, filter));
  return in;
}

}  // namespace gsys::export_
