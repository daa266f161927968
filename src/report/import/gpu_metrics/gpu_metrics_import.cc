// SPDX-License-Identifier: Apache-2.0
#include "report/import/gpu_metrics/gpu_metrics_import.h"

#include "common/strings.h"
#include "report/import/gpu_metrics/gpu_metrics_importer.h"

namespace gsys::report {

Status GpuMetricsImport::Finish(ImportSummary* summary) {
  GSYS_ASSIGN_OR_RETURN(
      GpuMetricsFiles files,
      ImportGpuMetrics(context_.writer->db(), context_.session_dir, context_.origin));
  summary->gpu_metric_rows = files.rows;
  summary->counters[ImportCounter::kGpuMetricsUnreadable] += files.unreadable_files;
  for (auto& w : files.warnings) summary->warnings.push_back(std::move(w));
  if (files.rows != 0) {
    summary->domain_lines.push_back("GPU metrics: " + GroupThousands(std::to_string(files.rows)) +
                                    " samples");
  }
  return OkStatus();
}

}  // namespace gsys::report
